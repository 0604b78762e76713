/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge.h"

#include <stdio.h>
#include <string.h>

#include "advice/poolwords.h"
#include "util/error.h"
#include "util/uid.h"
#include "view/record_cache.h"
#include "view/record_pool.h"

int
tw_judge_pool(const struct tw_judge_config *c, const struct tw_pool_record *f, enum tw_state *st,
    unsigned long long *failures)
{
	unsigned long long judged;

	*st = TW_STATE_OK;
	*failures = 0;
	if (!tw_fig_has(f->recent_failures))
		return 0;
	*failures = (unsigned long long)f->recent_failures;
	judged = *failures;
	if (judged == 0 && tw_fig_has(f->recent_pressure_ms) && f->recent_pressure_ms > 0)
		judged = 1;
	*st = tw_threshold_state((double)judged, &c->pool_warn, &c->pool_crit);
	return 1;
}

/* Whether the backlog of CPU cpu dropped in the window. The search starts
 * at *at and goes round: the view is sorted by (class, instance), so a
 * class judged in order finds each CPU's backlog one row after the last,
 * where a search from the top would make 1,024 CPUs a million steps. */
static int
backlog_dropped(const struct tw_view *v, uint32_t cpu, size_t *at)
{
	struct tw_pool_record f;
	size_t k;

	for (k = 0; k < v->npools; k++) {
		size_t i = (*at + k) % v->npools;

		if (v->pools[i].cls == TW_DBLOCK_SOFTNET_BACKLOG && v->pools[i].instance == cpu) {
			*at = i + 1;
			tw_view_pool_record(&v->pools[i], &f);
			return tw_fig_has(f.recent_failures) && f.recent_failures > 0;
		}
	}
	return 0;
}

static int
judge_of(const struct tw_judge_config *c, const struct tw_view *v, const struct tw_pool_record *f,
    enum tw_state *st, unsigned long long *failures, size_t *at)
{
	int judged = tw_judge_pool(c, f, st, failures);

	if (judged && f->cls == TW_DBLOCK_SOFTNET_BUDGET && !backlog_dropped(v, f->instance, at))
		*st = TW_STATE_OK;
	return judged;
}

int
tw_judge_pool_of(const struct tw_judge_config *c, const struct tw_view *v,
    const struct tw_pool_record *f, enum tw_state *st, unsigned long long *failures)
{
	size_t at = 0;

	return judge_of(c, v, f, st, failures, &at);
}

/* Name failing CPU cpu after the ones already in who, up to four. */
static void
name_cpu(char *who, size_t len, size_t failing, int32_t cpu)
{
	size_t used = strlen(who);
	char name[16];

	if (failing > 4)
		return;
	if (failing == 4) {
		snprintf(who + used, len - used, " and others");
		return;
	}
	snprintf(name, sizeof(name), "cpu%ld", (long)cpu);
	if (used + strlen(name) + 3 < len)
		snprintf(who + used, len - used, "%s%s", failing > 0 ? ", " : "", name);
}

static void
count(struct tw_pool_judgement *j, const struct tw_pool_judged *pj)
{
	j->judged++;
	j->failures += pj->failures;
	if (pj->squeezed)
		return;
	j->counted += pj->failures;
	if (pj->state == TW_STATE_OK)
		return;
	j->worst = tw_state_worst(j->worst, pj->state);
	j->failing_sum += pj->failures;
	if (pj->failures > j->shortfall)
		j->shortfall = pj->failures;
	if (pj->rec->cpu >= 0)
		name_cpu(j->who, sizeof(j->who), j->failing, pj->rec->cpu);
	j->failing++;
}

void
tw_judge_pool_class(const struct tw_judge_config *c, const struct tw_view *v,
    const struct tw_pool_class *cl, tw_pool_keep_fn keep, tw_pool_judged_fn each, void *ctx,
    struct tw_pool_judgement *j)
{
	int have_pressure = 0;
	size_t i, at = 0;

	memset(j, 0, sizeof(*j));
	j->worst = TW_STATE_OK;
	for (i = 0; i < v->npools; i++) {
		struct tw_pool_record f;
		struct tw_pool_judged pj;

		if (v->pools[i].cls != cl->id)
			continue;
		tw_view_pool_record(&v->pools[i], &f);
		if (tw_fig_has(f.recent_pressure_ms)) {
			j->pressure_ms += f.recent_pressure_ms;
			have_pressure = 1;
		}
		if ((keep != NULL && !keep(ctx, &f)) ||
		    !judge_of(c, v, &f, &pj.state, &pj.failures, &at))
			continue;
		pj.rec = &f;
		/* Squeezed, and nothing lost: not a failure. */
		pj.squeezed = pj.state == TW_STATE_OK && cl->id == TW_DBLOCK_SOFTNET_BUDGET &&
		    pj.failures > 0;
		count(j, &pj);
		if (each != NULL)
			each(ctx, &pj);
	}
	if (!have_pressure)
		j->pressure_ms = TW_FIG_NONE;
	if (cl->per != TW_POOL_PER_CPU)
		j->shortfall = j->failing_sum;
}

