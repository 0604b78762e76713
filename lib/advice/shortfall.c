#include "config.h"

#include "advice/shortfall.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void
tw_shortfall_lookup_init(struct tw_shortfall_lookup *l, tw_advice_lookup_fn inner, void *ctx,
    uint64_t failures)
{
	l->inner = inner;
	l->ctx = ctx;
	snprintf(l->figure, sizeof(l->figure), "%" PRIu64, failures);
}

const char *
tw_shortfall_lookup(void *ctx, const char *name)
{
	struct tw_shortfall_lookup *l = ctx;

	if (strcmp(name, TW_ADVICE_SHORTFALL) == 0)
		return l->figure;
	return l->inner != NULL ? l->inner(l->ctx, name) : NULL;
}
