/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge.h"

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
tw_judge_cgroup_evidence(const struct tw_view *v, const struct tw_cgroup_record *c,
    unsigned window_s, struct tw_advice_cgroup_evidence *e)
{
	struct tw_cache_record bc;

	tw_view_cache_record(&v->bc, &bc);
	tw_advice_cgroup_evidence_init(e, c, bc.mem_total_bytes, window_s);
}