void
tw_judge_pool_evidence(const struct tw_pool_judgement *j, const struct tw_pool_class *cl,
    unsigned window_s, char *out, size_t len)
{
	const struct tw_pool_words *w = tw_pool_words_of(cl->id);
	unsigned long long failures = j->failing_sum;

	if (cl->tcp_pressure && tw_fig_has(j->pressure_ms) && j->pressure_ms > 0) {
		if (failures > 0)
			snprintf(out, len, "TCP entered memory pressure %llu times and was in it "
			    "%.1f s of the last %u s", failures, j->pressure_ms / 1000.0, window_s);
		else
			snprintf(out, len, "TCP was in memory pressure %.1f s of the last %u s, "
			    "since before them", j->pressure_ms / 1000.0, window_s);
		return;
	}
	if (cl->per == TW_POOL_PER_CPU)
		snprintf(out, len, "%s %s%llu%s in the last %u s%s", j->who, w->evidence_before,
		    failures, w->evidence_after, window_s,
		    w->evidence_note != NULL ? w->evidence_note : "");
	else
		snprintf(out, len, "%s%llu%s in the last %u s%s", w->evidence_before, failures,
		    w->evidence_after, window_s,
		    w->evidence_note != NULL ? w->evidence_note : "");
}

int
tw_judge_tcp_listen(const struct tw_view *v, unsigned long long failures, unsigned window_s,
    struct tw_verdict *out)
{
	size_t i;

	for (i = 0; i < v->npools; i++) {
		const struct tw_view_pool *p = &v->pools[i];

		if (p->cls != TW_DBLOCK_TCP_LISTEN || !(p->has & TW_VIEW_BIT(TW_OID_DBLOCK_OWNER_UID)))
			continue;
		if (!tw_uid_is_user((int64_t)p->col[TW_OID_DBLOCK_OWNER_UID]))
			return TW_E_ABSENT;
		return tw_evidence_listen_user(failures, window_s,
		    (uint32_t)p->col[TW_OID_DBLOCK_OWNER_UID], out);
	}
	return TW_E_ABSENT;
}

int
tw_judge_tcp_prune(const struct tw_view *v, unsigned long long failures, unsigned window_s,
    struct tw_verdict *out)
{
	struct tw_tcp_prune_figures f;
	struct tw_pool_class_record tcp;

	memset(&f, 0, sizeof(f));
	f.failures = failures;
	f.window_s = window_s;
	tw_view_pool_class_record(v, TW_DBLOCK_TCP_MEMORY, &tcp);
	f.have_pressure_ms = tw_fig_has(tcp.recent_pressure_ms);
	if (f.have_pressure_ms)
		f.pressure_ms = (uint64_t)tcp.recent_pressure_ms;
	if (tw_fig_has(tcp.recent_failures))
		f.pressures = (uint64_t)tcp.recent_failures;
	return tw_evidence_tcp_prune(&f, out);
}

/* The free blocks of 32 KiB or more in every zone but DMA, which ordinary
 * allocations do not use, and the memory pressure of the cache group. */
int
tw_judge_highorder(const struct tw_view *v, unsigned long long failures, unsigned window_s,
    struct tw_verdict *out)
{
	struct tw_highorder_figures h;
	struct tw_cache_record bc;
	size_t i;

	memset(&h, 0, sizeof(h));
	h.failures = failures;
	h.window_s = window_s;
	for (i = 0; i < v->npools; i++) {
		struct tw_pool_record f;
		size_t len;

		if (v->pools[i].cls != TW_DBLOCK_BUDDY_ZONE)
			continue;
		tw_view_pool_record(&v->pools[i], &f);
		len = strlen(f.name);
		if (!tw_fig_has(f.free) || (len >= 4 && strcmp(f.name + len - 4, " DMA") == 0))
			continue;
		h.have_free = 1;
		h.free_blocks += (uint64_t)f.free;
	}
	tw_view_cache_record(&v->bc, &bc);
	if (tw_fig_has(bc.memory_pressure_pct)) {
		h.have_psi = 1;
		h.psi = bc.memory_pressure_pct;
	}
	return tw_evidence_highorder(&h, out);
}
