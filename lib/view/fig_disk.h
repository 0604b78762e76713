/* SPDX-License-Identifier: ISC */
/* A twDiskTable row of the view as its typed figures. */
#ifndef TW_VIEW_FIG_DISK_H
#define TW_VIEW_FIG_DISK_H

#include "figures/disk.h"
#include "view/view.h"

/* Decode d into f through the column table: each figure scaled into its
 * natural unit once, absent where d lacks it. f's strings point into d. */
void tw_view_disk_figures(const struct tw_view_disk *d, struct tw_disk_fig *f);

/* Decode every disk of v into v->disk_figs, once for all its readers: the
 * builder, the SNMP client and --local call it when they have filled the
 * disks, and again whenever the rows move. */
int tw_view_fill_disk_figures(struct tw_view *v);

/* The record of v's disk i: the shared one when v was filled, otherwise
 * (a view put together by hand) decoded into spare. */
static inline const struct tw_disk_fig *
tw_view_disk_fig_at(const struct tw_view *v, size_t i, struct tw_disk_fig *spare)
{
	if (v->disk_figs_rows == v->disks && v->ndisk_figs == v->ndisks && i < v->ndisk_figs)
		return &v->disk_figs[i];
	tw_view_disk_figures(&v->disks[i], spare);
	return spare;
}

/* The record of d, one of v's disks or a row of its own (a probed device
 * that the disk filter hides), as tw_view_disk_fig_at. */
const struct tw_disk_fig *tw_view_disk_fig(const struct tw_view *v,
    const struct tw_view_disk *d, struct tw_disk_fig *spare);

#endif
