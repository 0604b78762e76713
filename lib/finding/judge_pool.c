/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge.h"

#include <stdio.h>
#include <string.h>

#include "advice/poolwords.h"
#include "util/error.h"

int
tw_judge_pool(const struct tw_judge_config *c, const struct tw_view_pool *pl, enum tw_state *st,
    unsigned long long *failures)
{
	unsigned long long judged;

	*st = TW_STATE_OK;
	*failures = 0;
	if (!tw_view_has(pl, TW_OID_DBLOCK_RECENT_FAILURES))
		return 0;
	*failures = (unsigned long long)tw_view_num(pl, TW_OID_DBLOCK_RECENT_FAILURES);
	judged = *failures;
	if (judged == 0 && tw_view_has(pl, TW_OID_DBLOCK_RECENT_PRESSURE_TIME) &&
	    tw_view_num(pl, TW_OID_DBLOCK_RECENT_PRESSURE_TIME) > 0)
		judged = 1;
	*st = tw_threshold_state((double)judged, &c->pool_warn, &c->pool_crit);
	return 1;
}

/* Whether the backlog of CPU cpu dropped in the window. */
static int
backlog_dropped(const struct tw_view *v, uint32_t cpu)
{
	size_t i;

	for (i = 0; i < v->npools; i++)
		if (v->pools[i].cls == TW_DBLOCK_SOFTNET_BACKLOG && v->pools[i].instance == cpu &&
		    tw_view_has(&v->pools[i], TW_OID_DBLOCK_RECENT_FAILURES))
			return tw_view_num(&v->pools[i], TW_OID_DBLOCK_RECENT_FAILURES) > 0;
	return 0;
}

int
tw_judge_pool_of(const struct tw_judge_config *c, const struct tw_view *v,
    const struct tw_view_pool *pl, enum tw_state *st, unsigned long long *failures)
{
	int judged = tw_judge_pool(c, pl, st, failures);

	if (judged && pl->cls == TW_DBLOCK_SOFTNET_BUDGET && !backlog_dropped(v, pl->instance))
		*st = TW_STATE_OK;
	return judged;
}

int
tw_judge_pool_pressure(const struct tw_view *v, uint32_t cls, uint64_t *ms)
{
	size_t i;
	int have = 0;

	*ms = 0;
	for (i = 0; i < v->npools; i++)
		if (v->pools[i].cls == cls &&
		    tw_view_has(&v->pools[i], TW_OID_DBLOCK_RECENT_PRESSURE_TIME)) {
			*ms += (uint64_t)tw_view_num(&v->pools[i], TW_OID_DBLOCK_RECENT_PRESSURE_TIME);
			have = 1;
		}
	return have;
}

void
tw_judge_pool_evidence(const struct tw_view *v, const struct tw_pool_class *cl,
    const char *who, unsigned long long failures, unsigned window_s, char *out, size_t len)
{
	const struct tw_pool_words *w = tw_pool_words_of(cl->id);
	uint64_t ms;

	if (cl->tcp_pressure && tw_judge_pool_pressure(v, cl->id, &ms) && ms > 0) {
		if (failures > 0)
			snprintf(out, len, "TCP entered memory pressure %llu times and was in it "
			    "%.1f s of the last %u s", failures, (double)ms / 1000.0, window_s);
		else
			snprintf(out, len, "TCP was in memory pressure %.1f s of the last %u s, "
			    "since before them", (double)ms / 1000.0, window_s);
		return;
	}
	if (cl->per == TW_POOL_PER_CPU)
		snprintf(out, len, "%s %s%llu%s in the last %u s%s", who, w->evidence_before,
		    failures, w->evidence_after, window_s,
		    w->evidence_note != NULL ? w->evidence_note : "");
	else
		snprintf(out, len, "%s%llu%s in the last %u s%s", w->evidence_before, failures,
		    w->evidence_after, window_s,
		    w->evidence_note != NULL ? w->evidence_note : "");
}

int
tw_judge_tcp_prune(const struct tw_view *v, unsigned long long failures, unsigned window_s,
    struct tw_verdict *out)
{
	struct tw_tcp_prune_figures f;
	size_t i;

	memset(&f, 0, sizeof(f));
	f.failures = failures;
	f.window_s = window_s;
	f.have_pressure_ms = tw_judge_pool_pressure(v, TW_DBLOCK_TCP_MEMORY, &f.pressure_ms);
	for (i = 0; i < v->npools; i++)
		if (v->pools[i].cls == TW_DBLOCK_TCP_MEMORY &&
		    tw_view_has(&v->pools[i], TW_OID_DBLOCK_RECENT_FAILURES))
			f.pressures += (uint64_t)tw_view_num(&v->pools[i],
			    TW_OID_DBLOCK_RECENT_FAILURES);
	return tw_evidence_tcp_prune(&f, out);
}

/* The free blocks of 32 KiB or more in every zone but DMA, which ordinary
 * allocations do not use, and the memory pressure of the cache group. */
int
tw_judge_highorder(const struct tw_view *v, unsigned long long failures, unsigned window_s,
    struct tw_verdict *out)
{
	struct tw_highorder_figures h;
	size_t i;

	memset(&h, 0, sizeof(h));
	h.failures = failures;
	h.window_s = window_s;
	for (i = 0; i < v->npools; i++) {
		const struct tw_view_pool *pl = &v->pools[i];
		size_t len = strlen(pl->name);

		if (pl->cls != TW_DBLOCK_BUDDY_ZONE || !tw_view_has(pl, TW_OID_DBLOCK_FREE) ||
		    (len >= 4 && strcmp(pl->name + len - 4, " DMA") == 0))
			continue;
		h.have_free = 1;
		h.free_blocks += (uint64_t)tw_view_num(pl, TW_OID_DBLOCK_FREE);
	}
	if (tw_view_has(&v->bc, TW_OID_BC_MEMORY_PRESSURE)) {
		h.have_psi = 1;
		h.psi = tw_view_num(&v->bc, TW_OID_BC_MEMORY_PRESSURE);
	}
	return tw_evidence_highorder(&h, out);
}
