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
#include "finding/observe_pick.h"
#include "finding/observe_verdict.h"
#include "view/view.h"

/* Judge v against c and report every symptom shown, on os's tunables. */
int tw_observe(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, tw_observe_fn fn, void *ctx);

/* The cgroups of v whose refaults or pressure pass cfg's cgroup
 * thresholds (tw_observe calls it; observe_cgroup.c). */
int tw_observe_cgroups(const struct tw_judge_config *cfg, const struct tw_view *v,
    unsigned window_s, tw_observe_fn fn, void *ctx);

#endif
