/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/sample/pressureclock.c: TCP's time in memory
 * pressure from the kernel's chrono, which grows only when an episode
 * ends, and the pressure state of each reading. Every total is worked
 * out by hand beside its assertion. */
#include <stdint.h>

#include "sample/pressureclock.h"
#include "tw_check.h"

/* Eight senders that never rest, as the lab measured: in pressure at every
 * reading, the chrono still at 257964 (episodes of earlier runs); then the
 * episode ends and the chrono grows by all of it, 8040 ms. */
START_TEST(test_episode_under_way)
{
	struct tw_pressure_clock c;

	tw_pressure_clock_init(&c);
	/* First seen in pressure: nothing of it counted yet. */
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 1000, 1, 1, 257964), 257964);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 2000, 1, 1, 257964), 258964);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 3000, 1, 1, 257964), 259964);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 8000, 1, 1, 257964), 264964);
	/* Over: the kernel's 8040 ms replace the 7000 seen. */
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 9000, 0, 1, 266004), 266004);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 10000, 0, 1, 266004), 266004);
}
END_TEST

/* The kernel rounds to jiffies: an episode it says lasted 2996 ms, of
 * which 3000 were seen, leaves the total where it was, never lower. */
START_TEST(test_never_falls)
{
	struct tw_pressure_clock c;

	tw_pressure_clock_init(&c);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 0, 1, 1, 100), 100);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 3000, 1, 1, 100), 3100);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 4000, 0, 1, 3096), 3100);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 5000, 0, 1, 3096), 3100);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 6000, 0, 1, 3200), 3200);
}
END_TEST

/* In pressure at two readings with an episode ended between them (the
 * chrono grew): the new one is counted from the second reading on. */
START_TEST(test_episode_between)
{
	struct tw_pressure_clock c;

	tw_pressure_clock_init(&c);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 0, 1, 1, 0), 0);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 1000, 1, 1, 0), 1000);
	/* Ended after 1500 ms; another began before this reading. */
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 2000, 1, 1, 1500), 1500);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 3000, 1, 1, 1500), 2500);
	/* A short one wholly between two readings out of pressure. */
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 4000, 0, 1, 3700), 3700);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 5000, 0, 1, 3900), 3900);
}
END_TEST

/* A kernel without the chrono: the intervals that began and ended in
 * pressure, nothing of those it entered or left in. */
START_TEST(test_no_chrono)
{
	struct tw_pressure_clock c;

	tw_pressure_clock_init(&c);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 0, 0, 0, 0), 0);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 1000, 1, 0, 0), 0);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 2000, 1, 0, 0), 1000);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 4500, 1, 0, 0), 3500);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 5500, 0, 0, 0), 3500);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 6500, 1, 0, 0), 3500);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 7500, 1, 0, 0), 4500);
}
END_TEST

/* A clock that does not move (two readings at one time) adds nothing. */
START_TEST(test_same_time)
{
	struct tw_pressure_clock c;

	tw_pressure_clock_init(&c);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 5000, 1, 1, 10), 10);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 5000, 1, 1, 10), 10);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 4000, 1, 1, 10), 10);
	ck_assert_uint_eq(tw_pressure_clock_step(&c, 6000, 1, 1, 10), 2010);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("pressureclock");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_episode_under_way);
	tcase_add_test(tc, test_never_falls);
	tcase_add_test(tc, test_episode_between);
	tcase_add_test(tc, test_no_chrono);
	tcase_add_test(tc, test_same_time);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
