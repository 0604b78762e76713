#include "config.h"

#include "finding/judge.h"

#include <stdio.h>
#include <string.h>

#include "util/error.h"

int
tw_judge_pool(const struct tw_judge_config *c, const struct tw_view_pool *pl, enum tw_state *st,
    unsigned long long *failures)
{
	*st = TW_STATE_OK;
	*failures = 0;
	if (!tw_view_has(pl, TW_OID_DBLOCK_RECENT_FAILURES))
		return 0;
	*failures = (unsigned long long)tw_view_num(pl, TW_OID_DBLOCK_RECENT_FAILURES);
	*st = tw_threshold_state((double)*failures, &c->pool_warn, &c->pool_crit);
	return 1;
}

void
tw_judge_pool_evidence(const struct tw_pool_class *cl, const char *who,
    unsigned long long failures, unsigned window_s, char *out, size_t len)
{
	if (cl->per == TW_POOL_PER_CPU)
		snprintf(out, len, "%s %s%llu%s in the last %u s", who, cl->evidence_before,
		    failures, cl->evidence_after, window_s);
	else
		snprintf(out, len, "%s%llu%s in the last %u s", cl->evidence_before, failures,
		    cl->evidence_after, window_s);
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
