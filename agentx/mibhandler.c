#include "config.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "mibhandler.h"

#include "mibview.h"
#include "sampler.h"
#include "tunewatch_oids.h"

static const oid objects_oid[] = { TW_MIB_ARC, TW_OID_OBJECTS };
#define OBJECTS_LEN (TW_MIB_ARC_LEN + 1)

static const struct tw_view *served_view;

static void
set_value(netsnmp_variable_list *vb, const struct tw_mv_value *val)
{
	switch (val->type) {
	case TW_MV_STRING:
		snmp_set_var_typed_value(vb, ASN_OCTET_STR, val->str, val->len);
		break;
	case TW_MV_COUNTER64: {
		struct counter64 c;

		c.high = (u_long)(val->num >> 32);
		c.low = (u_long)(val->num & 0xffffffffu);
		snmp_set_var_typed_value(vb, ASN_COUNTER64, &c, sizeof(c));
		break;
	}
	case TW_MV_GAUGE:
		snmp_set_var_typed_integer(vb, ASN_GAUGE, (long)(val->num & 0xffffffffu));
		break;
	case TW_MV_INTEGER:
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

static void
answer_get(netsnmp_agent_request_info *reqinfo, netsnmp_request_info *req, uint64_t now)
{
	netsnmp_variable_list *vb = req->requestvb;
	uint32_t suffix[TW_MV_OID_MAX];
	size_t slen;
	int before;
	struct tw_mv_value val;
	enum tw_mv_result r;

	if (suffix_of(vb->name, vb->name_length, suffix, &slen, &before) != 0 ||
	    vb->name_length - OBJECTS_LEN > TW_MV_OID_MAX) {
		netsnmp_set_request_error(reqinfo, req, SNMP_NOSUCHOBJECT);
		return;
	}
	r = tw_mv_get(served_view, now, suffix, slen, &val);
	if (r == TW_MV_FOUND)
		set_value(vb, &val);
	else
		netsnmp_set_request_error(reqinfo, req,
		    r == TW_MV_NO_SUCH_INSTANCE ? SNMP_NOSUCHINSTANCE : SNMP_NOSUCHOBJECT);
}

static void
answer_getnext(netsnmp_request_info *req, uint64_t now)
{
	netsnmp_variable_list *vb = req->requestvb;
	uint32_t suffix[TW_MV_OID_MAX], next[TW_MV_OID_MAX];
	oid full[OBJECTS_LEN + TW_MV_OID_MAX];
	size_t slen = 0, nlen, i;
	int before;
	struct tw_mv_value val;

	if (suffix_of(vb->name, vb->name_length, suffix, &slen, &before) != 0) {
		if (!before)
			return;	/* past our subtree: the agent moves on */
		slen = 0;
	}
	if (tw_mv_next(served_view, now, suffix, slen, req->inclusive, next, &nlen, &val) !=
	    TW_MV_FOUND)
		return;
	memcpy(full, objects_oid, sizeof(objects_oid));
	for (i = 0; i < nlen; i++)
		full[OBJECTS_LEN + i] = next[i];
	snmp_set_var_objid(vb, full, OBJECTS_LEN + nlen);
	set_value(vb, &val);
}

static int
handle_request(netsnmp_mib_handler *handler, netsnmp_handler_registration *reginfo,
    netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	uint64_t now = tw_monotonic_ms();
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
