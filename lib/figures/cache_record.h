/* SPDX-License-Identifier: ISC */
/* The buffer cache's figures (twBufferCache), each in its natural unit.
 * A figure the source did not give is TW_FIG_NONE (figures/fig.h), so
 * that no reader mistakes an absent figure for a zero. */
#ifndef TW_FIGURES_CACHE_RECORD_H
#define TW_FIGURES_CACHE_RECORD_H

#include <stdint.h>

#include "figures/fig.h"

/* How the hit ratio is estimated (twBcHitRatioMethod). */
#define TW_HIT_RATIO_METHOD \
	"proc-pid-io: 1 - sum(read_bytes)/sum(rchar) of processes alive across or born within " \
	"each interval"

struct tw_cache_record {
	double mem_total_bytes;
	double mem_available_bytes;
	double cached_bytes;
	double buffers_bytes;
	double dirty_bytes;
	double writeback_bytes;
	double hit_ratio_pct;		/* an estimate: method says how made */
	const char *method;		/* NULL when the hit ratio is not estimated */
	uint64_t logical_read_bytes;	/* by the processes the estimate read */
	uint64_t physical_read_bytes;
	double hit_ratio_processes;	/* processes the estimate read */
	double hit_ratio_unreadable;	/* processes it could not read */
	double refaults;		/* pages, since boot */
	double refaults_s;
	double major_faults;
	double major_faults_s;
	double page_in_kib_s;
	double memory_pressure_pct;	/* PSI "some", 10 s average */
	double io_pressure_pct;
	double swap_total_bytes;
	double swap_free_bytes;
	double dirty_threshold_bytes;
	double dirty_bg_threshold_bytes;
	double dirty_limited_pct;	/* of the window, writers throttled */
	double reclaim_s;		/* host-wide reclaim, pages/s */
};

/* Every figure absent. */
static inline void
tw_cache_record_init(struct tw_cache_record *f)
{
	*f = (struct tw_cache_record){
		.mem_total_bytes = TW_FIG_NONE, .mem_available_bytes = TW_FIG_NONE,
		.cached_bytes = TW_FIG_NONE, .buffers_bytes = TW_FIG_NONE,
		.dirty_bytes = TW_FIG_NONE, .writeback_bytes = TW_FIG_NONE,
		.hit_ratio_pct = TW_FIG_NONE, .logical_read_bytes = TW_FIG_NO_COUNT,
		.physical_read_bytes = TW_FIG_NO_COUNT, .hit_ratio_processes = TW_FIG_NONE,
		.hit_ratio_unreadable = TW_FIG_NONE, .refaults = TW_FIG_NONE,
		.refaults_s = TW_FIG_NONE, .major_faults = TW_FIG_NONE,
		.major_faults_s = TW_FIG_NONE, .page_in_kib_s = TW_FIG_NONE,
		.memory_pressure_pct = TW_FIG_NONE, .io_pressure_pct = TW_FIG_NONE,
		.swap_total_bytes = TW_FIG_NONE, .swap_free_bytes = TW_FIG_NONE,
		.dirty_threshold_bytes = TW_FIG_NONE, .dirty_bg_threshold_bytes = TW_FIG_NONE,
		.dirty_limited_pct = TW_FIG_NONE, .reclaim_s = TW_FIG_NONE,
	};
}

#endif
