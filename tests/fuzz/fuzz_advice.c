#include "config.h"

/* libFuzzer target for tw_advice_suggest and tw_advice_format
 * (lib/advice/advice.c) on fuzzed current values.
 *
 * The first byte picks a rule of the table and a system; the rest, up to a
 * NUL, is what the lookup returns for every tunable asked about. The
 * suggestion is checked against the rule: the current value is read again
 * here by other means, a proposal only moves each field the rule's way and
 * within its bounds, the flags agree with the texts, and the line fits
 * exactly the buffer it says it needs and is "" in anything smaller. */
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice/advice.h"
#include "fuzz_check.h"
#include "util/error.h"

#define VEC_MAX 8

struct vec {
	int64_t v[VEC_MAX];
	size_t n;
};

struct lookup_ctx {
	const char *value;
	const struct tw_advice_action *action;	/* the rule's, before any twin */
};

static const char *
lookup(void *arg, const char *name)
{
	const struct lookup_ctx *c = arg;

	FUZZ_ASSERT(name != NULL);
	/* The kernel release and a bound's tunable read as unknown here, so
	 * the static bounds (the ones every kernel accepts) apply; so does
	 * what a queue dropped, so a sized rule doubles (the sizing is
	 * tests/check_advice_values.c's). */
	if (strcmp(name, TW_ADVICE_OSRELEASE) == 0 || strcmp(name, TW_ADVICE_SHORTFALL) == 0 ||
	    (c->action->min_from != NULL && strcmp(name, c->action->min_from) == 0) ||
	    (c->action->max_from != NULL && strcmp(name, c->action->max_from) == 0))
		return NULL;
	/* Otherwise only the action's tunable and its twin are asked about. */
	FUZZ_ASSERT(strcmp(name, c->action->name) == 0 ||
	    (c->action->twin != NULL && strcmp(name, c->action->twin->name) == 0));
	return c->value;
}

/* The value as blank-separated non-negative integers (tabs, newlines and
 * carriage returns count as blanks), at most VEC_MAX of them, in a value
 * of at most 2 * TW_ADVICE_VALUE_LEN - 1 bytes (lib/advice/advice.c's working
 * copy, NUL included): what a usable current value is. */
static int
read_vec(const char *text, struct vec *out)
{
	const char *p = text;

	out->n = 0;
	if (strlen(text) >= 2 * TW_ADVICE_VALUE_LEN)
		return 0;
	for (;;) {
		const char *tok;
		size_t len, i;
		uint64_t v = 0;

		p += strspn(p, " \t\n\r");
		if (*p == '\0')
			break;
		tok = p;
		len = strcspn(p, " \t\n\r");
		p += len;
		i = tok[0] == '-' ? 1 : 0;
		if (i == len || out->n == VEC_MAX)
			return 0;
		for (; i < len; i++) {
			if (tok[i] < '0' || tok[i] > '9')
				return 0;
			if (v > ((uint64_t)INT64_MAX - (uint64_t)(tok[i] - '0')) / 10)
				return 0;
			v = v * 10 + (uint64_t)(tok[i] - '0');
		}
		/* "-0" is a zero; any other negative value is not usable. */
		if (tok[0] == '-' && v != 0)
			return 0;
		out->v[out->n++] = (int64_t)v;
	}
	return out->n > 0;
}

static void
write_vec(const struct vec *v, char *buf, size_t len)
{
	size_t i, pos = 0;

	buf[0] = '\0';
	for (i = 0; i < v->n && pos < len; i++)
		pos += (size_t)snprintf(buf + pos, len - pos, "%s%" PRId64, i > 0 ? " " : "",
		    v->v[i]);
}

/* What halving or doubling makes of field v, by the rules in advice.h. */
static int64_t
moved(const struct tw_advice_action *a, int64_t max, int64_t v)
{
	if (a->op == TW_ADV_DOUBLE) {
		if (v >= max)
			return v;
		if (v > max / 2)
			return max;
		if (v == 0)
			return a->min > 1 ? a->min : 1;
		/* Doubling stops no lower than the action's minimum. */
		return 2 * v < a->min ? a->min : 2 * v;
	}
	if (v <= a->min)
		return v;
	return v / 2 < a->min ? a->min : v / 2;
}

