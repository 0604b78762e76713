/* SPDX-License-Identifier: ISC */
#include "config.h"

/* What every group's observer does with a verdict: its findings, one per
 * rule advised, each with the threshold it passed said after its
 * evidence. observe.c and observe_GROUP.c call it; it calls none of them. */

#include "finding/observe_verdict.h"

#include <stdio.h>
#include <string.h>

#include "advice/shortfall.h"
#include "finding/lookup.h"
#include "finding/observe_pick.h"
#include "finding/ratchet.h"
#include "util/error.h"
#include "view/record_disk.h"

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

int
tw_observe_symptom(const struct tw_view *v, enum tw_os os, enum tw_symptom sym,
    enum tw_state severity, const char *subject, const struct tw_view_disk *device,
    const char *evidence, const uint64_t *shortfall, const struct tw_observe_note *n)
{
	struct tw_disk_record rec;
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
		tw_view_disk_record(device, &rec);
		lk.d = &rec;
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

int
tw_observe_verdict_sized(const struct tw_view *v, enum tw_os os, const struct tw_verdict *verdict,
    enum tw_state severity, const char *subject, const struct tw_view_disk *device,
    const uint64_t *shortfall, const struct tw_observe_note *n)
{
	size_t i;
	int rc;

	if (verdict->nfound == 0 && verdict->no_tunable[0] != '\0')
		return observe_no_tunable(verdict, severity, subject, n);
	for (i = 0; i < verdict->nfound; i++)
		if ((rc = tw_observe_symptom(v, os, verdict->found[i].sym, severity, subject, device,
		    verdict->found[i].evidence, shortfall, n)) != 0)
			return rc;
	return 0;
}

int
tw_observe_verdict(const struct tw_view *v, enum tw_os os, const struct tw_verdict *verdict,
    enum tw_state severity, const char *subject, const struct tw_view_disk *device,
    const struct tw_observe_note *n)
{
	return tw_observe_verdict_sized(v, os, verdict, severity, subject, device, NULL, n);
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
