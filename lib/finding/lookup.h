/* SPDX-License-Identifier: ISC */
/* Current values for advice, from a view alone: what tunewatchd has when
 * it judges its own view. A disk's queue attributes ("queue/nr_requests")
 * come from its row, "kernel.osrelease" from twAgentSystem, anything else
 * from the tunable table. (The checks have their own, in plugins/advise.c,
 * because they fetch the tunable table only when advice needs it.) */
#ifndef TW_FINDING_LOOKUP_H
#define TW_FINDING_LOOKUP_H

#include <stddef.h>

#include "figures/disk_record.h"
#include "view/view.h"

struct tw_view_lookup {
	const struct tw_view *v;
	const struct tw_disk_record *d;	/* NULL: no device */
	char buf[32];
};

/* A disk's queue attribute ("queue/nr_requests") from its record, as the
 * kernel prints it, in buf: the checks' lookup and tunewatchd's share it.
 * NULL when the record lacks it or name is no attribute a disk carries.
 * wbt_lat_usec is signed: -1 (the kernel's default) stays "-1". */
const char *tw_view_queue_value(const struct tw_disk_record *d, const char *name, char *buf,
    size_t len);

/* A tw_advice_lookup_fn; ctx is a struct tw_view_lookup. */
const char *tw_view_lookup(void *ctx, const char *name);

#endif