static void
check_number(const struct tw_advice_action *a, const char *value, const struct tw_suggestion *s)
{
	int64_t max = a->max != 0 ? a->max : INT_MAX;
	char want[512], want_next[512];
	struct vec cur, next;
	size_t i;
	int usable, enable = 0, changed = 0, saturated = 0;

	usable = read_vec(value, &cur);
	if (usable) {
		write_vec(&cur, want, sizeof(want));
		usable = strlen(want) < TW_ADVICE_VALUE_LEN &&
		    (a->field == TW_ADV_ALL_FIELDS || (size_t)a->field < cur.n) &&
		    (a->op != TW_ADV_SET_NUM || cur.n == 1);
	}
	if (usable && a->op != TW_ADV_SET_NUM) {
		enable = (a->flags & TW_ADV_ZERO_OFF) && cur.n == 1 && cur.v[0] == 0;
		next = cur;
		for (i = 0; i < cur.n && !enable; i++) {
			if (a->field != TW_ADV_ALL_FIELDS && (size_t)a->field != i)
				continue;
			next.v[i] = moved(a, max, cur.v[i]);
			changed |= next.v[i] != cur.v[i];
			saturated |= a->op == TW_ADV_DOUBLE && next.v[i] == max &&
			    next.v[i] != cur.v[i] && next.v[i] < 2 * cur.v[i];
		}
		/* A proposal that cannot be shown makes the value unusable. */
		write_vec(&next, want_next, sizeof(want_next));
		if (changed && strlen(want_next) >= TW_ADVICE_VALUE_LEN)
			usable = 0;
	}
	if (!usable) {
		FUZZ_ASSERT(s->flags & TW_SUG_CURRENT_UNKNOWN);
		FUZZ_ASSERT(!(s->flags & (TW_SUG_AT_LIMIT | TW_SUG_SATURATED | TW_SUG_NO_CHANGE |
		    TW_SUG_ENABLE)));
		FUZZ_ASSERT(s->current[0] == '\0');
		if (a->op == TW_ADV_SET_NUM) {
			snprintf(want, sizeof(want), "%" PRId64, a->set_num);
			FUZZ_ASSERT(strcmp(s->proposed, want) == 0);
		} else {
			FUZZ_ASSERT(s->proposed[0] == '\0');
		}
		return;
	}
	FUZZ_ASSERT(!(s->flags & TW_SUG_CURRENT_UNKNOWN));
	FUZZ_ASSERT(strcmp(s->current, want) == 0);

	if (a->op == TW_ADV_SET_NUM) {
		int64_t v = cur.v[0];
		int done = a->dir == TW_ADV_UP ? v >= a->set_num : v <= a->set_num;

		FUZZ_ASSERT(s->limit == a->set_num);
		FUZZ_ASSERT(!!(s->flags & TW_SUG_NO_CHANGE) == done);
		snprintf(want, sizeof(want), "%" PRId64, a->set_num);
		FUZZ_ASSERT(strcmp(s->proposed, done ? "" : want) == 0);
		return;
	}
	FUZZ_ASSERT(!!(s->flags & TW_SUG_ENABLE) == enable);
	if (enable) {
		FUZZ_ASSERT(strcmp(s->proposed, a->enable) == 0);
		return;
	}
	/* 0 sized automatically: the rule's replacement, or nothing. */
	if ((a->flags & TW_ADV_ZERO_AUTO) && cur.n == 1 && cur.v[0] == 0) {
		FUZZ_ASSERT(s->flags & TW_SUG_AUTOMATIC);
		FUZZ_ASSERT(strcmp(s->proposed, a->enable != NULL ? a->enable : "") == 0);
		return;
	}
	FUZZ_ASSERT(!(s->flags & TW_SUG_AUTOMATIC));
	/* NBUF 1-9: tenths of memory, one tenth a step, up to 9. */
	if ((a->flags & TW_ADV_TENTHS) && a->op == TW_ADV_DOUBLE && cur.n == 1 &&
	    cur.v[0] >= 1 && cur.v[0] <= 9) {
		FUZZ_ASSERT(s->flags & TW_SUG_TENTHS);
		if (cur.v[0] == 9) {
			FUZZ_ASSERT((s->flags & TW_SUG_AT_LIMIT) && s->proposed[0] == '\0');
		} else {
			snprintf(want, sizeof(want), "%" PRId64, cur.v[0] + 1);
			FUZZ_ASSERT(strcmp(s->proposed, want) == 0);
		}
		return;
	}
	FUZZ_ASSERT(!!(s->flags & TW_SUG_AT_LIMIT) == !changed);
	if (!changed) {
		FUZZ_ASSERT(s->proposed[0] == '\0');
		FUZZ_ASSERT(s->limit == (a->op == TW_ADV_DOUBLE ? max : a->min));
		return;
	}

	/* The proposal, and a second look at it: as many fields as now, each
	 * moved the rule's way and within bounds, and only the rule's fields. */
	FUZZ_ASSERT(strcmp(s->proposed, want_next) == 0);
	FUZZ_ASSERT(!!(s->flags & TW_SUG_SATURATED) == saturated);
	if (saturated)
		FUZZ_ASSERT(s->limit == max);
	FUZZ_ASSERT(read_vec(s->proposed, &next) && next.n == cur.n);
	for (i = 0; i < cur.n; i++) {
		if (next.v[i] == cur.v[i])
			continue;
		FUZZ_ASSERT(a->field == TW_ADV_ALL_FIELDS || (size_t)a->field == i);
		if (a->op == TW_ADV_DOUBLE)
			FUZZ_ASSERT(next.v[i] > cur.v[i] && next.v[i] <= max);
		else
			FUZZ_ASSERT(next.v[i] < cur.v[i] && next.v[i] >= a->min);
	}
}

