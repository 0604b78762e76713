/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/probe/histogram.c: every value lands in a bucket that
 * holds it, a bucket's midpoint is within 1/32 of any value in it, the
 * percentiles of known distributions, the counts below which a percentile
 * is absent, and a merge that equals counting everything in one. */
#include <string.h>

#include "probe/histogram.h"
#include "tw_check.h"

/* |a - b| <= b / 32, in integers. */
static int
within_bound(uint64_t a, uint64_t b)
{
	uint64_t d = a > b ? a - b : b - a;

	return d * 32 <= b;
}

START_TEST(test_buckets_hold_their_values)
{
	uint64_t v, lo, hi, prev_hi = 0;
	unsigned b;

	/* Every bucket follows the one before it, without gap or overlap. */
	for (b = 0; b < TW_HIST_BUCKETS; b++) {
		tw_hist_bucket_range(b, &lo, &hi);
		ck_assert(b == 0 || lo == prev_hi + 1);
		ck_assert_uint_le(lo, hi);
		ck_assert_uint_eq(tw_hist_bucket(lo), b);
		ck_assert_uint_eq(tw_hist_bucket(hi), b);
		prev_hi = hi;
	}
	ck_assert_uint_eq(prev_hi, TW_HIST_MAX_US);
	/* Every value up to 2^20 us, then a sparse walk to the top. */
	for (v = 0; v <= TW_HIST_MAX_US; v += v < (1u << 20) ? 1 : v / 977 + 1) {
		b = tw_hist_bucket(v);
		tw_hist_bucket_range(b, &lo, &hi);
		ck_assert_msg(lo <= v && v <= hi, "%llu not in bucket %u", (unsigned long long)v,
		    b);
	}
	ck_assert_uint_eq(tw_hist_bucket(TW_HIST_MAX_US + 1), TW_HIST_BUCKETS - 1);
	ck_assert_uint_eq(tw_hist_bucket(UINT64_MAX), TW_HIST_BUCKETS - 1);
}
END_TEST

/* The error bound: a percentile of values all alike is within 1/32 of
 * the value, from 1 us to the top; exact below 16 us. */
START_TEST(test_error_bound)
{
	uint64_t v, got;

	for (v = 1; v <= TW_HIST_MAX_US; v += v < 4096 ? 1 : v / 101 + 1) {
		struct tw_hist h;
		uint64_t lo, hi, mid;

		tw_hist_init(&h);
		tw_hist_add(&h, v);
		tw_hist_add(&h, v + 1);
		ck_assert(tw_hist_percentile(&h, 50, &got));
		ck_assert_msg(within_bound(got, v), "p50 of %llu read %llu",
		    (unsigned long long)v, (unsigned long long)got);
		if (v < 16)
			ck_assert_uint_eq(got, v);
		/* And the midpoint itself, against the bucket's lowest value. */
		tw_hist_bucket_range(tw_hist_bucket(v), &lo, &hi);
		mid = lo + (hi - lo + 1) / 2;
		ck_assert(within_bound(mid, lo) && within_bound(mid, hi));
	}
}
END_TEST

START_TEST(test_uniform_percentiles)
{
	struct tw_hist h;
	uint64_t v, got;

	tw_hist_init(&h);
	for (v = 1; v <= 10000; v++)
		tw_hist_add(&h, v * 10);	/* 10 us to 100 ms */
	ck_assert_uint_eq(h.count, 10000);
	ck_assert_uint_eq(h.min_us, 10);
	ck_assert_uint_eq(h.max_us, 100000);
	ck_assert_uint_eq(h.sum_us, 10 * 10000ull * 10001 / 2);
	ck_assert(tw_hist_percentile(&h, 50, &got));
	ck_assert(within_bound(got, 50000));
	ck_assert(tw_hist_percentile(&h, 90, &got));
	ck_assert(within_bound(got, 90000));
	ck_assert(tw_hist_percentile(&h, 99, &got));
	ck_assert(within_bound(got, 99000));
	/* The top percentile never exceeds the largest value. */
	ck_assert(tw_hist_percentile(&h, 99.99, &got));
	ck_assert_uint_le(got, 100000);
}
END_TEST

