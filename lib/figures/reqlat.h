/* SPDX-License-Identifier: ISC */
/* One disk's reads or writes as the request-latency source timed them (a
 * twReqLatEntry), in natural units, decoded from its view row by
 * lib/view/fig_reqlat.c. Absent: a double is TW_FIG_NONE (a percentile of
 * too few requests among them), a string NULL; strings point into the
 * row. */
#ifndef TW_FIGURES_REQLAT_H
#define TW_FIGURES_REQLAT_H

#include <stdint.h>

#include "figures/fig.h"

struct tw_reqlat_fig {
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

/* The percentile pc (50, 90, anything else 99) of f's service time, ms. */
static inline double
tw_reqlat_fig_percentile(const struct tw_reqlat_fig *f, unsigned pc)
{
	return pc == 50 ? f->p50_ms : pc == 90 ? f->p90_ms : f->p99_ms;
}

#endif
