/* SPDX-License-Identifier: ISC */
/* One SNMP session to the agent, and its round trips.
 *
 * SNMP v1 and v2c need none of Net-SNMP's start-up (no configuration
 * files, no USM keys): the session is opened directly, which is most of
 * what makes a check start faster than snmpget. Only v3 pays for
 * init_snmp() and its USM set-up. */
#ifndef TW_SNMPSESSION_H
#define TW_SNMPSESSION_H

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <stddef.h>

#include "snmptarget.h"
#include "tunewatch_oids.h"

/* twObjects, the root of every OID the client asks for. */
#define TW_SNMP_OBJECTS_LEN (TW_MIB_ARC_LEN + 1)
extern const oid tw_snmp_objects[TW_SNMP_OBJECTS_LEN];

struct tw_snmp_conn {
	void *sess;
	const struct tw_snmp_target *t;
	struct tw_snmp_stats *stats;
	char *err;			/* a one-line reason, naming host and port */
	size_t errlen;
	struct tw_snmp_scalars *scalars;	/* still to read (snmpscalars.h) */
	struct tw_snmp_bad *bad;	/* the first value not as the MIB says */
};

/* Open the session; TW_OK, TW_E_INVAL for settings Net-SNMP rejects or
 * TW_E_IO, with the reason in c->err. */
int tw_snmp_open(struct tw_snmp_conn *c);

/* One round trip; *resp is the answer. TW_E_TIMEOUT without one, TW_E_IO
 * when the request failed. */
int tw_snmp_request(struct tw_snmp_conn *c, netsnmp_pdu *pdu, netsnmp_pdu **resp);

void tw_snmp_close(struct tw_snmp_conn *c);

#endif
