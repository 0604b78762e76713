/* SPDX-License-Identifier: ISC */
/* What the files that build a view share, and nothing else includes: the
 * builders of each group, which build.c runs in order.
 *
 * A builder makes each row's record (lib/derive/) and projects it into
 * the row (view/recordrow.h): every group's figures are scaled, rounded and
 * clamped there alone, as the column table says, so the agent and --local
 * give the same numbers. */
#ifndef TW_VIEW_VIEWBUILD_H
#define TW_VIEW_VIEWBUILD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sample/pools.h"
#include "sample/sample.h"
#include "util/escape.h"
#include "util/strwriter.h"
#include "view/build.h"
#include "view/columns.h"
#include "view/view.h"
#include "window/window.h"

/* A group of the column table: the groups sit at their number less one
 * (tw_column_group), and a build looks up thousands of rows. */
static inline const struct tw_column_group *
tw_vb_group(uint32_t group)
{
	return &tw_column_groups[group - 1];
}

/* The builders of the groups, each replacing its rows. */
void tw_view_build_bufcache(struct tw_view_bufcache *bc, const struct tw_window *w,
    const struct tw_sample *s);
int tw_view_build_disks(struct tw_view *v, const struct tw_window *w, const struct tw_sample *s);
int tw_view_build_pools(struct tw_view *v, const struct tw_window *w,
    const struct tw_pool_set *pools);

/* The cgroup rows, from the newest sample and the window (cgview.c). */
int tw_view_build_cgroups(struct tw_view *v, const struct tw_window *w,
    const struct tw_sample *s);

/* twReqLatTable and twReqHistTable from the request-latency window, for
 * the view's disks (which must be built first): a disk's rows leave with
 * its disk row; none unless timing (viewreqlat.c). */
struct tw_reqwin;
int tw_view_build_reqlat(struct tw_view *v, const struct tw_reqwin *rw, int timing);

/* twFindings and twFindingTable from the tracker's list, with the
 * notification counters c (NULL: none yet; viewfinding.c). */
int tw_view_build_findings(struct tw_view *v, const struct tw_view_findings_in *f,
    const struct tw_view_notify_counts *c);

/* One change's row of twChangeTable (changerow.c). */
void tw_view_build_change_row(const struct tw_change_record *c, struct tw_view_change *r);

/* twChangeTable from the history's n changes, newest first (at most
 * TW_VIEW_CHANGES; changerow.c). */
void tw_view_build_changes(struct tw_view *v, const struct tw_change_record *changes,
    size_t n);

/* twProbeTable from the probe set's rows, sorted by major and minor
 * (viewprobe.c). */
int tw_view_build_probes(struct tw_view *v, const struct tw_probe_row *rows, size_t n);

#endif
