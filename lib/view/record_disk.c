/* SPDX-License-Identifier: ISC */
/* tunewatchd decodes every disk on every sample (10,000 of them in
 * bench/): the column group is looked up once a row, and each column is
 * named as a constant, so that its bit and its place are the compiler's
 * to fold. */
#include "config.h"

#include "view/record_disk.h"

#include <stdint.h>

#include "view/columns.h"
#include "view/recordrow.h"

static int64_t
tunable(const struct tw_view_disk *d, unsigned col)
{
	return tw_view_has(d, col) ? (int64_t)d->col[col] : -1;
}

void
tw_view_disk_record(const struct tw_view_disk *d, struct tw_disk_record *f)
{
	tw_recordrow_decode(tw_column_group(TW_OID_DISK_TABLE), d, f);
	f->major = d->major;
	f->minor = d->minor;
}

void
tw_view_disk_judged(const struct tw_view_disk *d, struct tw_disk_record *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_DISK_TABLE);

	tw_disk_record_init(f);
	f->major = d->major;
	f->minor = d->minor;
	f->name = d->name;
	f->read_ops_s = tw_recordrow_num(g, d->has, d->col, TW_OID_DISK_READ_OPS);
	f->write_ops_s = tw_recordrow_num(g, d->has, d->col, TW_OID_DISK_WRITE_OPS);
	f->r_await_ms = tw_recordrow_num(g, d->has, d->col, TW_OID_DISK_READ_LATENCY);
	f->w_await_ms = tw_recordrow_num(g, d->has, d->col, TW_OID_DISK_WRITE_LATENCY);
	f->queue_depth = tw_recordrow_num(g, d->has, d->col, TW_OID_DISK_QUEUE_DEPTH);
	f->util_pct = tw_recordrow_num(g, d->has, d->col, TW_OID_DISK_UTIL);
}

void
tw_view_disk_load(const struct tw_view_disk *d, struct tw_disk_load *l)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_DISK_TABLE);

	l->read_ops_s = tw_recordrow_num(g, d->has, d->col, TW_OID_DISK_READ_OPS);
	l->read_bytes_s = tw_recordrow_num(g, d->has, d->col, TW_OID_DISK_READ_RATE);
	l->write_bytes_s = tw_recordrow_num(g, d->has, d->col, TW_OID_DISK_WRITE_RATE);
	l->write_ops_s = tw_recordrow_num(g, d->has, d->col, TW_OID_DISK_WRITE_OPS);
	l->w_await_ms = tw_recordrow_num(g, d->has, d->col, TW_OID_DISK_WRITE_LATENCY);
	l->util_pct = tw_recordrow_num(g, d->has, d->col, TW_OID_DISK_UTIL);
	l->read_ahead_kb = tunable(d, TW_OID_DISK_READ_AHEAD_KB);
}
