/* SPDX-License-Identifier: ISC */
/* The "change:" lines: the recent changes of the tunables a check is
 * about, from tunewatchd's twChangeTable, with the watched figure before
 * and after, so that a ticket can be closed on evidence or reopened:
 *
 *   change: net.core.netdev_max_backlog 1000 -> 2000 at 10:14; cpu1
 *   backlog 152 failures/min before, 0 failures/min after
 *
 * Only changes of the check's family (lib/change/figure.h): pool knobs
 * for check_dblock, cache knobs for check_bufcache, queue and disk knobs
 * for check_disklatency. --local has no history, and prints none. */
#ifndef TW_PLUGIN_CHANGES_H
#define TW_PLUGIN_CHANGES_H

#include "change/figure.h"
#include "plugin/output.h"
#include "view/view.h"

/* At most this many lines, the newest changes first. */
#define TW_PLUGIN_CHANGE_LINES 3

/* Append the lines for v's changes of family; returns how many. */
int tw_plugin_changes(const struct tw_view *v, enum tw_change_family family,
    struct tw_out *out);

#endif
