/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/observe_priv.h"

#include <stdio.h>
#include <string.h>

#include "advice/poolwords.h"
#include "advice/ticket.h"
#include "util/error.h"
#include "view/record_cache.h"

static int
observe_cache(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, tw_observe_fn fn, void *ctx)
{
	static const struct tw_threshold unset;
	struct tw_cache_judgement j;
	struct tw_cache_verdicts verdicts;
	struct tw_cache_record bc;
	struct tw_observe_note n;
	enum tw_state reads;
	int rc = 0;

	tw_view_cache_record(&v->bc, &bc);
	tw_judge_cache(c, &bc, v, window_s, os, &j);
	if (!tw_observe_bad(j.worst))
		return 0;
	tw_judge_cache_verdicts(&j, &verdicts);
	reads = tw_state_worst(tw_state_worst(tw_observe_bad(j.hit) ? j.hit : TW_STATE_OK,
	    tw_observe_bad(j.refaults) ? j.refaults : TW_STATE_OK),
	    tw_observe_bad(j.readahead) ? j.readahead : TW_STATE_OK);
	if (tw_observe_bad(j.hit) && j.hit == reads)
		tw_observe_note(&n, fn, ctx, reads, &c->hit_warn, &c->hit_crit, "read hit ratio, %");
	else if (tw_observe_bad(j.refaults) && j.refaults == reads)
		tw_observe_note(&n, fn, ctx, reads, &c->refault_warn, &c->refault_crit, "refaults/s");
	else
		/* The read-ahead window's precondition is its own threshold. */
		tw_observe_note(&n, fn, ctx, TW_STATE_OK, &unset, &unset, "");
	if (verdicts.has_reads && tw_observe_bad(reads))
		rc = tw_observe_verdict(v, os, &verdicts.reads, reads, TW_TICKET_SUBJECT_CACHE, j.disk,
		    &n);
	tw_observe_note(&n, fn, ctx, j.pressure, &c->psi_warn, &c->psi_crit, "memory pressure, %");
	if (rc == 0 && verdicts.has_pressure)
		rc = tw_observe_verdict(v, os, &verdicts.pressure, j.pressure, TW_TICKET_SUBJECT_CACHE,
		    NULL, &n);
	/* The dirty limit's evidence says its own threshold. */
	tw_observe_note(&n, fn, ctx, TW_STATE_OK, &unset, &unset, "");
	if (rc == 0 && verdicts.has_dirty)
		rc = tw_observe_verdict_sized(v, os, &verdicts.dirty, j.dirty, TW_TICKET_SUBJECT_CACHE,
		    NULL, &verdicts.dirty_shortfall, &n);
	return rc;
}

/* One class's failing pools, as check_dblock counts them
 * (tw_judge_pool_class). */
static int
observe_class(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, const struct tw_pool_class *cl, tw_observe_fn fn, void *ctx)
{
	struct tw_pool_judgement j;
	enum tw_state worst;
	unsigned long long sum;
	uint64_t shortfall;
	char evidence[TW_FINDING_STR];
	struct tw_verdict verdict;
	struct tw_observe_note n;

	tw_judge_pool_class(c, v, cl, NULL, NULL, NULL, &j);
	worst = j.worst;
	sum = j.failing_sum;
	shortfall = j.shortfall;
	if (j.failing == 0)
		return 0;
	tw_observe_note(&n, fn, ctx, worst, &c->pool_warn, &c->pool_crit, "failures in the window");
	if (cl->id == TW_DBLOCK_HIGH_ORDER) {
		if (tw_judge_highorder(v, sum, window_s, &verdict) != TW_OK)
			return 0;
		return tw_observe_verdict(v, os, &verdict, worst, tw_ticket_subject_pool(cl), NULL,
		    &n);
	}
	/* Only one user's listeners seen full: their own backlog, as
	 * check_dblock says. */
	if (cl->id == TW_DBLOCK_TCP_LISTEN && tw_judge_tcp_listen(v, sum, window_s,
	    &verdict) == TW_OK)
		return tw_observe_verdict(v, os, &verdict, worst, tw_ticket_subject_pool(cl), NULL,
		    &n);
	/* Pruned under memory pressure: tcp_mem's, as check_dblock says. */
	if (cl->id == TW_DBLOCK_TCP_RCVBUF && tw_judge_tcp_prune(v, sum, window_s,
	    &verdict) == TW_OK && verdict.nfound == 0)
		return tw_observe_verdict(v, os, &verdict, worst, tw_ticket_subject_pool(cl), NULL,
		    &n);
	/* Sockets below rmem_max: no host-wide knob, as check_dblock says. */
	if (cl->id == TW_DBLOCK_UDP_RCVBUF && tw_judge_udp_rcvbuf(v, sum, window_s,
	    &verdict) == TW_OK && verdict.nfound == 0)
		return tw_observe_verdict(v, os, &verdict, worst, tw_ticket_subject_pool(cl), NULL,
		    &n);
	tw_judge_pool_evidence(&j, cl, window_s, evidence, sizeof(evidence));
	return tw_observe_symptom(v, os, tw_pool_words_of(cl->id)->symptom, worst, tw_ticket_subject_pool(cl),
	    NULL, evidence, &shortfall, &n);
}

static int
observe_pools(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, tw_observe_fn fn, void *ctx)
{
	size_t k;
	int rc;

	for (k = 0; k < tw_pool_nclasses; k++) {
		if (!tw_pool_words_of(tw_pool_classes[k].id)->judged)
			continue;
		if ((rc = observe_class(c, v, window_s, os, &tw_pool_classes[k], fn, ctx)) != 0)
			return rc;
	}
	return 0;
}

int
tw_observe(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, tw_observe_fn fn, void *ctx)
{
	int rc;

	if ((rc = observe_cache(c, v, window_s, os, fn, ctx)) != 0)
		return rc;
	if ((rc = observe_pools(c, v, window_s, os, fn, ctx)) != 0)
		return rc;
	if ((rc = tw_observe_sockets(c, v, window_s, os, fn, ctx)) != 0)
		return rc;
	if ((rc = tw_observe_cgroups(c, v, window_s, fn, ctx)) != 0)
		return rc;
	return tw_observe_disks(c, v, window_s, os, fn, ctx);
}
