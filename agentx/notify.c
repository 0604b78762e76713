/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "notify.h"

#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "util/clock.h"
#include "util/ratelimit.h"
#include "util/sendq.h"
#include "view/notice.h"

/* RFC 2741's Notify PDU. */
#define AX_NOTIFY 12

/* One limit a class of finding (TW_FINDING_CLASS_*, from 1). */
static struct tw_ratelimit limit[TW_FINDING_CLASSES];
static struct tw_sendq queue;
static netsnmp_session *master;
/* Which session a request went out on: an answer (or the library's word
 * that none will come) for one that is gone no longer counts. */
static unsigned generation;

/* A name from view/notice.h, in Net-SNMP's oid. */
static void
to_oid(oid *dst, const uint32_t *src, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		dst[i] = src[i];
}

static void
free_varbinds(void *item)
{
	snmp_free_varbind(item);
}

int
tw_notify_init(unsigned per_minute)
{
	unsigned c;

	for (c = 0; c < TW_FINDING_CLASSES; c++)
		tw_ratelimit_init(&limit[c], per_minute);
	return tw_sendq_init(&queue, TW_NOTIFY_QUEUE, TW_NOTIFY_INFLIGHT, free_varbinds) == 0 ?
	    0 : -1;
}

void
tw_notify_free(void)
{
	if (queue.ring != NULL)
		tw_sendq_free(&queue);
}

void
tw_notify_master(void *session)
{
	master = session;
	generation++;
	tw_sendq_forget_inflight(&queue);
}

void
tw_notify_counts(struct tw_notify_counts *c)
{
	unsigned k;

	c->suppressed = 0;
	for (k = 0; k < TW_FINDING_CLASSES; k++)
		c->suppressed += limit[k].suppressed;
	c->dropped = queue.dropped;
	c->sent = queue.sent;
	c->per_minute = limit[0].per_minute;
	c->queued = queue.n;
}

/* Every end of a request but a resend: the answer, a timeout, a failure
 * to send, the session closed. */
static int
on_answer(int op, netsnmp_session *sess, int reqid, netsnmp_pdu *pdu, void *magic)
{
	(void)sess;
	(void)reqid;
	(void)pdu;
	if (op != NETSNMP_CALLBACK_OP_RESEND && (uintptr_t)magic == generation)
		tw_sendq_answered(&queue);
	return 1;
}

/* The descriptor of the AgentX socket, or -1. */
static int
master_fd(void)
{
	netsnmp_transport *t;

	if (master == NULL)
		return -1;
	t = snmp_sess_transport(snmp_sess_pointer(master));
	return t != NULL ? t->sock : -1;
}

void
tw_notify_flush(void)
{
	netsnmp_variable_list *vars;
	int fd = master_fd();

	while ((vars = tw_sendq_next(&queue, fd)) != NULL) {
		netsnmp_pdu *pdu = snmp_pdu_create(AX_NOTIFY);

		if (pdu == NULL) {
			snmp_free_varbind(vars);
			tw_sendq_failed(&queue);
			continue;
		}
		pdu->version = master->version;
		pdu->sessid = master->sessid;
		pdu->variables = vars;
		if (snmp_async_send(master, pdu, on_answer, (void *)(uintptr_t)generation) == 0) {
			snmp_free_pdu(pdu);
			tw_sendq_failed(&queue);
			continue;
		}
		tw_sendq_sent(&queue);
	}
}

int
tw_notify_send(unsigned n, unsigned cls, netsnmp_variable_list *vars)
{
	/* sysUpTime.0 and snmpTrapOID.0, the first varbinds of every SNMPv2
	 * notification; the uptime is the agent's, as send_v2trap gives. */
	static const oid uptime_oid[] = { 1, 3, 6, 1, 2, 1, 1, 3, 0 };
	static const oid trap_oid_oid[] = { 1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0 };
	uint32_t name[TW_NOTICE_NAME_MAX];
	oid notification[TW_NOTICE_NAME_MAX];
	netsnmp_variable_list *head = NULL;
	u_long uptime = netsnmp_get_agent_uptime();
	size_t len;
	int rc;

	if (cls < TW_FINDING_CLASS_HOST || cls > TW_FINDING_CLASSES)
		cls = TW_FINDING_CLASS_HOST;
	if (!tw_ratelimit_allow(&limit[cls - 1], tw_clock_ms())) {
		snmp_free_varbind(vars);
		return 1;
	}
	len = tw_notice_trap_name(n, name);
	to_oid(notification, name, len);
	if (snmp_varlist_add_variable(&head, uptime_oid, OID_LENGTH(uptime_oid), ASN_TIMETICKS,
	    (const u_char *)&uptime, sizeof(uptime)) == NULL ||
	    snmp_varlist_add_variable(&head, trap_oid_oid, OID_LENGTH(trap_oid_oid),
	    ASN_OBJECT_ID, (const u_char *)notification, len * sizeof(oid)) == NULL) {
		snmp_free_varbind(head);
		snmp_free_varbind(vars);
		return -1;
	}
	head->next_variable->next_variable = vars;
	rc = tw_sendq_push_class(&queue, head, cls - 1, TW_FINDING_CLASSES) == 0 ? 0 : 2;
	tw_notify_flush();
	return rc;
}

/* One object of a notice, appended to vars; NULL when out of memory. */
static netsnmp_variable_list *
add_object(netsnmp_variable_list **vars, const struct tw_notice *n,
    const struct tw_notice_object *o)
{
	uint32_t cell[TW_NOTICE_NAME_MAX];
	oid name[TW_NOTICE_NAME_MAX];
	size_t len = tw_notice_object_name(n, o, cell);
	const void *data;
	size_t size;
	u_char type;
	long num;
	u_long unum;

	to_oid(name, cell, len);
	switch (o->val.type) {
	case TW_BER_OCTET_STRING:
		type = ASN_OCTET_STR;
		data = o->val.str;
		size = o->val.len;
		break;
	case TW_BER_INTEGER:
		num = (long)(int32_t)o->val.num;
		type = ASN_INTEGER;
		data = &num;
		size = sizeof(num);
		break;
	default:
		unum = (u_long)(o->val.num & 0xffffffffu);
		type = ASN_UNSIGNED;
		data = &unum;
		size = sizeof(unum);
		break;
	}
	return snmp_varlist_add_variable(vars, name, len, type, data, size);
}

int
tw_notify_send_notice(const struct tw_notice *n)
{
	netsnmp_variable_list *vars = NULL;
	size_t i;

	for (i = 0; i < n->n; i++)
		if (add_object(&vars, n, &n->obj[i]) == NULL) {
			snmp_free_varbind(vars);
			return -1;
		}
	return tw_notify_send(n->notification, n->cls, vars);
}
