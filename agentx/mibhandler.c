/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "mibhandler.h"

#include "view/mibview.h"
#include "util/clock.h"
#include "tunewatch_oids.h"

static const oid objects_oid[] = { TW_MIB_ARC, TW_OID_OBJECTS };
#define OBJECTS_LEN (TW_MIB_ARC_LEN + 1)

static const struct tw_view *served_view;

static void
set_value(netsnmp_variable_list *vb, const struct tw_ber_value *val)
{
	switch (val->type) {
	case TW_BER_OCTET_STRING:
		snmp_set_var_typed_value(vb, ASN_OCTET_STR, val->str, val->len);
		break;
	case TW_BER_COUNTER64: {
		struct counter64 c;

		c.high = (u_long)(val->num >> 32);
		c.low = (u_long)(val->num & 0xffffffffu);
		snmp_set_var_typed_value(vb, ASN_COUNTER64, &c, sizeof(c));
		break;
	}
	case TW_BER_GAUGE32:
		snmp_set_var_typed_integer(vb, ASN_GAUGE, (long)(val->num & 0xffffffffu));
		break;
	case TW_BER_INTEGER:
		snmp_set_var_typed_integer(vb, ASN_INTEGER, (long)(int32_t)val->num);
		break;
	}
}

/* The part of name below twObjects, or -1 when name is not below it:
 * before it (*before = 1) or after it. */
static int
suffix_of(const oid *name, size_t len, uint32_t *suffix, size_t *slen, int *before)
{
	size_t i;
	int c = snmp_oid_ncompare(name, len, objects_oid, OBJECTS_LEN, OBJECTS_LEN);

	*before = 0;
	if (c != 0 || len < OBJECTS_LEN) {
		*before = c < 0 || (c == 0 && len < OBJECTS_LEN);
		return -1;
	}
	*slen = len - OBJECTS_LEN;
	if (*slen > TW_MV_OID_MAX)
		*slen = TW_MV_OID_MAX;
	for (i = 0; i < *slen; i++)
		suffix[i] = (uint32_t)name[OBJECTS_LEN + i];
	return 0;
}

/* The one GET: the value of name, or why there is none. */
static enum tw_mv_result
get_of(const oid *name, size_t len, uint64_t now, struct tw_ber_value *val)
{
	uint32_t suffix[TW_MV_OID_MAX];
	size_t slen;
	int before;

	if (suffix_of(name, len, suffix, &slen, &before) != 0 ||
	    len - OBJECTS_LEN > TW_MV_OID_MAX)
		return TW_MV_NO_SUCH_OBJECT;
	return tw_mv_get(served_view, now, suffix, slen, val);
}

static int
exception_of(enum tw_mv_result r)
{
	return r == TW_MV_NO_SUCH_INSTANCE ? SNMP_NOSUCHINSTANCE : SNMP_NOSUCHOBJECT;
}

static void
answer_get(netsnmp_agent_request_info *reqinfo, netsnmp_request_info *req, uint64_t now)
{
	netsnmp_variable_list *vb = req->requestvb;
	struct tw_ber_value val;
	enum tw_mv_result r = get_of(vb->name, vb->name_length, now, &val);

	if (r == TW_MV_FOUND)
		set_value(vb, &val);
	else
		netsnmp_set_request_error(reqinfo, req, exception_of(r));
}

/* The instance after name (at or after it when inclusive), in full[] with
 * its value; 0 when there is none below twObjects. */
static int
next_of(const oid *name, size_t len, int inclusive, uint64_t now, oid *full, size_t *fulllen,
    struct tw_ber_value *val)
{
	uint32_t suffix[TW_MV_OID_MAX], next[TW_MV_OID_MAX];
	size_t slen = 0, nlen, i;
	int before;

	if (suffix_of(name, len, suffix, &slen, &before) != 0) {
		if (!before)
			return 0;	/* past our subtree */
		slen = 0;
	}
	if (tw_mv_next(served_view, now, suffix, slen, inclusive, next, &nlen, val) !=
	    TW_MV_FOUND)
		return 0;
	memcpy(full, objects_oid, sizeof(objects_oid));
	for (i = 0; i < nlen; i++)
		full[OBJECTS_LEN + i] = next[i];
	*fulllen = OBJECTS_LEN + nlen;
	return 1;
}

static void
answer_getnext(netsnmp_request_info *req, uint64_t now)
{
	netsnmp_variable_list *vb = req->requestvb;
	oid full[OBJECTS_LEN + TW_MV_OID_MAX];
	size_t flen;
	struct tw_ber_value val;

	if (!next_of(vb->name, vb->name_length, req->inclusive, now, full, &flen, &val))
		return;	/* the agent moves on */
	snmp_set_var_objid(vb, full, flen);
	set_value(vb, &val);
}

static int
handle_request(netsnmp_mib_handler *handler, netsnmp_handler_registration *reginfo,
    netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	uint64_t now = tw_clock_ms();
	netsnmp_request_info *req;

	(void)handler;
	(void)reginfo;
	for (req = requests; req != NULL; req = req->next) {
		if (req->processed)
			continue;
		switch (reqinfo->mode) {
		case MODE_GET:
			answer_get(reqinfo, req, now);
			break;
		case MODE_GETNEXT:
			answer_getnext(req, now);
			break;
		default:
			netsnmp_set_request_error(reqinfo, req, SNMP_ERR_NOTWRITABLE);
			break;
		}
	}
	return SNMP_ERR_NOERROR;
}

