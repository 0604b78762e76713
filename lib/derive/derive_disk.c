/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "derive/derive_disk.h"

#include <stdint.h>

/* A rate per second from an increase over cov_ms. */
static double
per_s(uint64_t delta, uint64_t cov_ms)
{
	return (double)delta * 1000.0 / (double)cov_ms;
}

/* sysstat's figures (iostat -x), over the time the increases cover, each
 * in its natural unit. */
static void
over_window(struct tw_disk_record *f, const uint64_t *d, uint64_t cov)
{
	const double t = (double)cov;

	f->read_ops_s = per_s(d[TW_WDISK_READS], cov);
	f->write_ops_s = per_s(d[TW_WDISK_WRITES], cov);
	f->read_bytes_s = (double)d[TW_WDISK_SECTORS_READ] * 512.0 * 1000.0 / t;
	f->write_bytes_s = (double)d[TW_WDISK_SECTORS_WRITTEN] * 512.0 * 1000.0 / t;
	/* r_await = delta read ticks / delta reads, in ms; 0 without reads,
	 * as iostat prints. */
	f->r_await_ms = d[TW_WDISK_READS] == 0 ? 0 :
	    (double)d[TW_WDISK_READ_TICKS] / (double)d[TW_WDISK_READS];
	f->w_await_ms = d[TW_WDISK_WRITES] == 0 ? 0 :
	    (double)d[TW_WDISK_WRITE_TICKS] / (double)d[TW_WDISK_WRITES];
	/* aqu-sz = delta weighted ticks / delta t; %util = delta io ticks / delta t. */
	f->queue_depth = (double)d[TW_WDISK_WEIGHTED_TICKS] / t;
	f->util_pct = (double)d[TW_WDISK_IO_TICKS] * 100.0 / t;
}

static void
totals(struct tw_disk_record *f, const struct tw_window *w, const struct tw_track *t,
    const struct tw_disk_stat *ds)
{
	f->reads = tw_track_total(&w->disks, t, TW_WDISK_READS);
	f->writes = tw_track_total(&w->disks, t, TW_WDISK_WRITES);
	f->read_bytes = tw_track_total(&w->disks, t, TW_WDISK_SECTORS_READ) * 512;
	f->written_bytes = tw_track_total(&w->disks, t, TW_WDISK_SECTORS_WRITTEN) * 512;
	if (ds->present & TW_DISK_BIT(TW_DISK_READ_TICKS))
		f->read_time_ms = tw_track_total(&w->disks, t, TW_WDISK_READ_TICKS);
	if (ds->present & TW_DISK_BIT(TW_DISK_WRITE_TICKS))
		f->write_time_ms = tw_track_total(&w->disks, t, TW_WDISK_WRITE_TICKS);
}

void
tw_derive_disk(const struct tw_window *w, const struct tw_track *t,
    const struct tw_disk_stat *ds, const struct tw_queue *q, const struct tw_blockident *id,
    struct tw_disk_record *f)
{
	uint64_t d[TW_WDISK_K], cov;

	tw_disk_record_init(f);
	f->major = ds->major;
	f->minor = ds->minor;
	f->name = ds->name;
	if (t != NULL) {
		totals(f, w, t, ds);
		/* The old 4-counter partition lines have no times: no
		 * latency, queue or utilisation can be given for them. */
		if (tw_window_track_delta(w, &w->disks, t, d, &cov) && cov > 0 &&
		    (ds->present & TW_DISK_BIT(TW_DISK_WEIGHTED_TICKS)))
			over_window(f, d, cov);
	}
	if (ds->present & TW_DISK_BIT(TW_DISK_IN_FLIGHT))
		f->in_flight = ds->v[TW_DISK_IN_FLIGHT];
	if (q->scheduler[0] != '\0')
		f->scheduler = q->scheduler;
	f->nr_requests = q->nr_requests >= 0 ? q->nr_requests : -1;
	f->read_ahead_kb = q->read_ahead_kb >= 0 ? q->read_ahead_kb : -1;
	/* The kernel's -1 (its default) is not published. */
	if (q->wbt_lat_usec >= 0 && q->wbt_lat_usec <= INT32_MAX)
		f->wbt_lat_us = (double)q->wbt_lat_usec;
	f->rotational = q->rotational == 0 || q->rotational == 1 ? q->rotational : -1;
	f->alias = id->alias[0] != '\0' ? id->alias : NULL;
	f->stable_id = id->stable_id[0] != '\0' ? id->stable_id : NULL;
	f->type = tw_disk_type_name(id->type);
}
