/* SPDX-License-Identifier: ISC */
/* One probed device's figures (a twProbeEntry) in natural units, decoded
 * from its view row by lib/view/record_probe.c. Absent: a double is
 * TW_FIG_NONE. The strings point into the row, which always has them
 * ("" when unknown). */
#ifndef TW_FIGURES_PROBE_RECORD_H
#define TW_FIGURES_PROBE_RECORD_H

#include <stdint.h>

#include "figures/fig.h"

struct tw_probe_record {
	uint32_t major, minor;
	const char *device;
	const char *state;		/* "probing", "errors", "idle", ... */
	const char *reason;
	double rate_reads_s;		/* the reads the probe aims at a second */
	double read_size_bytes;
	double window_ms;
	double reads;			/* timed in the window */
	double min_ms, p50_ms, p90_ms, p99_ms, max_ms, mean_ms;
	double timeouts, missed, errors;	/* reads, slots, reads */
};

/* Every figure absent; the strings "". */
static inline void
tw_probe_record_init(struct tw_probe_record *f)
{
	*f = (struct tw_probe_record){
		.device = "", .state = "", .reason = "", .rate_reads_s = TW_FIG_NONE,
		.read_size_bytes = TW_FIG_NONE, .window_ms = TW_FIG_NONE, .reads = TW_FIG_NONE,
		.min_ms = TW_FIG_NONE, .p50_ms = TW_FIG_NONE, .p90_ms = TW_FIG_NONE,
		.p99_ms = TW_FIG_NONE, .max_ms = TW_FIG_NONE, .mean_ms = TW_FIG_NONE,
		.timeouts = TW_FIG_NONE, .missed = TW_FIG_NONE, .errors = TW_FIG_NONE,
	};
}

/* The percentile pc (50, 90, anything else 99) of f, in ms. */
static inline double
tw_probe_record_percentile(const struct tw_probe_record *f, unsigned pc)
{
	return pc == 50 ? f->p50_ms : pc == 90 ? f->p90_ms : f->p99_ms;
}

#endif
