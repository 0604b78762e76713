/* SPDX-License-Identifier: ISC */
/* Which rules advise a symptom (observe_pick.c): the same choice for the
 * checks' "tune:" lines and tunewatchd's findings. */
#ifndef TW_FINDING_OBSERVE_PICK_H
#define TW_FINDING_OBSERVE_PICK_H

#include <stddef.h>

#include "advice/advice.h"

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
