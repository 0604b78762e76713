/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/util/sorted.h, the one binary search: every answer
 * against a linear scan of the same array, on every length from empty to
 * past a few levels of halving, for every key present and between. */
#include <stdint.h>
#include <string.h>

#include "tw_check.h"
#include "util/sorted.h"

#define MAX_N 70

static uint64_t
key_at(const void *base, size_t i)
{
	return ((const uint64_t *)base)[i];
}

struct below {
	const uint64_t *keys;
	uint64_t key;
};

static int
before(const void *ctx, size_t i)
{
	const struct below *b = ctx;

	return b->keys[i] < b->key;
}

/* keys[i] = 3i + 5: room for a key before each, between each two and
 * after the last. */
static void
fill(uint64_t *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		keys[i] = 3 * (uint64_t)i + 5;
}

START_TEST(test_find_as_linear)
{
	uint64_t keys[MAX_N];
	size_t n, want, i;
	uint64_t key;

	for (n = 0; n <= MAX_N; n++) {
		fill(keys, n);
		for (key = 0; key <= 3 * (uint64_t)n + 6; key++) {
			want = n;
			for (i = 0; i < n; i++)
				if (keys[i] == key)
					want = i;
			ck_assert_msg(tw_sorted_find(keys, n, key_at, key) == want,
			    "n %zu key %llu", n, (unsigned long long)key);
		}
	}
}
END_TEST

START_TEST(test_first_as_linear)
{
	uint64_t keys[MAX_N];
	size_t n, want;
	struct below b = { keys, 0 };

	for (n = 0; n <= MAX_N; n++) {
		fill(keys, n);
		for (b.key = 0; b.key <= 3 * (uint64_t)n + 6; b.key++) {
			for (want = 0; want < n && keys[want] < b.key; want++)
				;
			ck_assert_msg(tw_sorted_first(n, before, &b) == want,
			    "n %zu key %llu", n, (unsigned long long)b.key);
		}
	}
}
END_TEST

/* A key at the top of the range, and signed keys in their own order. */
START_TEST(test_extremes_and_signed)
{
	uint64_t keys[] = { 0, 1, UINT64_MAX - 1, UINT64_MAX };
	int64_t s[] = { INT64_MIN, -5, -1, 0, 7, INT64_MAX };
	uint64_t mapped[6];
	size_t i;

	ck_assert_uint_eq(tw_sorted_find(keys, 4, key_at, UINT64_MAX), 3);
	ck_assert_uint_eq(tw_sorted_find(keys, 4, key_at, 0), 0);
	ck_assert_uint_eq(tw_sorted_find(keys, 4, key_at, 2), 4);
	for (i = 0; i < 6; i++)
		mapped[i] = tw_sorted_signed(s[i]);
	for (i = 0; i + 1 < 6; i++)
		ck_assert(mapped[i] < mapped[i + 1]);
	for (i = 0; i < 6; i++)
		ck_assert_uint_eq(tw_sorted_find(mapped, 6, key_at, tw_sorted_signed(s[i])), i);
	ck_assert_uint_eq(tw_sorted_find(mapped, 6, key_at, tw_sorted_signed(-2)), 6);
}
END_TEST

static Suite *
sorted_suite(void)
{
	Suite *s = suite_create("sorted");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_find_as_linear);
	tcase_add_test(tc, test_first_as_linear);
	tcase_add_test(tc, test_extremes_and_signed);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(sorted_suite());
}
