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

void
tw_view_cgroup_judged(const struct tw_view_cgroup *c, struct tw_cgroup_fig *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_CGROUP_TABLE);

	tw_cgroup_fig_init(f);
	f->index = c->index;
	f->refaults_s = tw_figrow_num(g, c->has, c->col, TW_OID_CGROUP_REFAULT_RATE);
	f->memory_pressure_pct = tw_figrow_num(g, c->has, c->col, TW_OID_CGROUP_MEMORY_PRESSURE);
}
