/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/record_cgroup.h"

#include "view/columns.h"
#include "view/recordrow.h"
#include "view/view.h"

void
tw_view_cgroup_record(const struct tw_view_cgroup *c, struct tw_cgroup_record *f)
{
	tw_recordrow_decode(tw_column_group(TW_OID_CGROUP_TABLE), c, f);
	f->index = c->index;
	/* The limit's name by its text: a row filled by hand or by an older
	 * agent may carry it without its bit, and "" names nothing. */
	f->limit_name = c->limit_name[0] != '\0' ? c->limit_name : NULL;
}

void
tw_view_cgroup_judged(const struct tw_view_cgroup *c, struct tw_cgroup_record *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_CGROUP_TABLE);

	tw_cgroup_record_init(f);
	f->index = c->index;
	f->refaults_s = tw_recordrow_num(g, c->has, c->col, TW_OID_CGROUP_REFAULT_RATE);
	f->memory_pressure_pct = tw_recordrow_num(g, c->has, c->col, TW_OID_CGROUP_MEMORY_PRESSURE);
}
