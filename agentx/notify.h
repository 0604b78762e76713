/* SPDX-License-Identifier: ISC */
/* TUNEWATCH-MIB notifications, sent through the AgentX master agent.
 *
 * A subagent's notification goes to snmpd as an AgentX Notify PDU; snmpd
 * sends it on to every trap2sink, trapsess and informsink it is
 * configured with, v2c or v3, and answers the subagent with a Response.
 * tunewatchd knows no trap receivers of its own. A receiver that is down
 * loses the notification, nothing else: the MIB keeps the state that the
 * notification announced.
 *
 * Sending never blocks tunewatchd, nor snmpd (util/sendq.h says why that
 * needs care): each class of finding (TW_FINDING_CLASS_*: the host's, a
 * service's, a user's; a change's are the host's) has its own limit a
 * minute (tunewatchd.conf notificationsPerMinute, at most
 * TW_RATELIMIT_CEILING), so that a flood of one class holds back none of
 * another's, and what the limits let through waits in a queue of
 * TW_NOTIFY_QUEUE, in which each class keeps room (util/sendq.h), which drains
 * while fewer than TW_NOTIFY_INFLIGHT are unanswered and the AgentX socket
 * is writable: after each sample, and after each turn of the event loop,
 * where snmpd's answers are read. What the limit holds back is counted as
 * suppressed, what finds the queue full as dropped; while there is no
 * master, notifications wait in the queue as well. */
#ifndef TW_AGENT_NOTIFY_H
#define TW_AGENT_NOTIFY_H

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <stdint.h>

/* A burst the queue takes before it drops: more than a sample of a few
 * disks and pools in trouble raises, fewer than twFindingCapacity. */
#define TW_NOTIFY_QUEUE 128
/* Notifications sent and not yet answered by the master, at most: its
 * answers to them (a few hundred bytes of socket buffer each) then always
 * fit in the socket towards tunewatchd, so snmpd never waits to write. */
#define TW_NOTIFY_INFLIGHT 8

struct tw_notify_counts {
	uint64_t suppressed;	/* held back by the limit a minute */
	uint64_t dropped;	/* found the queue full, or could not be sent */
	uint64_t sent;		/* handed to the master */
	unsigned per_minute;	/* the limit in force */
	size_t queued;		/* waiting now */
};

/* Set the limit (0: the ceiling). Call once, before the first
 * tw_notify_send(). 0, or -1 when out of memory. */
int tw_notify_init(unsigned per_minute);
void tw_notify_free(void);

/* The AgentX session to the master came up (session: Net-SNMP's
 * netsnmp_session of it) or went down (NULL). */
void tw_notify_master(void *session);

/* Queue notification twNotifications.n (tunewatch_oids.h TW_NOTIFY_*) of
 * class cls (TW_FINDING_CLASS_*) with the varbinds vars, which this takes
 * over and frees in every case, and send what may go. Returns 0 when
 * queued (or sent), 1 when the class's limit held it back, 2 when the
 * queue was full, -1 when it could not be built. */
int tw_notify_send(unsigned n, unsigned cls, netsnmp_variable_list *vars);

/* The same for a notice of lib/view (view/notice.h): its objects as
 * varbinds, each named by its column and the row's index and typed as the
 * MIB types it. */
struct tw_notice;
int tw_notify_send_notice(const struct tw_notice *n);

/* Send what the queue holds, as far as it may go now. */
void tw_notify_flush(void);

void tw_notify_counts(struct tw_notify_counts *c);

#endif
