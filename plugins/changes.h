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
 * for check_disklatency; and of those the check's own subjects
 * (check_bufcache --cgroup: its cgroups' limits, and nothing else). A
 * cgroup's limit is a change of its directory, and its line begins with
 * the id of the finding it answers, so that a ticket is matched by id,
 * never by a unit's name that a user's unit may share:
 *
 *   change: tw-4f0c2a91b7de /sys/fs/cgroup/memory/system.slice/web.service
 *   MemoryLimit 64M -> 128M at 10:14; cgroup refaults 4467 pages/s before,
 *   0 pages/s after
 *
 * --local has no history, and prints none. */
#ifndef TW_PLUGIN_CHANGES_H
#define TW_PLUGIN_CHANGES_H

#include "change/figure.h"
#include "figures/change_record.h"
#include "checkio/output.h"
#include "view/view.h"

/* At most this many lines, the newest changes first. */
#define TW_PLUGIN_CHANGE_LINES 3

/* Append the lines for v's changes of family that shown (NULL: all)
 * takes; returns how many. */
int tw_plugin_changes(const struct tw_view *v, enum tw_change_family family,
    int (*shown)(const struct tw_view *, const struct tw_change_record *), struct tw_out *out);

/* Whether c is a change of a cgroup's limit. */
int tw_plugin_change_is_cgroup(const struct tw_change_record *c);

#endif
