/* SPDX-License-Identifier: ISC */
/* A cgroup's record (figures/cgroup_record.h) from a row of the view's
 * twCgroupTable: the one place its cells are decoded. */
#ifndef TW_VIEW_RECORD_CGROUP_H
#define TW_VIEW_RECORD_CGROUP_H

#include "figures/cgroup_record.h"

struct tw_view_cgroup;

/* Fill f from row c; its strings point into c. */
void tw_view_cgroup_record(const struct tw_view_cgroup *c, struct tw_cgroup_record *f);

/* Fill only what tw_judge_cgroup (finding/judge.h) reads, the refault
 * rate and the memory pressure, and c's index; every other figure of f
 * absent. Every cgroup is judged each sample, and few are decoded whole. */
void tw_view_cgroup_judged(const struct tw_view_cgroup *c, struct tw_cgroup_record *f);

#endif
