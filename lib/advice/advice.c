/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "advice/advice.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "util/scan.h"
#include "util/error.h"
#include "util/strwriter.h"

#include "advice/value.h"

const char *
tw_advice_name(const struct tw_advice_rule *r, enum tw_os os)
{
	if (r == NULL || (int)os < 0 || os >= TW_OS_COUNT)
		return NULL;
	return r->os[os].name;
}

/* A scalar's current value through the lookup. */
static int
lookup_int(tw_advice_lookup_fn lookup, void *ctx, const char *name, int64_t *v)
{
	struct tw_value_vec vec;

	if (lookup == NULL || tw_value_parse_vec(lookup(ctx, name), &vec) != TW_OK || vec.n != 1)
		return TW_E_ABSENT;
	*v = vec.v[0];
	return TW_OK;
}

/* Of a ratio/bytes pair, the one in force. */
static const struct tw_advice_action *
choose(const struct tw_advice_action *a, tw_advice_lookup_fn lookup, void *ctx)
{
	int64_t v;

	if (a->twin == NULL)
		return a;
	if (a->flags & TW_ADV_TWIN_IF_SET) {
		if (lookup_int(lookup, ctx, a->twin->name, &v) == TW_OK)
			return v != 0 ? a->twin : a;
		/* Twin unknown: the kernel reads the one not in force as 0. */
		if (lookup_int(lookup, ctx, a->name, &v) == TW_OK && v == 0)
			return a->twin;
		return a;
	}
	if ((a->flags & TW_ADV_TWIN_IF_ZERO) &&
	    lookup_int(lookup, ctx, a->name, &v) == TW_OK && v == 0)
		return a->twin;
	return a;
}

static int
suggest_word(const struct tw_advice_action *a, const char *text, struct tw_suggestion *out)
{
	if (tw_value_active_word(text, out->current) != TW_OK) {
		out->current[0] = '\0';
		out->flags |= TW_SUG_CURRENT_UNKNOWN;
		return tw_value_copy_text(out->proposed, a->set_word);
	}
	if (tw_value_word_in(out->current, a->accept != NULL ? a->accept : a->set_word)) {
		out->flags |= TW_SUG_NO_CHANGE;
		return TW_OK;
	}
	return tw_value_copy_text(out->proposed, a->set_word);
}

unsigned
tw_advice_kernel(const char *release)
{
	unsigned long major = 0, minor = 0;
	const char *p = release;
	int digits = 0;

	if (p == NULL)
		return 0;
	for (; *p >= '0' && *p <= '9' && major < 100000; p++, digits++)
		major = major * 10 + (unsigned long)(*p - '0');
	if (digits == 0 || *p != '.')
		return 0;
	for (p++, digits = 0; *p >= '0' && *p <= '9' && minor < 1000; p++, digits++)
		minor = minor * 10 + (unsigned long)(*p - '0');
	/* "6.1", "6.1.0-18-amd64", "4.19-rc1": a minor of 1000 is no release's. */
	if (digits == 0 || minor >= 1000 || major >= 100000 ||
	    (*p != '\0' && *p != '.' && *p != '-' && *p != '+' && *p != '_'))
		return 0;
	return TW_KERNEL(major, minor);
}

/* The bounds the running system accepts: the one that changed with a
 * kernel release only when the release is known to have it, and another
 * tunable's value when it is the bound. */
static void
bounds(const struct tw_advice_action *a, tw_advice_lookup_fn lookup, void *ctx, int64_t *min,
    int64_t *max)
{
	int64_t v;

	*min = a->min;
	*max = a->max != 0 ? a->max : INT_MAX;
	if (a->since != 0 && lookup != NULL &&
	    tw_advice_kernel(lookup(ctx, TW_ADVICE_OSRELEASE)) >= a->since)
		*max = a->max_since;
	if (a->min_from != NULL && lookup_int(lookup, ctx, a->min_from, &v) == TW_OK)
		*min = v;
	if (a->max_from != NULL && lookup_int(lookup, ctx, a->max_from, &v) == TW_OK && v > 0)
		*max = v;
}

