/* SPDX-License-Identifier: ISC */
/* A cgroup's record (figures/cgroup_record.h) from the sample's published row and
 * its track in the window. Figures the cgroup's kernel or version lacks
 * (pressure on v1, refaults before 4.x) are absent, not zero. */
#ifndef TW_DERIVE_CGROUP_H
#define TW_DERIVE_CGROUP_H

#include "collect/cgroupread.h"
#include "figures/cgroup_record.h"
#include "sample/cgroups.h"
#include "util/escape.h"
#include "window/window.h"

/* Where a record's path is shown: the raw path escaped (util/escape.h). */
struct tw_derive_cgroup_shown {
	char path[TW_ESCAPE_SIZE(TW_CG_PATH_LEN - 1)];
};

/* t is the cgroup's track in w, NULL when it has none. f's strings point
 * into r and *shown. */
void tw_derive_cgroup(const struct tw_window *w, const struct tw_sample_cgroup *r,
    enum tw_cg_version ver, const struct tw_track *t, struct tw_derive_cgroup_shown *shown,
    struct tw_cgroup_record *f);

#endif
