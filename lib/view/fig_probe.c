/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_probe.h"

#include <stddef.h>

#include "view/columns.h"

static const struct {
	unsigned col;
	size_t off;
} probe_nums[] = {
	{ TW_OID_PROBE_RATE, offsetof(struct tw_probe_fig, rate_reads_s) },
	{ TW_OID_PROBE_WINDOW, offsetof(struct tw_probe_fig, window_ms) },
	{ TW_OID_PROBE_COUNT, offsetof(struct tw_probe_fig, reads) },
	{ TW_OID_PROBE_MIN, offsetof(struct tw_probe_fig, min_ms) },
	{ TW_OID_PROBE_P50, offsetof(struct tw_probe_fig, p50_ms) },
	{ TW_OID_PROBE_P90, offsetof(struct tw_probe_fig, p90_ms) },
	{ TW_OID_PROBE_P99, offsetof(struct tw_probe_fig, p99_ms) },
	{ TW_OID_PROBE_MAX, offsetof(struct tw_probe_fig, max_ms) },
	{ TW_OID_PROBE_MEAN, offsetof(struct tw_probe_fig, mean_ms) },
	{ TW_OID_PROBE_TIMEOUTS, offsetof(struct tw_probe_fig, timeouts) },
	{ TW_OID_PROBE_MISSED, offsetof(struct tw_probe_fig, missed) },
	{ TW_OID_PROBE_ERRORS, offsetof(struct tw_probe_fig, errors) },
};

void
tw_view_probe_figures(const struct tw_view_probe *pr, struct tw_probe_fig *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_PROBE_TABLE);
	size_t i;

	for (i = 0; i < sizeof(probe_nums) / sizeof(probe_nums[0]); i++) {
		unsigned col = probe_nums[i].col;
		double *x = (double *)(void *)((char *)f + probe_nums[i].off);

		*x = tw_view_has(pr, col) ? tw_column_decode(&g->cols[col], pr->col[col]) :
		    TW_FIG_NONE;
	}
	f->major = pr->major;
	f->minor = pr->minor;
	f->device = pr->device;
	/* A probe row always has its strings; "" is none. */
	f->state = pr->state;
	f->reason = pr->reason;
}
