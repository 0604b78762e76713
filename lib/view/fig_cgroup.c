/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_cgroup.h"

#include "view/columns.h"
#include "view/view.h"

/* The figure of column col in its natural unit, or none. */
static double
figure(const struct tw_column_group *g, const struct tw_view_cgroup *c, unsigned col)
{
	return tw_view_has(c, col) ? tw_column_decode(&g->cols[col], c->col[col]) : TW_FIG_NONE;
}

void
tw_view_cgroup_figures(const struct tw_view_cgroup *c, struct tw_cgroup_fig *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_CGROUP_TABLE);

	f->index = c->index;
	f->path = c->path;
	f->unit = tw_view_has(c, TW_OID_CGROUP_UNIT) ? c->unit : NULL;
	f->version = tw_view_has(c, TW_OID_CGROUP_VERSION) ?
	    (int64_t)tw_column_decode(&g->cols[TW_OID_CGROUP_VERSION],
	    c->col[TW_OID_CGROUP_VERSION]) : -1;
	f->cache_bytes = figure(g, c, TW_OID_CGROUP_CACHE_BYTES);
	f->memory_usage_bytes = figure(g, c, TW_OID_CGROUP_MEMORY_USAGE);
	f->memory_limit_bytes = figure(g, c, TW_OID_CGROUP_MEMORY_LIMIT);
	/* The limit's name by its text: a row filled by hand or by an older
	 * agent may carry it without its bit, and "" names nothing. */
	f->limit_name = c->limit_name[0] != '\0' ? c->limit_name : NULL;
	f->refaults_s = figure(g, c, TW_OID_CGROUP_REFAULT_RATE);
	f->limit_events_s = figure(g, c, TW_OID_CGROUP_LIMIT_EVENT_RATE);
	f->memory_pressure_pct = figure(g, c, TW_OID_CGROUP_MEMORY_PRESSURE);
	f->io_pressure_pct = figure(g, c, TW_OID_CGROUP_IO_PRESSURE);
	f->read_bytes_s = figure(g, c, TW_OID_CGROUP_READ_RATE);
	f->write_bytes_s = figure(g, c, TW_OID_CGROUP_WRITE_RATE);
}
