/* SPDX-License-Identifier: ISC */
/* twDiskTable's rows: each disk of the newest sample, its record
 * (lib/derive/derive_disk.c) projected into the MIB's numbers. */
#include "config.h"

#include "view/build_priv.h"

#include "derive/derive_disk.h"
#include "util/error.h"
#include "view/recordrow.h"

/* t: the disk's track in the window, NULL when it has none. */
static void
build_disk(struct tw_view_disk *vd, const struct tw_window *w, const struct tw_disk_stat *ds,
    const struct tw_queue *q, const struct tw_blockident *id, const struct tw_track *t)
{
	struct tw_disk_record f;

	tw_derive_disk(w, t, ds, q, id, &f);
	memset(vd, 0, sizeof(*vd));
	vd->major = f.major;
	vd->minor = f.minor;
	tw_recordrow_project(tw_vb_group(TW_OID_DISK_TABLE), &f, vd);
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
