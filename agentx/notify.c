#include "config.h"

#include "notify.h"

#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "tunewatch_oids.h"
#include "util/clock.h"
#include "util/ratelimit.h"

static struct tw_ratelimit limit;

void
tw_notify_init(unsigned per_minute)
{
	tw_ratelimit_init(&limit, per_minute);
}

uint64_t
tw_notify_suppressed(void)
{
	return limit.suppressed;
}

int
tw_notify_send(unsigned n, netsnmp_variable_list *vars)
{
	/* snmpTrapOID.0, the first varbind of every SNMPv2 notification. */
	static const oid trap_oid_oid[] = { 1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0 };
	oid notification[] = { TW_MIB_ARC, TW_OID_NOTIFICATIONS, 0 };
	netsnmp_variable_list *head = NULL;

	if (!tw_ratelimit_allow(&limit, tw_clock_ms())) {
		snmp_free_varbind(vars);
		return 1;
	}
	notification[TW_MIB_ARC_LEN + 1] = n;
	if (snmp_varlist_add_variable(&head, trap_oid_oid, OID_LENGTH(trap_oid_oid),
	    ASN_OBJECT_ID, (const u_char *)notification, sizeof(notification)) == NULL) {
		snmp_free_varbind(vars);
		return -1;
	}
	head->next_variable = vars;
	/* In a subagent this becomes an AgentX Notify PDU to the master. */
	send_v2trap(head);
	snmp_free_varbind(head);
	return 0;
}
