/* What the advice tests share: a fake tunable table for the lookup, a
 * rule by symptom and position, and a suggestion formatted as a check
 * prints it. Static inline: each test program uses a different part. */
#ifndef TW_ADVICE_FAKE_H
#define TW_ADVICE_FAKE_H

#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "advice/advice.h"
#include "collect/sysctl.h"
#include "tw_check.h"
#include "util/error.h"

/* ---- A fake tunable table for the lookup. */

struct kv {
	const char *name;
	const char *value;
};

struct env {
	const struct kv *kv;
	const char *fallback;		/* for any other name; may be NULL */
	const char *vector_fallback;	/* for the vector tunables */
};

static inline int
is_vector(const char *name)
{
	return strcmp(name, "net.ipv4.tcp_mem") == 0 || strcmp(name, "net.ipv4.tcp_rmem") == 0 ||
	    strcmp(name, "net.ipv4.tcp_wmem") == 0 || strcmp(name, "net.ipv4.udp_mem") == 0;
}

static inline const char *
fake_lookup(void *ctx, const char *name)
{
	const struct env *e = ctx;
	size_t i;

	for (i = 0; e->kv != NULL && e->kv[i].name != NULL; i++)
		if (strcmp(e->kv[i].name, name) == 0)
			return e->kv[i].value;
	/* What a queue dropped is no tunable: known only where a test says. */
	if (strcmp(name, TW_ADVICE_SHORTFALL) == 0)
		return NULL;
	return is_vector(name) ? e->vector_fallback : e->fallback;
}

static inline const struct tw_advice_rule *
rule(enum tw_symptom sym, size_t idx)
{
	const struct tw_advice_rule *r;
	size_t n = tw_advice_rules(sym, &r);

	ck_assert_msg(idx < n, "%s has only %zu rules", tw_advice_symptom_name(sym), n);
	return &r[idx];
}

/* Suggest on os with the given values and format with detail. */
static inline const char *
advise(enum tw_symptom sym, size_t idx, enum tw_os os, const struct kv *kv,
    const char *detail, struct tw_suggestion *s)
{
	static char line[1024];
	struct env e = { kv, NULL, NULL };

	ck_assert_int_eq(tw_advice_suggest(rule(sym, idx), os, fake_lookup, &e, s), TW_OK);
	ck_assert_int_eq(tw_advice_format(s, detail, line, sizeof(line)), TW_OK);
	return line;
}

#endif
