/* What a queue dropped, for the advice that sizes it (TW_ADV_SIZED in
 * advice.h): a lookup that answers TW_ADVICE_SHORTFALL with the failures
 * its caller counted in the window and passes every other name to the
 * lookup it wraps, so that tunewatchd's findings and the checks size a
 * queue from the same figure through the same rules.
 *
 * For a per-CPU queue (the softnet backlog) the figure is the most that
 * one CPU dropped, not the sum: each CPU has a queue of that length. */
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
