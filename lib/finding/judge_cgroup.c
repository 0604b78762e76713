/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge.h"

#include <string.h>

#include "view/record_cache.h"

/* By the path, not twCgroupUnit: a check and tunewatchd then tell the
 * owner by one rule, whatever an agent of another version published. */
const char *
tw_judge_cgroup_unit(const char *path)
{
	struct tw_cg_owner o;

	tw_cgroup_owner(path, &o);
	return o.unit;
}

void
tw_judge_cgroup_name(const char *path, char *buf, size_t len)
{
	struct tw_cg_owner o;

	tw_cgroup_owner(path, &o);
	tw_cgroup_owner_name(&o, path, buf, len);
}

enum tw_state
tw_judge_cgroup(const struct tw_threshold *fwarn, const struct tw_threshold *fcrit,
    const struct tw_threshold *pwarn, const struct tw_threshold *pcrit,
    const struct tw_cgroup_record *c)
{
	enum tw_state st = TW_STATE_OK;

	if (tw_fig_has(c->refaults_s))
		st = tw_threshold_state(c->refaults_s, fwarn, fcrit);
	if (tw_fig_has(c->memory_pressure_pct))
		st = tw_state_worst(st, tw_threshold_state(c->memory_pressure_pct, pwarn, pcrit));
	return st;
}

void
tw_judge_cgroup_figures(const struct tw_view *v, const struct tw_cgroup_record *c,
    unsigned window_s, struct tw_advice_cgroup_figures *f)
{
	struct tw_cache_record bc;

	memset(f, 0, sizeof(*f));
	f->path = c->path;
	tw_cgroup_owner(c->path, &f->owner);
	f->version = c->version > 0 ? (int)c->version : 0;
	f->refaults = tw_fig_or0(c->refaults_s);
	f->have_usage = tw_fig_has(c->memory_usage_bytes);
	f->usage = tw_fig_or0(c->memory_usage_bytes);
	f->have_limit = tw_fig_has(c->memory_limit_bytes) && c->limit_name != NULL &&
	    c->limit_name[0] != '\0';
	f->limit = tw_fig_or0(c->memory_limit_bytes);
	f->limit_name = c->limit_name != NULL ? c->limit_name : "";
	f->have_cache = tw_fig_has(c->cache_bytes);
	f->cache = tw_fig_or0(c->cache_bytes);
	f->have_fileset = tw_fig_has(c->fileset_bytes);
	f->fileset = tw_fig_or0(c->fileset_bytes);
	f->have_growth = tw_fig_has(c->anon_growth_kib);
	f->growth = tw_fig_or0(c->anon_growth_kib) * 1024.0;
	f->fall = tw_fig_or0(c->anon_fall_kib) * 1024.0;
	f->have_events = tw_fig_has(c->limit_events_s);
	f->events = tw_fig_or0(c->limit_events_s);
	tw_view_cache_record(&v->bc, &bc);
	f->mem_total = tw_fig_or0(bc.mem_total_bytes);
	f->window_s = window_s;
}
