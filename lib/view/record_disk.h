/* SPDX-License-Identifier: ISC */
/* A twDiskTable row of the view decoded into its record. */
#ifndef TW_VIEW_RECORD_DISK_H
#define TW_VIEW_RECORD_DISK_H

#include "figures/disk_record.h"
#include "view/view.h"

/* Decode d into f through the column table: each figure scaled into its
 * natural unit once, absent where d lacks it. f's strings point into d. */
void tw_view_disk_record(const struct tw_view_disk *d, struct tw_disk_record *f);

/* Decode only what tw_judge_disk (finding/judge.h) reads: the request
 * rates, the latencies, the queue and the utilisation, and d's identity;
 * every other figure of f absent. Every disk is judged each sample, and
 * few are decoded whole. */
void tw_view_disk_judged(const struct tw_view_disk *d, struct tw_disk_record *f);

/* Decode only d's load (figures/disk_record.h), as tw_view_disk_record would. */
void tw_view_disk_load(const struct tw_view_disk *d, struct tw_disk_load *l);

#endif