/* The active word: the bracketed one, or the only word. */
static void
check_word(const struct tw_advice_action *a, const char *value, const struct tw_suggestion *s)
{
	size_t i;

	if (s->flags & TW_SUG_CURRENT_UNKNOWN) {
		FUZZ_ASSERT(s->current[0] == '\0');
		FUZZ_ASSERT(strcmp(s->proposed, a->set_word) == 0);
		return;
	}
	FUZZ_ASSERT(s->current[0] != '\0');
	for (i = 0; s->current[i] != '\0'; i++) {
		unsigned char c = (unsigned char)s->current[i];

		FUZZ_ASSERT(c > ' ' && c < 0x7f && c != '[' && c != ']');
	}
	FUZZ_ASSERT(strstr(value, s->current) != NULL);
	if (s->flags & TW_SUG_NO_CHANGE)
		FUZZ_ASSERT(s->proposed[0] == '\0');
	else
		FUZZ_ASSERT(strcmp(s->proposed, a->set_word) == 0);
}

/* The line needs exactly strlen + 1 bytes; anything less is "". */
static void
check_format(const struct tw_suggestion *s, const char *detail)
{
	static char line[4096];
	size_t len, sizes[3], i;
	int rc;

	rc = tw_advice_format(s, detail, line, sizeof(line));
	FUZZ_ASSERT(rc == TW_OK);
	len = strlen(line);
	if (detail == NULL || detail[0] == '\0') {
		for (i = 0; i < len; i++)
			FUZZ_ASSERT((unsigned char)line[i] >= ' ');
	} else {
		FUZZ_ASSERT(strstr(line, detail) != NULL);
	}
	FUZZ_ASSERT(strncmp(line, s->name, strlen(s->name)) == 0 ||
	    (s->flags & TW_SUG_CURRENT_UNKNOWN));
	if (!(s->flags & (TW_SUG_CURRENT_UNKNOWN | TW_SUG_AT_LIMIT | TW_SUG_NO_CHANGE)))
		FUZZ_ASSERT(strstr(line, " -> ") != NULL && strstr(line, s->proposed) != NULL);

	sizes[0] = len + 1;
	sizes[1] = len;
	sizes[2] = len / 2 + 1;
	for (i = 0; i < 3; i++) {
		char *out = malloc(sizes[i]);

		FUZZ_ASSERT(out != NULL);
		rc = tw_advice_format(s, detail, out, sizes[i]);
		if (sizes[i] > len) {
			FUZZ_ASSERT(rc == TW_OK && strcmp(out, line) == 0);
		} else {
			FUZZ_ASSERT(rc == TW_E_TOOBIG && out[0] == '\0');
		}
		free(out);
	}
	FUZZ_ASSERT(tw_advice_format(s, detail, line, 0) == TW_E_TOOBIG);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tw_advice_rule *rules, *r;
	const struct tw_advice_action *a;
	struct tw_suggestion s;
	struct lookup_ctx ctx;
	enum tw_os os;
	size_t n, pick;
	char *value;
	int rc;

	if (size < 1)
		return 0;
	n = tw_advice_all(&rules);
	FUZZ_ASSERT(n > 0);
	pick = data[0] % (n * TW_OS_COUNT);
	r = &rules[pick / TW_OS_COUNT];
	os = (enum tw_os)(pick % TW_OS_COUNT);
	value = fuzz_strndup(data + 1, size - 1);
	ctx.value = value;
	ctx.action = &r->os[os];

	rc = tw_advice_suggest(r, os, lookup, &ctx, &s);
	if (r->os[os].name == NULL) {
		FUZZ_ASSERT(rc == TW_E_ABSENT);
		free(value);
		return 0;
	}
	FUZZ_ASSERT(rc == TW_OK);
	a = s.action;
	FUZZ_ASSERT(a == &r->os[os] || a == r->os[os].twin);
	FUZZ_ASSERT(s.name == a->name && s.dir == a->dir && s.rule == r && s.os == os);
	FUZZ_ASSERT(strlen(s.current) < sizeof(s.current) &&
	    strlen(s.proposed) < sizeof(s.proposed));
	FUZZ_ASSERT(strpbrk(s.current, "\t\n\r") == NULL);
	if (a->op == TW_ADV_SET_WORD)
		check_word(a, value, &s);
	else
		check_number(a, value, &s);

	check_format(&s, NULL);
	/* The caller's evidence, whatever it holds, goes in as it is. */
	if (strlen(value) < 1024)
		check_format(&s, value);
	free(value);
	return 0;
}