/* NBUF: 0 is 10 % of memory, chosen at boot; 1-9 are tenths of memory; from
 * 10 up, KiB. A step up is one tenth more, never past 9 (90 %). */
static int
suggest_tenths(int64_t v, struct tw_suggestion *out)
{
	out->flags |= TW_SUG_TENTHS;
	if (v >= 9) {
		out->flags |= TW_SUG_AT_LIMIT;
		out->limit = 9;
		return TW_OK;
	}
	snprintf(out->proposed, sizeof(out->proposed), "%" PRId64, v + 1);
	return TW_OK;
}

/* A queue v long that dropped shortfall in the window would have held
 * them all at v + shortfall: that, when it is more than the doubling
 * already in *next, but at most TW_ADVICE_SIZE_CAP times v and never
 * past max. Every product is compared before it is made. */
static void
sized(int64_t v, int64_t shortfall, int64_t max, int64_t *next, int *saturated,
    struct tw_suggestion *out)
{
	int64_t cap = v > max / TW_ADVICE_SIZE_CAP ? max : v * TW_ADVICE_SIZE_CAP;
	int64_t want = shortfall > cap - v ? cap : v + shortfall;

	if (want <= *next)
		return;
	out->flags |= TW_SUG_SIZED;
	if (want == cap && cap < max && shortfall > cap - v)
		out->flags |= TW_SUG_SIZE_CAPPED;
	if (want >= max) {
		want = max;
		*saturated = 1;
	}
	*next = want;
}

