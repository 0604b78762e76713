/* SPDX-License-Identifier: ISC */
/* What lib/finding's observers share (observe.c): a verdict's findings,
 * and the threshold a finding passed said after its evidence. */
#ifndef TW_FINDING_OBSERVE_PRIV_H
#define TW_FINDING_OBSERVE_PRIV_H

#include "finding/observe.h"

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

/* The findings of sockets (observe_socket.c): a service's each its own, a
 * user's one about that user. */
int tw_observe_sockets(const struct tw_judge_config *c, const struct tw_view *v,
    unsigned window_s, enum tw_os os, tw_observe_fn fn, void *ctx);

/* The findings of disks (observe_disk.c): probed devices' seeks, the
 * distribution's slow tails, then each disk's r_await and w_await. */
int tw_observe_disks(const struct tw_judge_config *c, const struct tw_view *v,
    unsigned window_s, enum tw_os os, tw_observe_fn fn, void *ctx);

#endif
