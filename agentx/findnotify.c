/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "findnotify.h"

#include "finding/tracker.h"
#include "notify.h"
#include "tunewatch_oids.h"
#include "view/columns.h"

/* The objects each notification carries, in the MIB's OBJECTS order; the
 * last is the raised time, or for a severity change the changed time. */
static const unsigned carried[] = {
	TW_OID_FINDING_ID, TW_OID_FINDING_SYMPTOM, TW_OID_FINDING_SUBJECT,
	TW_OID_FINDING_SEVERITY, TW_OID_FINDING_EVIDENCE, TW_OID_FINDING_TUNABLE,
	TW_OID_FINDING_CURRENT, TW_OID_FINDING_SUGGESTED, TW_OID_FINDING_APPLY,
	TW_OID_FINDING_PERSIST, TW_OID_FINDING_DOCUMENTATION, TW_OID_FINDING_RAISED,
};

#define NCARRIED (sizeof(carried) / sizeof(carried[0]))

/* The varbinds of one event: each column's instance for the finding's
 * index, typed by the column table. NULL when out of memory. */
static netsnmp_variable_list *
varbinds(const struct tw_finding_event *e)
{
	struct tw_view_finding row;
	const struct tw_column_group *g = tw_column_subgroup(TW_OID_FINDINGS,
	    TW_OID_FINDING_TABLE);
	netsnmp_variable_list *vars = NULL;
	oid name[] = { TW_MIB_ARC, TW_OID_OBJECTS, TW_OID_FINDINGS, TW_OID_FINDING_TABLE,
	    TW_OID_FINDING_ENTRY, 0, e->finding.index };
	size_t i;

	/* The finding the tracker keeps, in the MIB's terms, as its row of
	 * twFindingTable shows it. */
	tw_view_finding_row(&e->finding, &row);
	for (i = 0; i < NCARRIED; i++) {
		unsigned col = carried[i];
		struct tw_ber_value val;
		u_char type;
		const void *data;
		size_t len;
		long num;
		u_long unum;

		if (col == TW_OID_FINDING_RAISED && e->kind == TW_FINDING_EVENT_SEVERITY)
			col = TW_OID_FINDING_CHANGED;
		/* Every object of OBJECTS goes, in order, even when the row has
		 * no instance of it (no tunable): receivers such as snmptt
		 * number the varbinds, and a missing one shifts the rest. */
		if (!tw_column_load(g, &row, col, &val)) {
			if (col >= g->ncols || tw_column_ber(&g->cols[col]) != TW_BER_OCTET_STRING)
				continue;
			val.type = TW_BER_OCTET_STRING;
			val.str = "";
			val.len = 0;
			val.num = 0;
		}
		name[TW_MIB_ARC_LEN + 4] = col;
		switch (val.type) {
		case TW_BER_OCTET_STRING:
			type = ASN_OCTET_STR;
			data = val.str;
			len = val.len;
			break;
		case TW_BER_INTEGER:
			num = (long)val.num;
			type = ASN_INTEGER;
			data = &num;
			len = sizeof(num);
			break;
		default:
			unum = (u_long)val.num;
			type = ASN_UNSIGNED;
			data = &unum;
			len = sizeof(unum);
			break;
		}
		if (snmp_varlist_add_variable(&vars, name, OID_LENGTH(name), type, data, len) ==
		    NULL) {
			snmp_free_varbind(vars);
			return NULL;
		}
	}
	return vars;
}

unsigned
tw_findnotify_send(const struct tw_monitor *m)
{
	size_t i, n;
	const struct tw_finding_event *events = tw_monitor_events(m, &n);
	unsigned sent = 0;

	for (i = 0; i < n; i++) {
		netsnmp_variable_list *vars = varbinds(&events[i]);

		if (vars == NULL) {
			snmp_log(LOG_ERR, "tunewatchd: cannot build a notification: out of memory\n");
			continue;
		}
		if (tw_notify_send((unsigned)events[i].kind, vars) == 0)
			sent++;
	}
	return sent;
}
