/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_probe.h"

#include "view/columns.h"

/* Column col of pr in its natural unit, or TW_FIG_NONE. */
static inline double
num(const struct tw_column_group *g, const struct tw_view_probe *pr, unsigned col)
{
	return tw_view_has(pr, col) ? tw_column_decode(&g->cols[col], pr->col[col]) : TW_FIG_NONE;
}

void
tw_view_probe_figures(const struct tw_view_probe *pr, struct tw_probe_fig *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_PROBE_TABLE);

	f->rate_reads_s = num(g, pr, TW_OID_PROBE_RATE);
	f->window_ms = num(g, pr, TW_OID_PROBE_WINDOW);
	f->reads = num(g, pr, TW_OID_PROBE_COUNT);
	f->min_ms = num(g, pr, TW_OID_PROBE_MIN);
	f->p50_ms = num(g, pr, TW_OID_PROBE_P50);
	f->p90_ms = num(g, pr, TW_OID_PROBE_P90);
	f->p99_ms = num(g, pr, TW_OID_PROBE_P99);
	f->max_ms = num(g, pr, TW_OID_PROBE_MAX);
	f->mean_ms = num(g, pr, TW_OID_PROBE_MEAN);
	f->timeouts = num(g, pr, TW_OID_PROBE_TIMEOUTS);
	f->missed = num(g, pr, TW_OID_PROBE_MISSED);
	f->errors = num(g, pr, TW_OID_PROBE_ERRORS);
	f->major = pr->major;
	f->minor = pr->minor;
	f->device = pr->device;
	/* A probe row always has its strings; "" is none. */
	f->state = pr->state;
	f->reason = pr->reason;
}
