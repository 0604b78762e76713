/* SPDX-License-Identifier: ISC */
/* Which figure shows whether a change of a tunable helped.
 *
 * The map goes through the advice rules (lib/advice/rules.c), so it
 * cannot disagree with them: a tunable -> the symptom of the first Linux
 * rule that names it (or names it as the twin of a ratio/bytes pair) ->
 * the figure that symptom is judged on:
 *
 *   pool symptoms (softnet drops and squeeze, UDP and TCP buffers and
 *   memory, the accept queue, high-order pages)
 *                        failures per minute of the pool of that class
 *                        with the most failures in the window when the
 *                        change is seen ("cpu1 backlog"); the same pool
 *                        after it
 *   TCP memory           the share of the window (percent) TCP spent in
 *                        memory pressure, where the pool has that time:
 *                        a pressure that never ends enters no new
 *                        episode, so its entries per minute would say 0
 *                        while it lasts
 *   low hit, refaults    refaults per second
 *   low hit, sequential  read hit ratio, percent
 *   memory pressure      memory pressure (PSI some avg10), percent
 *   writers throttled    the share of the window they were throttled,
 *   at the dirty limit   percent (twBcDirtyLimited)
 *   read_ahead_kb        that disk's reads per MiB read: what the
 *                        window changes is how many requests a stream
 *                        takes, and a larger one makes each slower
 *   another queue        r_await (ms) of that disk, whichever rule names
 *   attribute of a disk  it (scheduler, nr_requests, wbt_lat_usec)
 *   a cgroup's memory    that cgroup's refaults per second: its cache is
 *   limit                what the limit bounds (advice/advice_cgroup.c); named
 *                        as its ticket names it, the unit's property
 *                        (MemoryHigh, MemoryMax, MemoryLimit) or the file
 *
 * Every other symptom (metadata churn, dirty bursts, write latency, and
 * host knobs behind disk symptoms, which name no one disk) has no figure
 * (the dirty limits are DIRTY_LIMITED's, whose rules come first):
 * the change is still recorded, with the figure absent, never 0. A
 * tunable no rule names has no symptom and no family.
 *
 * The family says which check shows the change: pools check_dblock,
 * cache check_bufcache, disks check_disklatency. */
#ifndef TW_CHANGE_FIGURE_H
#define TW_CHANGE_FIGURE_H

#include <stddef.h>
#include <stdint.h>

#include "view/view.h"

enum tw_change_family {
	TW_CHANGE_FAMILY_NONE,		/* no rule names the tunable */
	TW_CHANGE_FAMILY_POOLS,
	TW_CHANGE_FAMILY_CACHE,
	TW_CHANGE_FAMILY_DISKS,
};

enum tw_change_figure_kind {
	TW_CHANGE_FIG_NONE,
	TW_CHANGE_FIG_POOL_FAILURES,	/* failures/min of one pool */
	TW_CHANGE_FIG_DISK_R_AWAIT,	/* ms, of the changed disk */
	TW_CHANGE_FIG_REFAULT_RATE,	/* pages/s */
	TW_CHANGE_FIG_HIT_RATIO,	/* % */
	TW_CHANGE_FIG_MEMORY_PRESSURE,	/* % */
	TW_CHANGE_FIG_CGROUP_REFAULTS,	/* pages/s of one cgroup */
	TW_CHANGE_FIG_DIRTY_LIMITED,	/* % of the window */
	TW_CHANGE_FIG_DISK_READS_PER_MIB,	/* reads per MiB read, of the disk */
	TW_CHANGE_FIG_POOL_PRESSURE,	/* %: of the window one pool spent in
					 * memory pressure */
};

/* What a tunable's change is judged on. */
struct tw_change_map {
	enum tw_change_family family;
	enum tw_change_figure_kind kind;
	uint32_t pool_class;		/* TW_DBLOCK_*, for pool failures */
};

/* The map for a tunable: "net.core.netdev_max_backlog", or a disk's
 * queue attribute, "queue/scheduler". */
struct tw_change_map tw_change_map(const char *tunable);

/* The family of a tunable, for the checks. */
enum tw_change_family tw_change_family_of(const char *tunable);

/* Which figure, of what (a pool, a disk) and where it was read. */
struct tw_change_figure {
	enum tw_change_figure_kind kind;
	uint32_t a, b;			/* pool class and instance, disk
					   major and minor, or a cgroup's
					   index */
	char name[64];			/* "cpu1 backlog", "sda r_await" */
	const char *unit;		/* "failures/min", "ms", "pages/s", "%" */
};

/* Choose the figure for a change of tunable on disk (major, minor; only
 * for queue attributes) in view v, the view of the sample where the change
 * is seen. Returns 0 and leaves f->kind TW_CHANGE_FIG_NONE when the
 * tunable has none, or is a cgroup's limit (tw_change_figure_cgroup). */
int tw_change_figure_pick(const struct tw_view *v, const char *tunable, uint32_t major,
    uint32_t minor, const char *disk_name, struct tw_change_figure *f);

/* The figure of a change of the limit of the cgroup with index. */
void tw_change_figure_cgroup(uint32_t index, struct tw_change_figure *f);

/* The figure's value in view v: its window's figure. 0 when v does not
 * have it (the window is not full enough, the pool or disk went away). */
int tw_change_figure_read(const struct tw_view *v, const struct tw_change_figure *f,
    double *out);

#endif