/* ---- AgentX GET and GETNEXT answered where they arrive ------------------
 *
 * Net-SNMP's subagent hands every AgentX request to its agent machinery
 * through an internal pipe and back: three passes round its event loop and
 * ten system calls a request where the socket needs four. With the master
 * asking one GETNEXT per repetition of a GETBULK, that was most of what a
 * walk cost tunewatchd. A GET or GETNEXT whose every name is at or below
 * twObjects, in the default context, is answered here instead, from the
 * same view; anything else (other contexts, SETs, the master's own PDUs)
 * goes the usual way. Unlike that way, it does not postpone the next ping
 * to the master: the pings go on once a second as when idle. The wire
 * types are RFC 2741's. */

#define AX_GET		5
#define AX_GETNEXT	6
#define AX_RESPONSE	18

static netsnmp_callback next_callback;

/* Whether name is twObjects or lies below it. */
static int
below_objects(const oid *name, size_t len)
{
	return len >= OBJECTS_LEN &&
	    snmp_oid_compare(name, OBJECTS_LEN, objects_oid, OBJECTS_LEN) == 0;
}

/* The end of a GETNEXT's search range; 0 when the range is open (the null
 * OID 0.0, or none). */
static size_t
range_end(const netsnmp_variable_list *vb, const oid **end)
{
	size_t len = vb->val_len / sizeof(oid);

	*end = vb->val.objid;
	if (*end == NULL || len == 0 || (len == 2 && (*end)[0] == 0 && (*end)[1] == 0))
		return 0;
	return len;
}

/* Fill one varbind of the answer; q is the request's own. */
static void
direct_one(int getnext, const netsnmp_variable_list *q, netsnmp_variable_list *a, uint64_t now)
{
	oid full[OBJECTS_LEN + TW_MV_OID_MAX];
	struct tw_ber_value val;
	const oid *end;
	size_t flen, elen;

	if (!getnext) {
		enum tw_mv_result r = get_of(q->name, q->name_length, now, &val);

		if (r == TW_MV_FOUND)
			set_value(a, &val);
		else
			snmp_set_var_typed_value(a, exception_of(r), NULL, 0);
		return;
	}
	/* RFC 2741 7.2.3.2: nothing found before the range's end is
	 * endOfMibView, named by the range's start. */
	elen = range_end(q, &end);
	if (next_of(q->name, q->name_length, q->type == ASN_PRIV_INCL_RANGE, now, full, &flen,
	    &val) && (elen == 0 || snmp_oid_compare(full, flen, end, elen) < 0)) {
		snmp_set_var_objid(a, full, flen);
		set_value(a, &val);
	} else {
		snmp_set_var_objid(a, q->name, q->name_length);
		snmp_set_var_typed_value(a, SNMP_ENDOFMIBVIEW, NULL, 0);
	}
}

/* Answer pdu from the view; -1 when it is not ours to answer here. */
static int
direct_answer(netsnmp_session *sess, netsnmp_pdu *pdu)
{
	const netsnmp_variable_list *q;
	netsnmp_variable_list *a;
	netsnmp_pdu *resp;
	uint64_t now;

	if (pdu->community_len != 0 || pdu->variables == NULL)
		return -1;
	for (q = pdu->variables; q != NULL; q = q->next_variable)
		if (!below_objects(q->name, q->name_length))
			return -1;
	if ((resp = snmp_clone_pdu(pdu)) == NULL)
		return -1;
	now = tw_clock_ms();
	for (q = pdu->variables, a = resp->variables; q != NULL && a != NULL;
	    q = q->next_variable, a = a->next_variable)
		direct_one(pdu->command == AX_GETNEXT, q, a, now);
	resp->command = AX_RESPONSE;
	resp->version = sess->version;
	resp->errstat = SNMP_ERR_NOERROR;
	resp->errindex = 0;
	resp->flags &= ~UCD_MSG_FLAG_EXPECT_RESPONSE;
	if (snmp_send(sess, resp) == 0)
		snmp_free_pdu(resp);
	return 0;
}

static int
direct_callback(int op, netsnmp_session *sess, int reqid, netsnmp_pdu *pdu, void *magic)
{
	if (op == NETSNMP_CALLBACK_OP_RECEIVED_MESSAGE && pdu != NULL &&
	    (pdu->command == AX_GET || pdu->command == AX_GETNEXT) &&
	    direct_answer(sess, pdu) == 0)
		return 1;
	return next_callback != NULL ? next_callback(op, sess, reqid, pdu, magic) : 1;
}

void
tw_mibhandler_direct(void *master_session)
{
	netsnmp_session *sess = master_session;

	if (sess == NULL || sess->callback == direct_callback)
		return;
	next_callback = sess->callback;
	sess->callback = direct_callback;
}

int
tw_mibhandler_register(const struct tw_view *view)
{
	netsnmp_handler_registration *reg;

	served_view = view;
	reg = netsnmp_create_handler_registration("tunewatch", handle_request, objects_oid,
	    OBJECTS_LEN, HANDLER_CAN_RONLY);
	if (reg == NULL)
		return -1;
	return netsnmp_register_handler(reg) == MIB_REGISTERED_OK ? 0 : -1;
}
