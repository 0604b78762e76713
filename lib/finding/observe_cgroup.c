/* SPDX-License-Identifier: ISC */
/* A service (cgroup) whose cache is bounded by its own limit: a finding
 * like any other, about the cgroup's directory (its whole path, so that
 * two cgroups of one unit name are two findings), judged with
 * check_bufcache --cgroup's rules (judge_cgroup.c) and advised on with
 * lib/advice/advice_cgroup.c. Its symptom is its own (cgroup-cache-bounded) when
 * its limit bounds it, so that an NMS routes it to the service's owner;
 * a service far from its limit shows the host's refaults in its share of
 * the cache, and keeps the host's symptom with itself as the subject. The
 * finding itself (id, apply, persist) is ticket_cgroup.c's, as the check's. */
#include "config.h"

#include "finding/observe.h"

#include <stdio.h>
#include <string.h>

#include "advice/ticket.h"
#include "threshold/perfdata.h"
#include "util/error.h"
#include "util/strwriter.h"
#include "view/record_cgroup.h"

#define MIB (1024.0 * 1024.0)

/* "1000 refaults/s, memory 63.9 of 64 MiB (memory.high), in the last 60 s":
 * the figures behind a limit to raise; the knob is in its own columns. */
static void
limit_evidence(const struct tw_cgroup_record *c, unsigned window_s, char *out, size_t len)
{
	char r[32] = "unknown", u[32] = "unknown", l[32] = "unknown";

	/* A figure that does not print stays "unknown" (snmptt drops "?"). */
	(void)tw_perf_number(tw_fig_or0(c->refaults_s), 2, r, sizeof(r));
	if (tw_fig_has(c->memory_usage_bytes))
		(void)tw_perf_number(c->memory_usage_bytes / MIB, 1, u, sizeof(u));
	(void)tw_perf_number(tw_fig_or0(c->memory_limit_bytes) / MIB, 1, l, sizeof(l));
	snprintf(out, len, "%s refaults/s, memory %s of %s MiB (%s), in the last %u s", r, u, l,
	    c->limit_name != NULL ? c->limit_name : "", window_s);
}

/* A DisplayString of the MIB's, cut where tunewatchd has always cut the
 * cgroup's lines: the check prints them whole. */
static void
cut(char *s)
{
	s[strnlen(s, TW_FINDING_STR - 1)] = '\0';
}

/* Whose cgroup c is: root's for a system unit's, the user's for a user's
 * unit's, its directory's owner's for a plain one. A plain cgroup whose
 * owner is unknown is taken for a user's (the lowest class), owned by no
 * one in particular. */
static void
owned(struct tw_finding *o, const struct tw_cgroup_record *c)
{
	if (c->owner_kind == TW_CG_OWNER_SYSTEM_UNIT)
		tw_finding_owned(o, 0);
	else if (c->owner_uid >= 0)
		tw_finding_owned(o, c->owner_uid);
	else {
		tw_finding_owned(o, -1);
		o->cls = TW_FINDING_CLASS_USER;
	}
}

/* The finding of cgroup c at state st; evidence is the advice line with
 * the threshold passed after it, as for the other findings. */
static int
observe_one(const struct tw_judge_config *cfg, const struct tw_view *v, unsigned window_s,
    const struct tw_cgroup_record *c, enum tw_state st, tw_observe_fn fn, void *ctx)
{
	const struct tw_threshold *t = st == TW_STATE_CRITICAL ? &cfg->cg_refault_crit :
	    &cfg->cg_refault_warn;
	struct tw_advice_cgroup_evidence e;
	struct tw_finding o;
	char line[1024];
	size_t used;
	int tune;

	tw_judge_cgroup_evidence(v, c, window_s, &e);
	if (tw_advice_cgroup(&e, &tune, line, sizeof(line)) != TW_OK)
		return 0;
	/* The id is the whole subject's, made before any cut: the check
	 * prints it. */
	tw_judge_cgroup_finding(&e, &o);
	o.severity = st;
	owned(&o, c);
	cut(o.subject);
	cut(o.owner);
	cut(o.apply);
	cut(o.persist);
	/* The advice line names the service and what to do instead. */
	tw_str_copy_cut(o.evidence, sizeof(o.evidence), line);
	if (o.tunable[0] != '\0')
		limit_evidence(c, window_s, o.evidence, sizeof(o.evidence));
	used = strlen(o.evidence);
	if (t->set && used + 1 < sizeof(o.evidence))
		snprintf(o.evidence + used, sizeof(o.evidence) - used, " (%s range %s, refaults/s)",
		    st == TW_STATE_CRITICAL ? "critical" : "warning", t->range.text);
	return fn(ctx, &o);
}

int
tw_observe_cgroups(const struct tw_judge_config *cfg, const struct tw_view *v, unsigned window_s,
    tw_observe_fn fn, void *ctx)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < v->ncgroups && rc == 0; i++) {
		struct tw_cgroup_record c;
		enum tw_state st;

		/* Judged on what is judged; decoded whole when it is not fine. */
		tw_view_cgroup_judged(&v->cgroups[i], &c);
		st = tw_judge_cgroup(&cfg->cg_refault_warn, &cfg->cg_refault_crit, &cfg->cg_psi_warn,
		    &cfg->cg_psi_crit, &c);
		if (st != TW_STATE_WARNING && st != TW_STATE_CRITICAL)
			continue;
		tw_view_cgroup_record(&v->cgroups[i], &c);
		rc = observe_one(cfg, v, window_s, &c, st, fn, ctx);
	}
	return rc;
}
