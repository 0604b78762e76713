/* SPDX-License-Identifier: ISC */
/* One disk's reads or writes as the request-latency source timed them (a
 * twReqLatEntry), in natural units, decoded from its view row by
 * lib/view/record_reqlat.c. Absent: a double is TW_FIG_NONE (a percentile of
 * too few requests among them), a string NULL; strings point into the
 * row. */
#ifndef TW_FIGURES_REQLAT_RECORD_H
#define TW_FIGURES_REQLAT_RECORD_H

#include <stdint.h>

#include "figures/fig.h"

struct tw_reqlat_record {
	uint32_t major, minor;
	uint32_t dir;			/* TW_REQLAT_DIR_READ or _WRITE */
	const char *device;
	double window_ms;
	double requests;		/* in the window */
	double p50_ms, p90_ms, p99_ms, max_ms, mean_ms;	/* service time */
	double queued;			/* requests whose queueing was timed */
	double queue_p50_ms, queue_p90_ms, queue_p99_ms, queue_max_ms;
	double total;			/* requests since timing began */
};

/* Every figure absent; device "". */
static inline void
tw_reqlat_record_init(struct tw_reqlat_record *f)
{
	*f = (struct tw_reqlat_record){
		.device = "", .window_ms = TW_FIG_NONE, .requests = TW_FIG_NONE,
		.p50_ms = TW_FIG_NONE, .p90_ms = TW_FIG_NONE, .p99_ms = TW_FIG_NONE,
		.max_ms = TW_FIG_NONE, .mean_ms = TW_FIG_NONE, .queued = TW_FIG_NONE,
		.queue_p50_ms = TW_FIG_NONE, .queue_p90_ms = TW_FIG_NONE,
		.queue_p99_ms = TW_FIG_NONE, .queue_max_ms = TW_FIG_NONE, .total = TW_FIG_NONE,
	};
}

/* The percentile pc (50, 90, anything else 99) of f's service time, ms. */
static inline double
tw_reqlat_record_percentile(const struct tw_reqlat_record *f, unsigned pc)
{
	return pc == 50 ? f->p50_ms : pc == 90 ? f->p90_ms : f->p99_ms;
}

#endif
