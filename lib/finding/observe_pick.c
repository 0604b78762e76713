/* SPDX-License-Identifier: ISC */
/* Which rules advise a symptom: the same choice for the checks' "tune:"
 * lines and tunewatchd's findings. */
#include "config.h"

#include "finding/observe_pick.h"

#include "util/error.h"

int
tw_observe_pick(enum tw_symptom sym, enum tw_os os, tw_advice_lookup_fn lookup, void *ctx,
    struct tw_suggestion *s)
{
	const struct tw_advice_rule *rules;
	size_t n = tw_advice_rules(sym, &rules), i;
	int fallback = -1;

	/* As the checks' "tune:" line: a rule that is already satisfied is
	 * the advice only when nothing else applies. */
	for (i = 0; i < n; i++) {
		if (tw_advice_name(&rules[i], os) == NULL ||
		    tw_advice_suggest(&rules[i], os, lookup, ctx, s) != TW_OK)
			continue;
		if ((s->flags & (TW_SUG_AT_LIMIT | TW_SUG_NO_CHANGE)) == 0)
			return TW_OK;
		if (fallback < 0)
			fallback = (int)i;
	}
	if (fallback >= 0 && tw_advice_suggest(&rules[fallback], os, lookup, ctx, s) == TW_OK)
		return TW_OK;
	return TW_E_ABSENT;
}

size_t
tw_observe_picks(enum tw_symptom sym, enum tw_os os, tw_advice_lookup_fn lookup, void *ctx,
    struct tw_suggestion out[TW_OBSERVE_PICKS_MAX])
{
	const struct tw_advice_rule *rules;
	size_t n = tw_advice_rules(sym, &rules), i, got = 0;

	if (tw_observe_pick(sym, os, lookup, ctx, &out[0]) != TW_OK)
		return 0;
	got = 1;
	if (out[0].flags & (TW_SUG_AT_LIMIT | TW_SUG_NO_CHANGE))
		return got;
	for (i = (size_t)(out[0].rule - rules) + 1;
	    i < n && (rules[i].flags & TW_RULE_WITH_PREV) && got < TW_OBSERVE_PICKS_MAX; i++) {
		if (tw_advice_name(&rules[i], os) == NULL ||
		    tw_advice_suggest(&rules[i], os, lookup, ctx, &out[got]) != TW_OK ||
		    (out[got].flags & (TW_SUG_AT_LIMIT | TW_SUG_NO_CHANGE)))
			break;
		got++;
	}
	return got;
}
