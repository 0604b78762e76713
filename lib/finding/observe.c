/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/observe_priv.h"

#include <stdio.h>
#include <string.h>

#include "advice/poolwords.h"
#include "advice/shortfall.h"
#include "advice/ticket.h"
#include "finding/lookup.h"
#include "finding/ratchet.h"
#include "util/error.h"
#include "view/fig_cache.h"

/* A line longer than the MIB holds is not published: a command cut short
 * is another command. */
static void
whole_or_none(char *line)
{
	if (strlen(line) >= TW_FINDING_STR)
		line[0] = '\0';
}

/* The finding of one advised rule s. */
/* Say n's note after o's evidence, when it fits whole, and hand o on. */
static int
emit(const struct tw_observe_note *n, struct tw_finding *o)
{
	size_t used = strlen(o->evidence), len = strlen(n->note);

	if (used + len < sizeof(o->evidence))
		memcpy(o->evidence + used, n->note, len + 1);
	return n->fn(n->ctx, o);
}

static int
observe_one(const struct tw_view *v, enum tw_os os, enum tw_symptom sym, enum tw_state severity,
    const char *subject, const struct tw_view_disk *device, const char *evidence,
    const struct tw_suggestion *s, const struct tw_observe_note *n)
{
	struct tw_finding o;
	char why[TW_FINDING_STR];

	/* Raised by our own advice and no gain yet: no ratchet (ratchet.h).
	 * The same finding, its ticket's, with no value to apply. */
	if (tw_ratchet_held(v, s, why, sizeof(why))) {
		struct tw_suggestion held = *s;

		held.proposed[0] = '\0';
		tw_finding_tune(&o, os, sym, severity, subject, device, why, &held);
		o.no_apply = TW_RATCHET_NO_APPLY;
		return emit(n, &o);
	}
	tw_finding_tune(&o, os, sym, severity, subject, device, evidence, s);
	whole_or_none(o.apply);
	whole_or_none(o.persist);
	return emit(n, &o);
}

/* One observation of sym on subject for each rule it advises
 * (tw_observe_picks), its advice computed with the view's values (and
 * device's queue, when given). A per-device tunable makes the device the
 * subject (tw_ticket_subject, as the checks' ids). shortfall: what the
 * queue dropped, for a queue sized from it; NULL otherwise. */
static int
observe(const struct tw_view *v, enum tw_os os, enum tw_symptom sym, enum tw_state severity,
    const char *subject, const struct tw_view_disk *device, const char *evidence,
    const uint64_t *shortfall, const struct tw_observe_note *n)
{
	struct tw_disk_fig fig;
	struct tw_view_lookup lk = { v, NULL, "" };
	struct tw_shortfall_lookup sl;
	tw_advice_lookup_fn lookup = tw_view_lookup;
	void *lookup_ctx = &lk;
	struct tw_suggestion picks[TW_OBSERVE_PICKS_MAX];
	size_t npicks, i;
	int rc;

	if (severity != TW_STATE_WARNING && severity != TW_STATE_CRITICAL)
		return 0;
	if (device != NULL) {
		tw_view_disk_figures(device, &fig);
		lk.d = &fig;
	}
	if (shortfall != NULL) {
		tw_shortfall_lookup_init(&sl, tw_view_lookup, &lk, *shortfall);
		lookup = tw_shortfall_lookup;
		lookup_ctx = &sl;
	}
	npicks = tw_observe_picks(sym, os, lookup, lookup_ctx, picks);
	for (i = 0; i < npicks; i++)
		if ((rc = observe_one(v, os, sym, severity, subject, device, evidence, &picks[i],
		    n)) != 0)
			return rc;
	return 0;
}

/* A verdict that names no knob is a finding for a person: its symptom,
 * tunable "" (lib/advice/ticket.h). */
static int
observe_no_tunable(const struct tw_verdict *verdict, enum tw_state severity,
    const char *subject, const struct tw_observe_note *n)
{
	struct tw_finding o;

	if (severity != TW_STATE_WARNING && severity != TW_STATE_CRITICAL)
		return 0;
	tw_finding_no_tunable(&o, verdict->no_tunable_sym, severity, subject, NULL,
	    verdict->no_tunable, verdict->no_apply);
	return emit(n, &o);
}

/* shortfall: what sizes a suggestion of the verdict's (advice.h); NULL
 * for none. */
static int
observe_verdict_sized(const struct tw_view *v, enum tw_os os, const struct tw_verdict *verdict,
    enum tw_state severity, const char *subject, const struct tw_view_disk *device,
    const uint64_t *shortfall, const struct tw_observe_note *n)
{
	size_t i;
	int rc;

	if (verdict->nfound == 0 && verdict->no_tunable[0] != '\0')
		return observe_no_tunable(verdict, severity, subject, n);
	for (i = 0; i < verdict->nfound; i++)
		if ((rc = observe(v, os, verdict->found[i].sym, severity, subject, device,
		    verdict->found[i].evidence, shortfall, n)) != 0)
			return rc;
	return 0;
}

int
tw_observe_verdict(const struct tw_view *v, enum tw_os os, const struct tw_verdict *verdict,
    enum tw_state severity, const char *subject, const struct tw_view_disk *device,
    const struct tw_observe_note *n)
{
	return observe_verdict_sized(v, os, verdict, severity, subject, device, NULL, n);
}

int
tw_observe_bad(enum tw_state st)
{
	return st == TW_STATE_WARNING || st == TW_STATE_CRITICAL;
}

void
tw_observe_note(struct tw_observe_note *n, tw_observe_fn fn, void *ctx, enum tw_state sev,
    const struct tw_threshold *warn, const struct tw_threshold *crit, const char *what)
{
	const struct tw_threshold *t = sev == TW_STATE_CRITICAL ? crit : warn;

	n->fn = fn;
	n->ctx = ctx;
	n->note[0] = '\0';
	if (t->set)
		snprintf(n->note, sizeof(n->note), " (%s range %s, %s)",
		    sev == TW_STATE_CRITICAL ? "critical" : "warning", t->range.text, what);
}

static int
observe_cache(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, tw_observe_fn fn, void *ctx)
{
	static const struct tw_threshold unset;
	struct tw_cache_judgement j;
	struct tw_cache_verdicts verdicts;
	struct tw_cache_fig bc;
	struct tw_observe_note n;
	enum tw_state reads;
	int rc = 0;

	tw_view_cache_figures(&v->bc, &bc);
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
		rc = observe_verdict_sized(v, os, &verdicts.dirty, j.dirty, TW_TICKET_SUBJECT_CACHE,
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
	return observe(v, os, tw_pool_words_of(cl->id)->symptom, worst, tw_ticket_subject_pool(cl),
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