/* Two modes: a percentile lands in the right one. */
START_TEST(test_bimodal)
{
	struct tw_hist h;
	uint64_t got;
	int i;

	tw_hist_init(&h);
	for (i = 0; i < 95; i++)
		tw_hist_add(&h, 150);		/* cache-fast */
	for (i = 0; i < 5; i++)
		tw_hist_add(&h, 8000000);	/* 8 s */
	ck_assert(tw_hist_percentile(&h, 90, &got));
	ck_assert(within_bound(got, 150));
	ck_assert(tw_hist_percentile(&h, 99, &got));
	ck_assert(within_bound(got, 8000000));
}
END_TEST

START_TEST(test_too_few_is_absent)
{
	struct tw_hist h;
	uint64_t got = 12345;
	int i;

	ck_assert_uint_eq(tw_hist_min_count(50), 2);
	ck_assert_uint_eq(tw_hist_min_count(90), 10);
	ck_assert_uint_eq(tw_hist_min_count(99), 100);
	ck_assert_uint_eq(tw_hist_min_count(0), UINT64_MAX);
	ck_assert_uint_eq(tw_hist_min_count(100), UINT64_MAX);
	tw_hist_init(&h);
	ck_assert_int_eq(tw_hist_percentile(&h, 50, &got), 0);
	tw_hist_add(&h, 500);
	ck_assert_int_eq(tw_hist_percentile(&h, 50, &got), 0);
	for (i = 1; i < 9; i++)
		tw_hist_add(&h, 500);
	ck_assert_int_eq(tw_hist_percentile(&h, 90, &got), 0);	/* 9 reads */
	tw_hist_add(&h, 500);
	ck_assert_int_eq(tw_hist_percentile(&h, 90, &got), 1);	/* 10 */
	for (i = 10; i < 99; i++)
		tw_hist_add(&h, 500);
	ck_assert_int_eq(tw_hist_percentile(&h, 99, &got), 0);	/* 99 */
	tw_hist_add(&h, 500);
	ck_assert_int_eq(tw_hist_percentile(&h, 99, &got), 1);	/* 100 */
	ck_assert(within_bound(got, 500));
}
END_TEST

START_TEST(test_merge_equals_one)
{
	struct tw_hist all, a, b, merged;
	uint64_t x = 88172645463325252ull, v;
	int i;

	tw_hist_init(&all);
	tw_hist_init(&a);
	tw_hist_init(&b);
	tw_hist_init(&merged);
	for (i = 0; i < 20000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x % 20000000;
		tw_hist_add(&all, v);
		tw_hist_add(i % 3 == 0 ? &a : &b, v);
	}
	tw_hist_merge(&merged, &a);
	tw_hist_merge(&merged, &b);
	ck_assert_int_eq(memcmp(&merged, &all, sizeof(all)), 0);
	/* An empty histogram merges as nothing, either way. */
	tw_hist_init(&a);
	tw_hist_merge(&merged, &a);
	ck_assert_int_eq(memcmp(&merged, &all, sizeof(all)), 0);
	tw_hist_merge(&a, &all);
	ck_assert_int_eq(memcmp(&a, &all, sizeof(all)), 0);
}
END_TEST

/* About a kilobyte: the figure BENCHMARKS.md states. */
START_TEST(test_fixed_size)
{
	ck_assert_uint_eq(TW_HIST_BUCKETS, 368);
	ck_assert_uint_le(sizeof(struct tw_hist), 1536);
}
END_TEST

static Suite *
histogram_suite(void)
{
	Suite *s = suite_create("histogram");
	TCase *tc = tcase_create("core");

	/* A hang detector, as CK_DEFAULT_TIMEOUT (tests/local.mk): 60 s is
	 * what check_reqlat's bucket test, as long as these, passed at a load
	 * average of 21. */
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_buckets_hold_their_values);
	tcase_add_test(tc, test_error_bound);
	tcase_add_test(tc, test_uniform_percentiles);
	tcase_add_test(tc, test_bimodal);
	tcase_add_test(tc, test_too_few_is_absent);
	tcase_add_test(tc, test_merge_equals_one);
	tcase_add_test(tc, test_fixed_size);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(histogram_suite());
}
