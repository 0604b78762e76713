/* SPDX-License-Identifier: ISC */
/* A service (cgroup) whose cache is bounded by its own limit: a finding
 * like any other, about the cgroup's directory (its whole path, so that
 * two cgroups of one unit name are two findings), judged with
 * check_bufcache --cgroup's rules (judge_cgroup.c) and advised on with
 * lib/advice/cgroup.c. Its symptom is its own (cgroup-cache-bounded) when
 * its limit bounds it, so that an NMS routes it to the service's owner;
 * a service far from its limit shows the host's refaults in its share of
 * the cache, and keeps the host's symptom with itself as the subject. The
 * ticket (id, apply, persist) is ticket_cgroup.c's, as the check's. */
#include "config.h"

#include "finding/observe.h"

#include <stdio.h>
#include <string.h>

#include "advice/ticket.h"
#include "threshold/perfdata.h"
#include "util/error.h"
#include "util/strwriter.h"
#include "view/fig_cgroup.h"

#define MIB (1024.0 * 1024.0)

/* "1000 refaults/s, memory 63.9 of 64 MiB (memory.high), in the last 60 s":
 * the figures behind a limit to raise; the knob is in its own columns. */
static void
limit_evidence(const struct tw_cgroup_figures *f, char *out, size_t len)
{
	char r[32] = "unknown", u[32] = "unknown", l[32] = "unknown";

	/* A figure that does not print stays "unknown" (snmptt drops "?"). */
	(void)tw_perf_number(f->refaults, 2, r, sizeof(r));
	if (f->have_usage)
		(void)tw_perf_number(f->usage / MIB, 1, u, sizeof(u));
	(void)tw_perf_number(f->limit / MIB, 1, l, sizeof(l));
	snprintf(out, len, "%s refaults/s, memory %s of %s MiB (%s), in the last %u s", r, u, l,
	    f->limit_name, f->window_s);
}

/* One observation of cgroup c at state st; evidence is the advice line
 * with the threshold passed after it, as for the other findings. */
static int
observe_one(const struct tw_judge_config *cfg, const struct tw_view *v, unsigned window_s,
    const struct tw_cgroup_fig *c, enum tw_state st, tw_observe_fn fn, void *ctx)
{
	const struct tw_threshold *t = st == TW_STATE_CRITICAL ? &cfg->cg_refault_crit :
	    &cfg->cg_refault_warn;
	struct tw_cgroup_figures f;
	struct tw_cgroup_ticket tk;
	struct tw_observation o;
	char line[1024];
	size_t used;
	int tune;

	tw_judge_cgroup_figures(v, c, window_s, &f);
	if (tw_advice_cgroup(&f, &tune, line, sizeof(line)) != TW_OK)
		return 0;
	tw_judge_cgroup_ticket(&f, &tk);
	memset(&o, 0, sizeof(o));
	o.sym = tk.sym;
	o.severity = st;
	tw_str_copy_cut(o.subject, sizeof(o.subject), tk.subject);
	tw_str_copy_cut(o.owner, sizeof(o.owner), tk.owner);
	/* The advice line names the service and what to do instead. */
	tw_str_copy_cut(o.evidence, sizeof(o.evidence), line);
	if (tk.tunable[0] != '\0') {
		tw_str_copy_cut(o.tunable, sizeof(o.tunable), tk.tunable);
		tw_str_copy_cut(o.current, sizeof(o.current), tk.current);
		tw_str_copy_cut(o.suggested, sizeof(o.suggested), tk.suggested);
		tw_str_copy_cut(o.apply, sizeof(o.apply), tk.apply);
		tw_str_copy_cut(o.persist, sizeof(o.persist), tk.persist);
		limit_evidence(&f, o.evidence, sizeof(o.evidence));
		snprintf(o.documentation, sizeof(o.documentation), "%s",
		    tw_judge_cgroup_unit(c->path) != NULL ? "systemd.resource-control(5)" :
		    f.version == 1 ? "Documentation/admin-guide/cgroup-v1/memory.rst" :
		    "Documentation/admin-guide/cgroup-v2.rst");
	}
	used = strlen(o.evidence);
	if (t->set && used + 1 < sizeof(o.evidence))
		snprintf(o.evidence + used, sizeof(o.evidence) - used, " (%s range %s, refaults/s)",
		    st == TW_STATE_CRITICAL ? "critical" : "warning", t->range.text);
	/* The ticket's id, not one of the cut copies: the check prints it. */
	memcpy(o.id, tk.id, sizeof(o.id));
	return fn(ctx, &o);
}

int
tw_observe_cgroups(const struct tw_judge_config *cfg, const struct tw_view *v, unsigned window_s,
    tw_observe_fn fn, void *ctx)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < v->ncgroups && rc == 0; i++) {
		struct tw_cgroup_fig c;
		enum tw_state st;

		tw_view_cgroup_figures(&v->cgroups[i], &c);
		st = tw_judge_cgroup(&cfg->cg_refault_warn, &cfg->cg_refault_crit, &cfg->cg_psi_warn,
		    &cfg->cg_psi_crit, &c);
		if (st == TW_STATE_WARNING || st == TW_STATE_CRITICAL)
			rc = observe_one(cfg, v, window_s, &c, st, fn, ctx);
	}
	return rc;
}
