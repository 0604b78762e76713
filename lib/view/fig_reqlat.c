/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_reqlat.h"

#include <stddef.h>

#include "view/columns.h"

static const struct {
	unsigned col;
	size_t off;
} reqlat_nums[] = {
	{ TW_OID_REQLAT_WINDOW, offsetof(struct tw_reqlat_fig, window_ms) },
	{ TW_OID_REQLAT_COUNT, offsetof(struct tw_reqlat_fig, requests) },
	{ TW_OID_REQLAT_P50, offsetof(struct tw_reqlat_fig, p50_ms) },
	{ TW_OID_REQLAT_P90, offsetof(struct tw_reqlat_fig, p90_ms) },
	{ TW_OID_REQLAT_P99, offsetof(struct tw_reqlat_fig, p99_ms) },
	{ TW_OID_REQLAT_MAX, offsetof(struct tw_reqlat_fig, max_ms) },
	{ TW_OID_REQLAT_MEAN, offsetof(struct tw_reqlat_fig, mean_ms) },
	{ TW_OID_REQLAT_QUEUED, offsetof(struct tw_reqlat_fig, queued) },
	{ TW_OID_REQLAT_QUEUE_P50, offsetof(struct tw_reqlat_fig, queue_p50_ms) },
	{ TW_OID_REQLAT_QUEUE_P90, offsetof(struct tw_reqlat_fig, queue_p90_ms) },
	{ TW_OID_REQLAT_QUEUE_P99, offsetof(struct tw_reqlat_fig, queue_p99_ms) },
	{ TW_OID_REQLAT_QUEUE_MAX, offsetof(struct tw_reqlat_fig, queue_max_ms) },
	{ TW_OID_REQLAT_TOTAL, offsetof(struct tw_reqlat_fig, total) },
};

void
tw_view_reqlat_figures(const struct tw_view_reqlat *r, struct tw_reqlat_fig *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_REQLAT_TABLE);
	size_t i;

	for (i = 0; i < sizeof(reqlat_nums) / sizeof(reqlat_nums[0]); i++) {
		unsigned col = reqlat_nums[i].col;
		double *x = (double *)(void *)((char *)f + reqlat_nums[i].off);

		*x = tw_view_has(r, col) ? tw_column_decode(&g->cols[col], r->col[col]) :
		    TW_FIG_NONE;
	}
	f->major = r->major;
	f->minor = r->minor;
	f->dir = r->dir;
	f->device = r->device;
}
