/* SPDX-License-Identifier: ISC */
/* The change watch: which published tunables changed value between two
 * samples, whoever changed them. tunewatch never writes a tunable.
 *
 * Watched: every /proc/sys value of twTunableTable, the queue attributes
 * of twDiskTable (scheduler, nr_requests, read_ahead_kb, wbt_lat_usec),
 * and the memory limits of twCgroupTable's cgroups (memory.high and
 * memory.max, v1's memory.limit_in_bytes; cglimits.c), which the sample
 * reads in each cgroup's turn (sample/cgroups.h). Each sample's values
 * are compared with the previous sample's; the first sample records
 * nothing, and neither does a value that appears or goes (a tunable this
 * kernel lacks, a disk or cgroup that comes or goes, an attribute that
 * cannot be read): only a value that was read in both and differs. A
 * limit set or removed is a change ("max" to "256M"). */
#ifndef TW_CHANGE_WATCH_H
#define TW_CHANGE_WATCH_H

#include <stddef.h>
#include <stdint.h>

#include "change/history.h"
#include "collect/cgroupread.h"
#include "sample/sample.h"
#include "view/view.h"

struct tw_change_queue;
struct tw_change_cglimit;

struct tw_change_watch {
	struct tw_change_history history;
	int primed;				/* a previous sample is kept */
	struct tw_sysctl_set sysctl;		/* the previous sample's */
	int sysctl_read;
	struct tw_change_queue *queues;		/* the previous sample's, by key */
	size_t nqueues;
	size_t queues_cap;
	struct tw_change_cglimit *cgroups;	/* the previous sample's, by index */
	size_t ncgroups;
	size_t cgroups_cap;
	int cgroups_read;
	enum tw_cg_version cgroups_version;
	uint64_t window_ms;
};

/* window_s: the window after a change that evaluates it. */
void tw_change_watch_init(struct tw_change_watch *w, unsigned window_s);
void tw_change_watch_free(struct tw_change_watch *w);

/* Compare sample s with the previous one, record what changed, evaluate
 * what has waited a window, and keep s's values for the next step. v is
 * the view built from s (the figures come from it). now_s is the wall
 * clock. TW_E_NOMEM leaves the previous values in place. */
int tw_change_watch_step(struct tw_change_watch *w, const struct tw_sample *s,
    const struct tw_view *v, int64_t now_s);

/* The cgroups' part of a step (cglimits.c): compare, keep, free. */
void tw_change_watch_cgroups(struct tw_change_watch *w, const struct tw_sample *s,
    const struct tw_view *v, int64_t now_s);
int tw_change_keep_cgroups(struct tw_change_watch *w, const struct tw_sample *s);
void tw_change_free_cgroups(struct tw_change_watch *w);

#endif
