/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "changes.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "change/history.h"
#include "notify.h"
#include "options.h"
#include "tunewatch_oids.h"
#include "util/error.h"
#include "view/columns.h"

/* Add column col of change row r to vars, as the MIB types it; nothing
 * when the row has none (a figure that cannot be given is left out). */
static void
add_column(netsnmp_variable_list **vars, const struct tw_view_change *r, unsigned col)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_CHANGE_TABLE);
	oid name[] = { TW_MIB_ARC, TW_OID_OBJECTS, TW_OID_CHANGE_TABLE, TW_OID_CHANGE_ENTRY,
	    col, r->index };
	struct tw_ber_value val;
	long n;

	if (!tw_column_load(g, r, col, &val))
		return;
	switch (val.type) {
	case TW_BER_OCTET_STRING:
		snmp_varlist_add_variable(vars, name, OID_LENGTH(name), ASN_OCTET_STR,
		    val.str, val.len);
		break;
	case TW_BER_GAUGE32:
		n = (long)(val.num & 0xffffffffu);
		snmp_varlist_add_variable(vars, name, OID_LENGTH(name), ASN_GAUGE, &n, sizeof(n));
		break;
	case TW_BER_INTEGER:
		n = (long)(int32_t)val.num;
		snmp_varlist_add_variable(vars, name, OID_LENGTH(name), ASN_INTEGER, &n,
		    sizeof(n));
		break;
	case TW_BER_COUNTER64:
		break;	/* no column of twChangeTable is one */
	}
}

/* The notification's OBJECTS, in the MIB's order. */
static void
announce(unsigned notification, const struct tw_view_change *r, const unsigned *cols,
    size_t ncols)
{
	netsnmp_variable_list *vars = NULL;
	size_t i;

	for (i = 0; i < ncols; i++)
		add_column(&vars, r, cols[i]);
	if (tw_notify_send(notification, vars) < 0)
		snmp_log(LOG_WARNING, TW_AGENT_NAME ": cannot build a notification for the "
		    "change of %s\n", r->tunable);
}

void
tw_agent_changes_step(const struct tw_monitor *m)
{
	static const unsigned changed[] = {
		TW_OID_CHANGE_TUNABLE, TW_OID_CHANGE_SUBJECT, TW_OID_CHANGE_OLD_VALUE,
		TW_OID_CHANGE_NEW_VALUE, TW_OID_CHANGE_TIME, TW_OID_CHANGE_FIGURE,
		TW_OID_CHANGE_FIGURE_UNIT, TW_OID_CHANGE_BEFORE,
	};
	static const unsigned evaluated[] = {
		TW_OID_CHANGE_TUNABLE, TW_OID_CHANGE_SUBJECT, TW_OID_CHANGE_OLD_VALUE,
		TW_OID_CHANGE_NEW_VALUE, TW_OID_CHANGE_TIME, TW_OID_CHANGE_FIGURE,
		TW_OID_CHANGE_FIGURE_UNIT, TW_OID_CHANGE_BEFORE, TW_OID_CHANGE_AFTER,
	};
	const struct tw_change_history *h = tw_monitor_change_history(m);
	const struct tw_view *v = tw_monitor_view(m);
	size_t i;
	int rc = tw_monitor_change_status(m);

	if (rc != TW_OK)
		snmp_log(LOG_ERR, TW_AGENT_NAME ": cannot keep the tunables for the change "
		    "record: %s\n", tw_strerror(rc));
	if (h == NULL)
		return;
	/* Oldest first, so that a receiver sees changes in the order made. */
	for (i = v->nchanges; i-- > 0;) {
		const struct tw_change *c = tw_change_history_at(h, i);
		const struct tw_view_change *r = &v->changes[i];

		if (c->events & TW_CHANGE_EV_SEEN)
			announce(TW_NOTIFY_TUNABLE_CHANGED, r, changed,
			    sizeof(changed) / sizeof(changed[0]));
		if (c->events & TW_CHANGE_EV_EVALUATED)
			announce(TW_NOTIFY_TUNABLE_CHANGE_EVALUATED, r, evaluated,
			    sizeof(evaluated) / sizeof(evaluated[0]));
	}
}
