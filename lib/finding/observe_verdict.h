/* SPDX-License-Identifier: ISC */
/* What every group's observer does with what it found (observe_verdict.c):
 * a verdict's findings, one per rule advised, each with the threshold it
 * passed said after its evidence. observe.c and observe_GROUP.c call it;
 * it calls none of them. */
#ifndef TW_FINDING_OBSERVE_VERDICT_H
#define TW_FINDING_OBSERVE_VERDICT_H

#include <stdint.h>

#include "advice/advice.h"
#include "advice/verdict.h"
#include "finding/finding.h"
#include "threshold/threshold.h"
#include "view/view.h"

/* Called for each finding shown (finding.h); a non-zero return stops the
 * evaluation and is returned. */
typedef int (*tw_observe_fn)(void *ctx, const struct tw_finding *o);

/* The threshold a finding passed, said after its evidence: " (warning
 * range 20, r_await, ms)", in the checks' range syntax, and where the
 * findings go: each is built with the note in its evidence, not copied
 * to add it. No ';': snmptt drops them. */
struct tw_observe_note {
	tw_observe_fn fn;
	void *ctx;
	char note[TW_RANGE_TEXT_LEN + 64];
};

/* Set n to hand findings to fn with the threshold of severity sev
 * (crit's for CRITICAL, else warn's) and what it measures said after
 * their evidence; nothing is said for a threshold that is not set. */
void tw_observe_note(struct tw_observe_note *n, tw_observe_fn fn, void *ctx, enum tw_state sev,
    const struct tw_threshold *warn, const struct tw_threshold *crit, const char *what);

/* 1 for WARNING and CRITICAL: a state that is a finding. */
int tw_observe_bad(enum tw_state st);

/* The findings of what verdict found on subject at severity, each rule's
 * value from v (and device's queue, when given), or the finding without a
 * tunable when nothing was found. */
int tw_observe_verdict(const struct tw_view *v, enum tw_os os, const struct tw_verdict *verdict,
    enum tw_state severity, const char *subject, const struct tw_view_disk *device,
    const struct tw_observe_note *n);

/* As tw_observe_verdict, with shortfall: what sizes a suggestion of the
 * verdict's (advice.h); NULL for none. */
int tw_observe_verdict_sized(const struct tw_view *v, enum tw_os os,
    const struct tw_verdict *verdict, enum tw_state severity, const char *subject,
    const struct tw_view_disk *device, const uint64_t *shortfall,
    const struct tw_observe_note *n);

/* One observation of sym on subject for each rule it advises
 * (tw_observe_picks), its advice computed with the view's values (and
 * device's queue, when given). A per-device tunable makes the device the
 * subject (tw_ticket_subject, as the checks' ids). shortfall: what the
 * queue dropped, for a queue sized from it; NULL otherwise. */
int tw_observe_symptom(const struct tw_view *v, enum tw_os os, enum tw_symptom sym,
    enum tw_state severity, const char *subject, const struct tw_view_disk *device,
    const char *evidence, const uint64_t *shortfall, const struct tw_observe_note *n);

#endif
