/* SPDX-License-Identifier: ISC */
/* tunewatchd decodes every disk on every sample (10,000 of them in
 * bench/), so the row is read in one pass over a table of its numeric
 * columns, with the column group looked up once. */
#include "config.h"

#include "view/fig_disk.h"

#include <stddef.h>

#include "view/columns.h"

static const struct {
	unsigned col;
	size_t off;
} disk_nums[] = {
	{ TW_OID_DISK_READ_OPS, offsetof(struct tw_disk_fig, read_ops_s) },
	{ TW_OID_DISK_WRITE_OPS, offsetof(struct tw_disk_fig, write_ops_s) },
	{ TW_OID_DISK_READ_RATE, offsetof(struct tw_disk_fig, read_bytes_s) },
	{ TW_OID_DISK_WRITE_RATE, offsetof(struct tw_disk_fig, write_bytes_s) },
	{ TW_OID_DISK_READ_LATENCY, offsetof(struct tw_disk_fig, r_await_ms) },
	{ TW_OID_DISK_WRITE_LATENCY, offsetof(struct tw_disk_fig, w_await_ms) },
	{ TW_OID_DISK_QUEUE_DEPTH, offsetof(struct tw_disk_fig, queue_depth) },
	{ TW_OID_DISK_UTIL, offsetof(struct tw_disk_fig, util_pct) },
	{ TW_OID_DISK_WBT_LATENCY, offsetof(struct tw_disk_fig, wbt_lat_us) },
};

static const char *
str(const struct tw_view_disk *d, unsigned col, const char *s)
{
	return tw_view_has(d, col) ? s : NULL;
}

static int64_t
tunable(const struct tw_view_disk *d, unsigned col)
{
	return tw_view_has(d, col) ? (int64_t)d->col[col] : -1;
}

void
tw_view_disk_figures(const struct tw_view_disk *d, struct tw_disk_fig *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_DISK_TABLE);
	size_t i;

	for (i = 0; i < sizeof(disk_nums) / sizeof(disk_nums[0]); i++) {
		unsigned col = disk_nums[i].col;
		double *x = (double *)(void *)((char *)f + disk_nums[i].off);

		*x = tw_view_has(d, col) ? tw_column_decode(&g->cols[col], d->col[col]) :
		    TW_FIG_NONE;
	}
	f->major = d->major;
	f->minor = d->minor;
	/* The name is the row's identity: a row always has one. */
	f->name = d->name;
	f->alias = str(d, TW_OID_DISK_ALIAS, d->alias);
	f->stable_id = str(d, TW_OID_DISK_STABLE_ID, d->stable_id);
	f->type = str(d, TW_OID_DISK_TYPE, d->type);
	f->scheduler = str(d, TW_OID_DISK_SCHEDULER, d->scheduler);
	f->nr_requests = tunable(d, TW_OID_DISK_NR_REQUESTS);
	f->read_ahead_kb = tunable(d, TW_OID_DISK_READ_AHEAD_KB);
	/* A TruthValue: 1 true, 2 false. */
	f->rotational = !tw_view_has(d, TW_OID_DISK_ROTATIONAL) ? -1 :
	    d->col[TW_OID_DISK_ROTATIONAL] == 1 ? 1 : d->col[TW_OID_DISK_ROTATIONAL] == 2 ? 0 : -1;
}
