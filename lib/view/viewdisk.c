/* SPDX-License-Identifier: ISC */
/* twDiskTable's rows: each disk of the newest sample, its totals and
 * its figures over the window, as iostat -x gives them. */
#include "config.h"

#include "view/build_priv.h"

#include "util/error.h"

/* sysstat's figures (iostat -x), over the time the increases cover, each
 * in its natural unit. */
static void
disk_window(struct tw_view_disk *vd, const uint64_t *d, uint64_t cov)
{
	const double t = (double)cov;

#define DISK(c, figure) tw_vb_put_fig(TW_OID_DISK_TABLE, &vd->has, vd->col, (c), (figure))
	DISK(TW_OID_DISK_READ_OPS, tw_vb_per_s(d[TW_WDISK_READS], cov));
	DISK(TW_OID_DISK_WRITE_OPS, tw_vb_per_s(d[TW_WDISK_WRITES], cov));
	DISK(TW_OID_DISK_READ_RATE, (double)d[TW_WDISK_SECTORS_READ] * 512.0 * 1000.0 / t);
	DISK(TW_OID_DISK_WRITE_RATE, (double)d[TW_WDISK_SECTORS_WRITTEN] * 512.0 * 1000.0 / t);
	/* r_await = delta read ticks / delta reads, in ms; 0 without reads,
	 * as iostat prints. */
	DISK(TW_OID_DISK_READ_LATENCY, d[TW_WDISK_READS] == 0 ? 0 :
	    (double)d[TW_WDISK_READ_TICKS] / (double)d[TW_WDISK_READS]);
	DISK(TW_OID_DISK_WRITE_LATENCY, d[TW_WDISK_WRITES] == 0 ? 0 :
	    (double)d[TW_WDISK_WRITE_TICKS] / (double)d[TW_WDISK_WRITES]);
	/* aqu-sz = delta weighted ticks / delta t; %util = delta io ticks / delta t. */
	DISK(TW_OID_DISK_QUEUE_DEPTH, (double)d[TW_WDISK_WEIGHTED_TICKS] / t);
	DISK(TW_OID_DISK_UTIL, (double)d[TW_WDISK_IO_TICKS] * 100.0 / t);
#undef DISK
}

/* t: the disk's track in the window, NULL when it has none. */
static void
build_disk(struct tw_view_disk *vd, const struct tw_window *w, const struct tw_disk_stat *ds,
    const struct tw_queue *q, const struct tw_blockident *id, const struct tw_track *t)
{
	uint64_t d[TW_WDISK_K], cov;

	memset(vd, 0, sizeof(*vd));
	vd->major = ds->major;
	vd->minor = ds->minor;
	tw_escape_copy(vd->name, sizeof(vd->name), ds->name);
	vd->has |= TW_VIEW_BIT(TW_OID_DISK_NAME);
	if (t != NULL) {
		tw_vb_put(&vd->has, vd->col, TW_OID_DISK_READS, tw_track_total(&w->disks, t,
		    TW_WDISK_READS));
		tw_vb_put(&vd->has, vd->col, TW_OID_DISK_WRITES,
		    tw_track_total(&w->disks, t, TW_WDISK_WRITES));
		tw_vb_put(&vd->has, vd->col, TW_OID_DISK_READ_BYTES,
		    tw_track_total(&w->disks, t, TW_WDISK_SECTORS_READ) * 512);
		tw_vb_put(&vd->has, vd->col, TW_OID_DISK_WRITTEN_BYTES,
		    tw_track_total(&w->disks, t, TW_WDISK_SECTORS_WRITTEN) * 512);
		if (ds->present & TW_DISK_BIT(TW_DISK_READ_TICKS))
			tw_vb_put(&vd->has, vd->col, TW_OID_DISK_READ_TIME,
			    tw_track_total(&w->disks, t, TW_WDISK_READ_TICKS));
		if (ds->present & TW_DISK_BIT(TW_DISK_WRITE_TICKS))
			tw_vb_put(&vd->has, vd->col, TW_OID_DISK_WRITE_TIME,
			    tw_track_total(&w->disks, t, TW_WDISK_WRITE_TICKS));
		/* The old 4-counter partition lines have no times: no
		 * latency, queue or utilisation can be given for them. */
		if (tw_window_track_delta(w, &w->disks, t, d, &cov) && cov > 0 &&
		    (ds->present & TW_DISK_BIT(TW_DISK_WEIGHTED_TICKS)))
			disk_window(vd, d, cov);
	}
	if (ds->present & TW_DISK_BIT(TW_DISK_IN_FLIGHT))
		tw_vb_put_count(TW_OID_DISK_TABLE, &vd->has, vd->col, TW_OID_DISK_IN_FLIGHT,
		    ds->v[TW_DISK_IN_FLIGHT]);
	if (q->scheduler[0] != '\0') {
		tw_str_copy_cut(vd->scheduler, sizeof(vd->scheduler), q->scheduler);
		vd->has |= TW_VIEW_BIT(TW_OID_DISK_SCHEDULER);
	}
	if (q->nr_requests >= 0)
		tw_vb_put_count(TW_OID_DISK_TABLE, &vd->has, vd->col, TW_OID_DISK_NR_REQUESTS,
		    (uint64_t)q->nr_requests);
	if (q->read_ahead_kb >= 0)
		tw_vb_put_count(TW_OID_DISK_TABLE, &vd->has, vd->col, TW_OID_DISK_READ_AHEAD_KB,
		    (uint64_t)q->read_ahead_kb);
	if (q->wbt_lat_usec >= 0 && q->wbt_lat_usec <= INT32_MAX)
		tw_vb_put(&vd->has, vd->col, TW_OID_DISK_WBT_LATENCY, (uint64_t)q->wbt_lat_usec);
	if (q->rotational == 0 || q->rotational == 1)
		tw_vb_put(&vd->has, vd->col, TW_OID_DISK_ROTATIONAL, q->rotational ? 1 : 2);
	if (id->alias[0] != '\0') {
		tw_escape_copy(vd->alias, sizeof(vd->alias), id->alias);
		vd->has |= TW_VIEW_BIT(TW_OID_DISK_ALIAS);
	}
	if (id->stable_id[0] != '\0') {
		tw_escape_copy(vd->stable_id, sizeof(vd->stable_id), id->stable_id);
		vd->has |= TW_VIEW_BIT(TW_OID_DISK_STABLE_ID);
	}
	tw_str_copy_cut(vd->type, sizeof(vd->type), tw_disk_type_name(id->type));
	vd->has |= TW_VIEW_BIT(TW_OID_DISK_TYPE);
}

int
tw_view_build_disks(struct tw_view *v, const struct tw_window *w, const struct tw_sample *s)
{
	size_t i, j;
	int rc;

	if ((rc = tw_view_reserve_disks(v, s->disks.count)) != TW_OK)
		return rc;
	/* The sample's disks and the window's tracks are both sorted by key:
	 * walk them side by side rather than search for every disk. */
	for (i = 0, j = 0; i < s->disks.count; i++) {
		const struct tw_disk_stat *ds = &s->disks.disks[i];
		uint64_t key = tw_disk_key(ds->major, ds->minor);
		const struct tw_track *t = NULL;

		while (j < w->disks.count && w->disks.keys[j] < key)
			j++;
		if (j < w->disks.count && w->disks.keys[j] == key)
			t = w->disks.tracks[j];
		build_disk(&v->disks[i], w, ds, &s->queues[i], &s->idents[i], t);
	}
	v->ndisks = s->disks.count;
	return TW_OK;
}
