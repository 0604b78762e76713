/* TUNEWATCH-MIB notifications, sent through the AgentX master agent.
 *
 * A subagent's notification goes to snmpd as an AgentX Notify PDU; snmpd
 * sends it on to every trap2sink, trapsess and informsink it is
 * configured with, v2c or v3. tunewatchd knows no trap receivers of its
 * own. A receiver that is down loses the notification, nothing else: the
 * MIB keeps the state that the notification announced.
 *
 * All notifications share one limit a minute (tunewatchd.conf
 * notificationsPerMinute); what the limit holds back is counted in
 * tw_notify_suppressed(). */
#ifndef TW_AGENT_NOTIFY_H
#define TW_AGENT_NOTIFY_H

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <stdint.h>

/* Set the limit (0: none). Call before the first tw_notify_send(). */
void tw_notify_init(unsigned per_minute);

/* Send notification twNotifications.n (tunewatch_oids.h TW_NOTIFY_*)
 * with the varbinds vars, which this takes over and frees in every case.
 * Returns 0 when sent to the master, 1 when the limit held it back, -1
 * when it could not be built. */
int tw_notify_send(unsigned n, netsnmp_variable_list *vars);

/* Notifications held back by the limit since start. */
uint64_t tw_notify_suppressed(void);

#endif
