/* SPDX-License-Identifier: ISC */
/* The agent's tunable table, read the first time advice asks for a value
 * that the figures did not bring.
 *
 * Advice is the only reader of the table, and only a check that is not OK
 * gives advice: so an OK check makes one round trip, and a check that is
 * not OK makes one more and is still judged once, on the figures of its
 * first request. A failed read is kept, not reported: the check finishes,
 * and the driver then turns the failure into its one UNKNOWN line, as for
 * any failure to get the figures. */
#ifndef TW_PLUGIN_TUNABLES_H
#define TW_PLUGIN_TUNABLES_H

#include <stddef.h>

#include "snmpsource.h"
#include "view/view.h"

struct tw_tunables {
	const struct tw_snmp_target *snmp;	/* NULL: nothing (more) to read */
	struct tw_snmp_stats *stats;		/* the read's round trips add here */
	struct tw_view view;			/* the table, once read */
	int rc;				/* TW_OK, or why the read failed */
	char err[512];			/* ... in one line */
};

/* Nothing read yet. snmp is the agent to read the table from when it is
 * first needed, or NULL when the figures' view already has it (--local,
 * or -v, which reads everything at once). */
void tw_tunables_init(struct tw_tunables *t, const struct tw_snmp_target *snmp,
    struct tw_snmp_stats *stats);

/* The current value of the tunable name: from v's table if it has the
 * name, else from the agent's, read now if it was not read yet. NULL when
 * neither has it, or the read failed (t->rc says so). */
const char *tw_tunables_get(struct tw_tunables *t, const struct tw_view *v, const char *name);

void tw_tunables_free(struct tw_tunables *t);

#endif
