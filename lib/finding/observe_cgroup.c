/* A service (cgroup) whose cache is bounded by its own limit: a finding
 * like any other, about the unit (or the cgroup's path), judged with
 * check_bufcache --cgroup's rules (judge_cgroup.c) and advised on with
 * lib/advice/cgroup.c. Its symptom is the host's refault one: the same
 * misses, in one service's share of the cache. */
#include "config.h"

#include "finding/observe.h"

#include <stdio.h>
#include <string.h>

#include "advice/ticket.h"
#include "plugin/perfdata.h"
#include "util/error.h"

#define MIB (1024.0 * 1024.0)

/* A copy cut to fit: the MIB's strings are at most 255 characters. */
static void
copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* "1000 refaults/s, memory 63.9 of 64 MiB (memory.high), in the last 60 s":
 * the figures behind a limit to raise; the knob is in its own columns. */
static void
limit_evidence(const struct tw_cgroup_figures *f, char *out, size_t len)
{
	char r[32] = "?", u[32] = "?", l[32] = "?";

	/* A figure that does not print stays "?". */
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
    const struct tw_view_cgroup *c, enum tw_state st, tw_observe_fn fn, void *ctx)
{
	const struct tw_threshold *t = st == TW_STATE_CRITICAL ? &cfg->cg_refault_crit :
	    &cfg->cg_refault_warn;
	struct tw_cgroup_figures f;
	struct tw_observation o;
	char line[1024], apply[3 * TW_OBS_STR + 64];
	const char *unit = tw_judge_cgroup_unit(c);
	size_t used;
	int tune;

	tw_judge_cgroup_figures(v, c, window_s, &f);
	if (tw_advice_cgroup(&f, &tune, line, sizeof(line)) != TW_OK)
		return 0;
	memset(&o, 0, sizeof(o));
	o.sym = TW_SYM_LOW_HIT_REFAULTS;
	o.severity = st;
	snprintf(o.subject, sizeof(o.subject), "%s", tw_judge_cgroup_name(c));
	/* The advice line names the service and what to do instead. */
	copy(o.evidence, sizeof(o.evidence), line);
	if (tw_advice_cgroup_knob(&f, o.tunable, sizeof(o.tunable), o.current, o.suggested,
	    sizeof(o.current)) == TW_OK) {
		limit_evidence(&f, o.evidence, sizeof(o.evidence));
		snprintf(o.documentation, sizeof(o.documentation), "%s",
		    unit != NULL ? "systemd.resource-control(5)" :
		    f.version == 1 ? "Documentation/admin-guide/cgroup-v1/memory.rst" :
		    "Documentation/admin-guide/cgroup-v2.rst");
		if (unit != NULL) {
			snprintf(apply, sizeof(apply), "systemctl set-property %s %s=%s", unit,
			    o.tunable, o.suggested);
			copy(o.apply, sizeof(o.apply), apply);
		}
	}
	used = strlen(o.evidence);
	if (t->set && used + 1 < sizeof(o.evidence))
		snprintf(o.evidence + used, sizeof(o.evidence) - used, " (%s range %s, refaults/s)",
		    st == TW_STATE_CRITICAL ? "critical" : "warning", t->range.text);
	tw_ticket_id(o.id, o.sym, o.subject, o.tunable);
	return fn(ctx, &o);
}

int
tw_observe_cgroups(const struct tw_judge_config *cfg, const struct tw_view *v, unsigned window_s,
    tw_observe_fn fn, void *ctx)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < v->ncgroups && rc == 0; i++) {
		const struct tw_view_cgroup *c = &v->cgroups[i];
		enum tw_state st = tw_judge_cgroup(&cfg->cg_refault_warn, &cfg->cg_refault_crit,
		    &cfg->cg_psi_warn, &cfg->cg_psi_crit, c);

		if (st == TW_STATE_WARNING || st == TW_STATE_CRITICAL)
			rc = observe_one(cfg, v, window_s, c, st, fn, ctx);
	}
	return rc;
}