static int
suggest_number(const struct tw_advice_action *a, const char *text, tw_advice_lookup_fn lookup,
    void *ctx, struct tw_suggestion *out)
{
	int64_t min, max, shortfall = 0;
	struct tw_value_vec cur, next;
	size_t i, first, last;
	int changed = 0, saturated = 0, has_shortfall;

	if (tw_value_parse_vec(text, &cur) != TW_OK ||
	    (a->field != TW_ADV_ALL_FIELDS && (size_t)a->field >= cur.n) ||
	    (a->op == TW_ADV_SET_NUM && cur.n != 1) ||
	    tw_value_fmt_vec(&cur, out->current, sizeof(out->current)) != TW_OK) {
		out->current[0] = '\0';
		out->flags |= TW_SUG_CURRENT_UNKNOWN;
		/* A "set" can still name its target. */
		if (a->op == TW_ADV_SET_NUM)
			snprintf(out->proposed, sizeof(out->proposed), "%" PRId64, a->set_num);
		return TW_OK;
	}

	if (a->op == TW_ADV_SET_NUM) {
		int64_t v = cur.v[0];

		out->limit = a->set_num;
		if ((a->dir == TW_ADV_UP && v >= a->set_num) ||
		    (a->dir != TW_ADV_UP && v <= a->set_num)) {
			out->flags |= TW_SUG_NO_CHANGE;
			return TW_OK;
		}
		snprintf(out->proposed, sizeof(out->proposed), "%" PRId64, a->set_num);
		return TW_OK;
	}

	if ((a->flags & TW_ADV_ZERO_OFF) && cur.n == 1 && cur.v[0] == 0) {
		out->flags |= TW_SUG_ENABLE;
		return tw_value_copy_text(out->proposed, a->enable);
	}
	/* An automatic size is not doubled into 0 or halved into nothing. */
	if ((a->flags & TW_ADV_ZERO_AUTO) && cur.n == 1 && cur.v[0] == 0) {
		out->flags |= TW_SUG_AUTOMATIC;
		if (a->flags & TW_ADV_TENTHS)
			out->flags |= TW_SUG_TENTHS;
		if (a->enable != NULL)
			return tw_value_copy_text(out->proposed, a->enable);
		/* Left to the kernel, there is nothing to turn: a quiet line,
		 * like a value already where the rule wants it. */
		out->flags |= TW_SUG_NO_CHANGE;
		return TW_OK;
	}
	if ((a->flags & TW_ADV_TENTHS) && cur.n == 1 && cur.v[0] >= 1 && cur.v[0] <= 9 &&
	    a->op == TW_ADV_DOUBLE)
		return suggest_tenths(cur.v[0], out);

	bounds(a, lookup, ctx, &min, &max);
	has_shortfall = (a->flags & TW_ADV_SIZED) && a->op == TW_ADV_DOUBLE && cur.n == 1 &&
	    lookup_int(lookup, ctx, TW_ADVICE_SHORTFALL, &shortfall) == TW_OK && shortfall > 0;
	next = cur;
	first = a->field == TW_ADV_ALL_FIELDS ? 0 : (size_t)a->field;
	last = a->field == TW_ADV_ALL_FIELDS ? cur.n - 1 : first;
	for (i = first; i <= last; i++) {
		int64_t v = cur.v[i];

		if (a->op == TW_ADV_DOUBLE) {
			if (v >= max)
				continue;
			/* Compared before multiplying: doubling never overflows. */
			if (v > max / 2) {
				next.v[i] = max;
				saturated = 1;
			} else {
				next.v[i] = v == 0 ? (min > 1 ? min : 1) : v * 2;
				/* A floor: the kernel's default window, where
				 * doubling a small one would take rounds. */
				if (next.v[i] < min)
					next.v[i] = min;
			}
			if (has_shortfall && v > 0 && !saturated)
				sized(v, shortfall, max, &next.v[i], &saturated, out);
		} else {
			if (v <= min)
				continue;
			next.v[i] = v / 2 < min ? min : v / 2;
		}
		changed = 1;
	}
	if (!changed) {
		out->flags |= TW_SUG_AT_LIMIT;
		out->limit = a->op == TW_ADV_DOUBLE ? max : min;
		return TW_OK;
	}
	/* Doubling can add a digit to a value that only just fitted: such a
	 * value is no tunable's, so it reads as unusable too. */
	if (tw_value_fmt_vec(&next, out->proposed, sizeof(out->proposed)) != TW_OK) {
		out->current[0] = '\0';
		out->flags |= TW_SUG_CURRENT_UNKNOWN;
		return TW_OK;
	}
	if (saturated) {
		out->flags |= TW_SUG_SATURATED;
		out->limit = max;
	}
	return TW_OK;
}

int
tw_advice_suggest(const struct tw_advice_rule *r, enum tw_os os,
    tw_advice_lookup_fn lookup, void *ctx, struct tw_suggestion *out)
{
	const struct tw_advice_action *a;
	const char *text;

	if (out == NULL)
		return TW_E_INVAL;
	memset(out, 0, sizeof(*out));
	if (r == NULL || (int)os < 0 || os >= TW_OS_COUNT)
		return TW_E_INVAL;
	a = &r->os[os];
	if (a->name == NULL)
		return TW_E_ABSENT;
	a = choose(a, lookup, ctx);

	out->rule = r;
	out->action = a;
	out->os = os;
	out->name = a->name;
	out->dir = a->dir;
	out->reason = r->reason;
	out->source = a->source;
	if (a->flags & TW_ADV_PER_DEVICE)
		out->flags |= TW_SUG_PER_DEVICE;
	if (a->flags & TW_ADV_PER_CLASS)
		out->flags |= TW_SUG_PER_CLASS;
	if (a->flags & TW_ADV_BOOT)
		out->flags |= TW_SUG_NEEDS_REBOOT;
	if (a->flags & TW_ADV_RELINK)
		out->flags |= TW_SUG_NEEDS_REBOOT | TW_SUG_RELINK;

	text = lookup != NULL ? lookup(ctx, a->name) : NULL;
	if (a->op == TW_ADV_SET_WORD)
		return suggest_word(a, text, out);
	return suggest_number(a, text, lookup, ctx, out);
}
