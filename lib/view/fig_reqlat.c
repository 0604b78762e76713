/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_reqlat.h"

#include "view/columns.h"

/* Column col of r in its natural unit, or TW_FIG_NONE. */
static inline double
num(const struct tw_column_group *g, const struct tw_view_reqlat *r, unsigned col)
{
	return tw_view_has(r, col) ? tw_column_decode(&g->cols[col], r->col[col]) : TW_FIG_NONE;
}

void
tw_view_reqlat_figures(const struct tw_view_reqlat *r, struct tw_reqlat_fig *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_REQLAT_TABLE);

	f->window_ms = num(g, r, TW_OID_REQLAT_WINDOW);
	f->requests = num(g, r, TW_OID_REQLAT_COUNT);
	f->p50_ms = num(g, r, TW_OID_REQLAT_P50);
	f->p90_ms = num(g, r, TW_OID_REQLAT_P90);
	f->p99_ms = num(g, r, TW_OID_REQLAT_P99);
	f->max_ms = num(g, r, TW_OID_REQLAT_MAX);
	f->mean_ms = num(g, r, TW_OID_REQLAT_MEAN);
	f->queued = num(g, r, TW_OID_REQLAT_QUEUED);
	f->queue_p50_ms = num(g, r, TW_OID_REQLAT_QUEUE_P50);
	f->queue_p90_ms = num(g, r, TW_OID_REQLAT_QUEUE_P90);
	f->queue_p99_ms = num(g, r, TW_OID_REQLAT_QUEUE_P99);
	f->queue_max_ms = num(g, r, TW_OID_REQLAT_QUEUE_MAX);
	f->total = num(g, r, TW_OID_REQLAT_TOTAL);
	f->major = r->major;
	f->minor = r->minor;
	f->dir = r->dir;
	f->device = r->device;
}
