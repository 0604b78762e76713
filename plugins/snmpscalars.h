/* SPDX-License-Identifier: ISC */
/* The scalars a check reads (the agent group always, the buffer-cache
 * group when asked for): in one GET of their own, or, with v2c and v3, as
 * the non-repeaters of a table's first GETBULK, which saves a round
 * trip. */
#ifndef TW_SNMPSCALARS_H
#define TW_SNMPSCALARS_H

#include "snmpsession.h"
#include "view/view.h"

#define TW_SNMP_MAX_SCALARS 64

struct tw_snmp_scalars {
	unsigned id[TW_SNMP_MAX_SCALARS][2];	/* {group, object} */
	size_t n;		/* still to read */
	int registered;		/* twAgentVersion was answered */
};

/* The scalars for TW_FETCH_* flags what. */
void tw_snmp_scalars_init(struct tw_snmp_scalars *s, unsigned what);

/* Read them in one GET (v1, or nothing else to read). */
int tw_snmp_scalars_get(struct tw_snmp_conn *c, struct tw_view *v);

/* Ask for them as GETBULK non-repeaters: a GETNEXT of each object's OID
 * (without the .0) answers its instance when it exists. */
void tw_snmp_scalars_add(struct tw_snmp_conn *c, netsnmp_pdu *pdu);

/* Take their answers off the front of a GETBULK response; returns the
 * first repeater's varbind. */
netsnmp_variable_list *tw_snmp_scalars_take(struct tw_snmp_conn *c, struct tw_view *v,
    netsnmp_variable_list *vb);

#endif
