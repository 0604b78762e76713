/* SPDX-License-Identifier: ISC */
/* Observations: the findings the judgement of one view shows, one per
 * symptom on one subject, each with the tunable to turn and a concrete suggestion.
 *
 * This is what check_* print as "tune:" lines, in the form tunewatchd
 * keeps as findings: the same judgement (judge.h), the same verdicts and
 * the same rule chosen for each symptom (tw_observe_pick: the first rule
 * with something to change on the system, else the first that applies
 * at all). A verdict that names no tunable ("no tunable: ...") is an
 * observation too, with the symptom looked for and no tunable: a ticket
 * for a person (advice/ticket.h). */
#ifndef TW_FINDING_OBSERVE_H
#define TW_FINDING_OBSERVE_H

#include <stddef.h>

#include "advice/advice.h"
#include "advice/ticket.h"
#include "finding/finding.h"
#include "finding/judge.h"
#include "view/view.h"

/* Called for each finding shown (finding.h); a non-zero return stops the
 * evaluation and is returned. */
typedef int (*tw_observe_fn)(void *ctx, const struct tw_finding *o);

/* Judge v against c and report every symptom shown, on os's tunables. */
int tw_observe(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, tw_observe_fn fn, void *ctx);

/* The cgroups of v whose refaults or pressure pass cfg's cgroup
 * thresholds (tw_observe calls it; observe_cgroup.c). */
int tw_observe_cgroups(const struct tw_judge_config *cfg, const struct tw_view *v,
    unsigned window_s, tw_observe_fn fn, void *ctx);

/* The rule of sym to advise on os, with lookup's values: the first with
 * something to change, else the first that names a tunable there. Returns
 * TW_OK with *s filled, or TW_E_ABSENT. */
int tw_observe_pick(enum tw_symptom sym, enum tw_os os, tw_advice_lookup_fn lookup, void *ctx,
    struct tw_suggestion *s);

/* The most rules one symptom advises at once. */
#define TW_OBSERVE_PICKS_MAX 4

/* Every rule advised for sym: the pick (tw_observe_pick) and, when it has
 * something to change, each rule after it marked TW_RULE_WITH_PREV that
 * has something to change too (rmem_default beside rmem_max). A check
 * prints a "tune:" line for each and tunewatchd keeps a finding for
 * each, so that the two give the same findings from the same rules.
 * Returns how many of out (TW_OBSERVE_PICKS_MAX) it filled; 0 when no
 * rule names a tunable on os. */
size_t tw_observe_picks(enum tw_symptom sym, enum tw_os os, tw_advice_lookup_fn lookup,
    void *ctx, struct tw_suggestion out[TW_OBSERVE_PICKS_MAX]);

#endif
