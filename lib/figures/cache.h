/* SPDX-License-Identifier: ISC */
/* The buffer cache's figures (twBufferCache), each in its natural unit.
 * A figure the source did not give is TW_FIG_NONE (figures/fig.h), so
 * that no reader mistakes an absent figure for a zero. */
#ifndef TW_FIGURES_CACHE_H
#define TW_FIGURES_CACHE_H

#include "figures/fig.h"

struct tw_cache_fig {
	double mem_total_bytes;
	double mem_available_bytes;
	double cached_bytes;
	double buffers_bytes;
	double dirty_bytes;
	double writeback_bytes;
	double hit_ratio_pct;		/* an estimate: method says how made */
	const char *method;		/* NULL when the hit ratio is not estimated */
	double logical_read_bytes;
	double physical_read_bytes;
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

#endif
