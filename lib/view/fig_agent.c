/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_agent.h"

#include <stddef.h>

#include "view/columns.h"
#include "view/view.h"

/* Which record field each numeric scalar goes to; the column table says
 * how the MIB's number becomes the figure. */
static const struct {
	unsigned col;
	size_t off;
} agent_nums[] = {
	{ TW_OID_AGENT_INTERVAL, offsetof(struct tw_agent_fig, interval_s) },
	{ TW_OID_AGENT_WINDOW, offsetof(struct tw_agent_fig, window_s) },
	{ TW_OID_AGENT_SAMPLE_AGE, offsetof(struct tw_agent_fig, sample_age_ms) },
	{ TW_OID_AGENT_MALFORMED, offsetof(struct tw_agent_fig, malformed_lines) },
	{ TW_OID_AGENT_WINDOW_SAMPLES, offsetof(struct tw_agent_fig, window_samples) },
	{ TW_OID_AGENT_WINDOW_SPAN, offsetof(struct tw_agent_fig, window_span_ms) },
	{ TW_OID_AGENT_SAMPLES, offsetof(struct tw_agent_fig, samples) },
	{ TW_OID_AGENT_UNPRINTABLE_NAMES, offsetof(struct tw_agent_fig, unprintable_names) },
	{ TW_OID_AGENT_CGROUPS_WALKED, offsetof(struct tw_agent_fig, cgroups_walked) },
	{ TW_OID_AGENT_CGROUPS_UNPUBLISHED, offsetof(struct tw_agent_fig, cgroups_unpublished) },
	{ TW_OID_AGENT_CGROUPS_CUT_LONG, offsetof(struct tw_agent_fig, cgroups_cut_long) },
	{ TW_OID_AGENT_CGROUPS_CUT_DEEP, offsetof(struct tw_agent_fig, cgroups_cut_deep) },
	{ TW_OID_AGENT_CGROUPS_CUT_MANY, offsetof(struct tw_agent_fig, cgroups_cut_many) },
	{ TW_OID_AGENT_REQLAT_LOST, offsetof(struct tw_agent_fig, reqlat_lost) },
};

void
tw_view_agent_figures(const struct tw_view_agent *a, struct tw_agent_fig *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_AGENT);
	size_t i;

	f->version = tw_view_has(a, TW_OID_AGENT_VERSION) ? a->version : NULL;
	f->system = tw_view_has(a, TW_OID_AGENT_SYSTEM) ? a->system : NULL;
	f->reqlat_state = tw_view_has(a, TW_OID_AGENT_REQLAT_STATE) ? a->reqlat_state : NULL;
	f->reqlat_reason = tw_view_has(a, TW_OID_AGENT_REQLAT_REASON) ? a->reqlat_reason : NULL;
	for (i = 0; i < sizeof(agent_nums) / sizeof(agent_nums[0]); i++) {
		unsigned col = agent_nums[i].col;

		*(double *)((char *)f + agent_nums[i].off) = tw_view_has(a, col) ?
		    tw_column_decode(&g->cols[col], a->col[col]) : TW_FIG_NONE;
	}
}
