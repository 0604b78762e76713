/* SPDX-License-Identifier: ISC */
/* What the files that build a view share, and nothing else includes: how
 * a figure goes into a row's cell, how a string is copied in, and the
 * builders of each group, which build.c runs in order.
 *
 * A cell is put once, by these helpers, so that every group scales,
 * rounds and clamps the same way (the column table, columns.h, says
 * how): the agent and --local then give the same numbers. */
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

static inline void
tw_vb_put(uint32_t *has, uint64_t *col, unsigned c, uint64_t value)
{
	col[c] = value;
	*has |= TW_VIEW_BIT(c);
}

/* The row of a column: the groups sit at their number less one
 * (tw_column_group), and a build looks up thousands of cells. */
static inline const struct tw_column *
tw_vb_column(uint32_t group, unsigned c)
{
	return &tw_column_groups[group - 1].cols[c];
}

/* A count, clamped to the column's range (a Gauge32 stays at its top
 * rather than wrap). */
static inline void
tw_vb_put_count(uint32_t group, uint32_t *has, uint64_t *col, unsigned c, uint64_t value)
{
	uint64_t max = tw_vb_column(group, c)->max;

	tw_vb_put(has, col, c, value > max ? max : value);
}

/* A figure in its natural unit: the column table scales, rounds and
 * clamps it into the MIB's number. */
static inline void
tw_vb_put_fig(uint32_t group, uint32_t *has, uint64_t *col, unsigned c, double figure)
{
	tw_vb_put(has, col, c, tw_column_encode(tw_vb_column(group, c), figure));
}

/* A rate per second from an increase over cov_ms. */
static inline double
tw_vb_per_s(uint64_t delta, uint64_t cov_ms)
{
	return (double)delta * 1000.0 / (double)cov_ms;
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

/* twReqLatTable, twReqHistTable and the twAgentReqLat* scalars from the
 * request-latency window, for the view's disks (which must be built
 * first): a disk's rows leave with its disk row. state and reason are the
 * source's; lost is published only while timing (viewreqlat.c). */
struct tw_reqwin;
int tw_view_build_reqlat(struct tw_view *v, const struct tw_reqwin *rw, const char *state,
    const char *reason, int timing);

/* twFindings and twFindingTable from the tracker's list, with the
 * notification counters c (NULL: none yet; viewfinding.c). */
int tw_view_build_findings(struct tw_view *v, const struct tw_view_findings_in *f,
    const struct tw_view_notify_counts *c);

/* One change's row of twChangeTable (changerow.c). */
void tw_view_build_change_row(const struct tw_view_change_in *c, struct tw_view_change *r);

/* twChangeTable from the history's n changes, newest first (at most
 * TW_VIEW_CHANGES; changerow.c). */
void tw_view_build_changes(struct tw_view *v, const struct tw_view_change_in *changes,
    size_t n);

/* twProbeTable from the probe set's rows, sorted by major and minor
 * (viewprobe.c). */
int tw_view_build_probes(struct tw_view *v, const struct tw_probe_row *rows, size_t n);

#endif
