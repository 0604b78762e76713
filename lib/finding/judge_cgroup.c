#include "config.h"

#include "finding/judge.h"

#include <string.h>

/* By the path, not twCgroupUnit: a check and tunewatchd then tell the
 * owner by one rule, whatever an agent of another version published. */
const char *
tw_judge_cgroup_unit(const struct tw_view_cgroup *c)
{
	struct tw_cg_owner o;

	tw_cgroup_owner(c->path, &o);
	return o.unit;
}

void
tw_judge_cgroup_name(const struct tw_view_cgroup *c, char *buf, size_t len)
{
	struct tw_cg_owner o;

	tw_cgroup_owner(c->path, &o);
	tw_cgroup_owner_name(&o, c->path, buf, len);
}

enum tw_state
tw_judge_cgroup(const struct tw_threshold *fwarn, const struct tw_threshold *fcrit,
    const struct tw_threshold *pwarn, const struct tw_threshold *pcrit,
    const struct tw_view_cgroup *c)
{
	enum tw_state st = TW_STATE_OK;

	if (tw_view_has(c, TW_OID_CGROUP_REFAULT_RATE))
		st = tw_threshold_state(tw_view_num(c, TW_OID_CGROUP_REFAULT_RATE), fwarn, fcrit);
	if (tw_view_has(c, TW_OID_CGROUP_MEMORY_PRESSURE))
		st = tw_state_worst(st, tw_threshold_state(tw_view_num(c,
		    TW_OID_CGROUP_MEMORY_PRESSURE), pwarn, pcrit));
	return st;
}

void
tw_judge_cgroup_figures(const struct tw_view *v, const struct tw_view_cgroup *c,
    unsigned window_s, struct tw_cgroup_figures *f)
{
	memset(f, 0, sizeof(*f));
	f->path = c->path;
	tw_cgroup_owner(c->path, &f->owner);
	f->version = (int)c->col[TW_OID_CGROUP_VERSION];
	f->refaults = tw_view_num(c, TW_OID_CGROUP_REFAULT_RATE);
	f->have_usage = tw_view_has(c, TW_OID_CGROUP_MEMORY_USAGE);
	f->usage = tw_view_num(c, TW_OID_CGROUP_MEMORY_USAGE);
	f->have_limit = tw_view_has(c, TW_OID_CGROUP_MEMORY_LIMIT) && c->limit_name[0] != '\0';
	f->limit = tw_view_num(c, TW_OID_CGROUP_MEMORY_LIMIT);
	f->limit_name = c->limit_name;
	f->have_events = tw_view_has(c, TW_OID_CGROUP_LIMIT_EVENT_RATE);
	f->events = tw_view_num(c, TW_OID_CGROUP_LIMIT_EVENT_RATE);
	f->mem_total = tw_view_num(&v->bc, TW_OID_BC_MEM_TOTAL);
	f->window_s = window_s;
	/* The check and tunewatchd both have the span: the same proposal. */
	if (tw_view_has(&v->agent, TW_OID_AGENT_WINDOW_SPAN))
		f->span_s = tw_view_num(&v->agent, TW_OID_AGENT_WINDOW_SPAN) / 1000.0;
}
