/* SPDX-License-Identifier: ISC */
/* A disk's record (figures/disk_record.h) from the newest sample and the window:
 * its totals, the queue's tunables and names, and its figures over the
 * window as iostat -x gives them. */
#ifndef TW_DERIVE_DISK_H
#define TW_DERIVE_DISK_H

#include "collect/blockident.h"
#include "collect/blockqueue.h"
#include "collect/diskstats.h"
#include "figures/disk_record.h"
#include "window/window.h"

/* t is the disk's track in w, NULL when it has none. f's strings point
 * into ds, q and id. */
void tw_derive_disk(const struct tw_window *w, const struct tw_track *t,
    const struct tw_disk_stat *ds, const struct tw_queue *q, const struct tw_blockident *id,
    struct tw_disk_record *f);

#endif
