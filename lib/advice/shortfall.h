/* SPDX-License-Identifier: ISC */
/* What a value lacks, for the advice that sizes it (TW_ADV_SIZED in
 * advice.h): a lookup that answers TW_ADVICE_SHORTFALL with the figure its
 * caller worked out and passes every other name to the lookup it wraps, so
 * that tunewatchd's findings and the checks size a value from the same
 * figure through the same rules. The dirty limit's rule is sized (twice a
 * second of the disk's writes, less the limit). The pools still pass the
 * failures of the window (for a per-CPU queue, the most one CPU dropped),
 * but no pool's rule is sized since issue 32 (rules.c says why). */
#ifndef TW_ADVICE_SHORTFALL_H
#define TW_ADVICE_SHORTFALL_H

#include <stdint.h>

#include "advice/advice.h"

struct tw_shortfall_lookup {
	tw_advice_lookup_fn inner;
	void *ctx;
	char figure[24];
};

void tw_shortfall_lookup_init(struct tw_shortfall_lookup *l, tw_advice_lookup_fn inner,
    void *ctx, uint64_t failures);

/* A tw_advice_lookup_fn; ctx is a struct tw_shortfall_lookup. */
const char *tw_shortfall_lookup(void *ctx, const char *name);

#endif
