/* Current values for advice, from a view alone: what tunewatchd has when
 * it judges its own view. A disk's queue attributes ("queue/nr_requests")
 * come from its row, "kernel.osrelease" from twAgentSystem, anything else
 * from the tunable table. (The checks have their own, in plugins/advise.c,
 * because they fetch the tunable table only when advice needs it.) */
#ifndef TW_FINDING_LOOKUP_H
#define TW_FINDING_LOOKUP_H

#include "view/view.h"

struct tw_view_lookup {
	const struct tw_view *v;
	const struct tw_view_disk *d;	/* NULL: no device */
	char buf[32];
};

/* A tw_advice_lookup_fn; ctx is a struct tw_view_lookup. */
const char *tw_view_lookup(void *ctx, const char *name);

#endif
