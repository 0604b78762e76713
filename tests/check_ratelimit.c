#include "config.h"

/* Unit tests for lib/util/ratelimit.c: at most N a minute, the rest
 * counted, and a new minute lets events through again. */
#include "tw_check.h"
#include "util/ratelimit.h"

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

START_TEST(test_no_limit)
{
	struct tw_ratelimit r;
	unsigned i;

	tw_ratelimit_init(&r, 0);
	for (i = 0; i < 1000; i++)
		ck_assert_int_eq(tw_ratelimit_allow(&r, 5), 1);
	ck_assert_uint_eq(r.suppressed, 0);
}
END_TEST

static Suite *
ratelimit_suite(void)
{
	Suite *s = suite_create("ratelimit");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_limit_per_minute);
	tcase_add_test(tc, test_no_limit);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(ratelimit_suite());
}
