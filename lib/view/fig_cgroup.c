/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_cgroup.h"

#include "view/columns.h"
#include "view/figrow.h"
#include "view/view.h"

void
tw_view_cgroup_figures(const struct tw_view_cgroup *c, struct tw_cgroup_fig *f)
{
	tw_figrow_decode(tw_column_group(TW_OID_CGROUP_TABLE), c, f);
	f->index = c->index;
	/* The limit's name by its text: a row filled by hand or by an older
	 * agent may carry it without its bit, and "" names nothing. */
	f->limit_name = c->limit_name[0] != '\0' ? c->limit_name : NULL;
}

/* Column col of c in its natural unit, or TW_FIG_NONE. */
static double
num(const struct tw_column_group *g, const struct tw_view_cgroup *c, unsigned col)
{
	return tw_view_has(c, col) ? tw_column_decode(&g->cols[col], c->col[col]) : TW_FIG_NONE;
}

void
tw_view_cgroup_judged(const struct tw_view_cgroup *c, struct tw_cgroup_fig *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_CGROUP_TABLE);

	tw_cgroup_fig_init(f);
	f->index = c->index;
	f->refaults_s = num(g, c, TW_OID_CGROUP_REFAULT_RATE);
	f->memory_pressure_pct = num(g, c, TW_OID_CGROUP_MEMORY_PRESSURE);
}
