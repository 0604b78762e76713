/* SPDX-License-Identifier: ISC */
/* A message-buffer pool's figures (a row of twDblockTable), typed and in
 * natural units, as the judges, lib/change and check_dblock read them.
 *
 * Only the window's figures are here: the cumulative counters
 * (twDblockFailures, twDblockPressureTime) are there for pollers that
 * take their own differences, and nothing in tunewatch judges them. */
#ifndef TW_FIGURES_POOL_RECORD_H
#define TW_FIGURES_POOL_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "figures/fig.h"

struct tw_pool_record {
	uint32_t cls;			/* twDblockClass (TW_DBLOCK_*) */
	uint32_t instance;		/* twDblockInstance */
	int32_t cpu;			/* a per-CPU pool's CPU; -1 for any other */
	/* The name is never NULL ("" when the row has none): every reader
	 * prints it or matches it. The others are NULL when absent. */
	const char *name;		/* "cpu1 backlog", "tcp memory" */
	const char *tunable;		/* "net.core.netdev_max_backlog" */
	const char *event;		/* what one failure is: "packet dropped" */
	double size_bytes;		/* bytes per block */
	double in_use;			/* blocks */
	double free;			/* blocks */
	double limit;			/* blocks */
	uint64_t failures;		/* since boot */
	double recent_failures;		/* failures within the window */
	uint64_t pressure_ms;		/* time in memory pressure, since boot */
	double recent_pressure_ms;	/* time in memory pressure within it */
	int64_t owner_uid;		/* tcp listen queue: the one owner of every
					 * listener seen full in the window; -1 */
};

/* The pools of one class taken together. */
/* Every figure absent; name "". */
static inline void
tw_pool_record_init(struct tw_pool_record *f)
{
	*f = (struct tw_pool_record){
		.cpu = -1, .name = "", .size_bytes = TW_FIG_NONE, .in_use = TW_FIG_NONE,
		.free = TW_FIG_NONE, .limit = TW_FIG_NONE, .failures = TW_FIG_NO_COUNT,
		.recent_failures = TW_FIG_NONE, .pressure_ms = TW_FIG_NO_COUNT,
		.recent_pressure_ms = TW_FIG_NONE, .owner_uid = -1,
	};
}

struct tw_pool_class_record {
	size_t count;			/* pools of the class */
	double recent_failures;		/* summed over the pools that have it */
	double recent_pressure_ms;	/* likewise */
	/* The pool with the most failures in the window, the first of them
	 * when tied; found is 0 when no pool of the class has the figure. */
	int found;
	struct tw_pool_record busiest;
};

#endif
