#include "config.h"

/* Unit tests for lib/util/ratelimit.c: at most N a minute, the rest
 * counted, and a new minute lets events through again; no limit asked
 * for, or one too high, is the ceiling. */
#include "tw_check.h"
#include "util/ratelimit.h"

#include <stdint.h>

START_TEST(test_limit_per_minute)
{
	struct tw_ratelimit r;
	unsigned i, allowed = 0;

	tw_ratelimit_init(&r, 3);
	for (i = 0; i < 10; i++)
		allowed += (unsigned)tw_ratelimit_allow(&r, 1000 + i * 1000);
	ck_assert_uint_eq(allowed, 3);
	ck_assert_uint_eq(r.suppressed, 7);
	/* 60 s after the first event of the minute, a new minute. */
	ck_assert_int_eq(tw_ratelimit_allow(&r, 1000 + 59999), 0);
	ck_assert_int_eq(tw_ratelimit_allow(&r, 1000 + 60000), 1);
	ck_assert_uint_eq(r.suppressed, 8);
}
END_TEST

/* 0 ("no limit") and anything above the ceiling are the ceiling: a
 * burst of a thousand at once lets exactly TW_RATELIMIT_CEILING go. */
START_TEST(test_ceiling)
{
	static const unsigned asked[] = { 0, TW_RATELIMIT_CEILING + 1, 1000000, UINT32_MAX };
	struct tw_ratelimit r;
	unsigned i, k, allowed;

	for (k = 0; k < sizeof(asked) / sizeof(asked[0]); k++) {
		tw_ratelimit_init(&r, asked[k]);
		ck_assert_uint_eq(r.per_minute, TW_RATELIMIT_CEILING);
		for (i = 0, allowed = 0; i < 1000; i++)
			allowed += (unsigned)tw_ratelimit_allow(&r, 5);
		ck_assert_uint_eq(allowed, TW_RATELIMIT_CEILING);
		ck_assert_uint_eq(r.suppressed, 1000 - TW_RATELIMIT_CEILING);
	}
	/* Below the ceiling, the limit asked for. */
	tw_ratelimit_init(&r, 250);
	ck_assert_uint_eq(r.per_minute, 250);
	tw_ratelimit_init(&r, TW_RATELIMIT_CEILING);
	ck_assert_uint_eq(r.per_minute, TW_RATELIMIT_CEILING);
}
END_TEST

static Suite *
ratelimit_suite(void)
{
	Suite *s = suite_create("ratelimit");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_limit_per_minute);
	tcase_add_test(tc, test_ceiling);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(ratelimit_suite());
}
