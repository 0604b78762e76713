/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/util/strwriter.c: text fits whole or the buffer is
 * emptied, whatever mix of appends got there. */
#include "tw_check.h"
#include "util/error.h"
#include "util/strwriter.h"

START_TEST(test_fits)
{
	char buf[16];
	struct tw_strwriter w;

	memset(buf, 'x', sizeof(buf));
	tw_strwriter_init(&w, buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	tw_strwriter_puts(&w, "ab");
	tw_strwriter_put(&w, "cdXX", 2);
	tw_strwriter_printf(&w, "-%d-%s", 42, "z");
	ck_assert_str_eq(buf, "abcd-42-z");
	ck_assert_uint_eq(w.len, 9);
	ck_assert_int_eq(tw_strwriter_finish(&w), TW_OK);
	ck_assert_str_eq(buf, "abcd-42-z");
}
END_TEST

START_TEST(test_exact_fit)
{
	char buf[4];
	struct tw_strwriter w;

	/* Three bytes and the NUL fit; a fourth byte does not. */
	tw_strwriter_init(&w, buf, sizeof(buf));
	tw_strwriter_puts(&w, "abc");
	ck_assert_int_eq(tw_strwriter_finish(&w), TW_OK);
	ck_assert_str_eq(buf, "abc");

	tw_strwriter_init(&w, buf, sizeof(buf));
	tw_strwriter_printf(&w, "%s", "abc");
	ck_assert_int_eq(tw_strwriter_finish(&w), TW_OK);
	ck_assert_str_eq(buf, "abc");

	tw_strwriter_init(&w, buf, sizeof(buf));
	tw_strwriter_puts(&w, "abcd");
	ck_assert_int_eq(tw_strwriter_finish(&w), TW_E_TOOBIG);
	ck_assert_str_eq(buf, "");

	tw_strwriter_init(&w, buf, sizeof(buf));
	tw_strwriter_printf(&w, "%d", 1234);
	ck_assert_int_eq(tw_strwriter_finish(&w), TW_E_TOOBIG);
	ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(test_overflow_sticks)
{
	char buf[8];
	struct tw_strwriter w;

	/* After an overflow nothing more is appended, even what would fit,
	 * so the text never has a hole in the middle. */
	tw_strwriter_init(&w, buf, sizeof(buf));
	tw_strwriter_puts(&w, "ab");
	tw_strwriter_printf(&w, "%s", "0123456789");
	ck_assert_str_eq(buf, "ab");	/* no truncated tail left behind */
	tw_strwriter_puts(&w, "c");
	ck_assert_str_eq(buf, "ab");
	ck_assert_int_eq(w.over, 1);
	ck_assert_int_eq(tw_strwriter_finish(&w), TW_E_TOOBIG);
	ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(test_empty_buffer)
{
	char buf[1] = { 'x' };
	struct tw_strwriter w;

	/* No room at all: even the empty string is too big for cap 0, and
	 * the buffer is never touched. */
	tw_strwriter_init(&w, buf, 0);
	tw_strwriter_puts(&w, "");
	ck_assert_int_eq(tw_strwriter_finish(&w), TW_E_TOOBIG);
	ck_assert_int_eq(buf[0], 'x');

	tw_strwriter_init(&w, NULL, 0);
	tw_strwriter_printf(&w, "%s", "");
	ck_assert_int_eq(tw_strwriter_finish(&w), TW_E_TOOBIG);

	/* One byte holds the empty string. */
	tw_strwriter_init(&w, buf, 1);
	tw_strwriter_puts(&w, "");
	ck_assert_int_eq(tw_strwriter_finish(&w), TW_OK);
	ck_assert_str_eq(buf, "");
}
END_TEST

static Suite *
strwriter_suite(void)
{
	Suite *s = suite_create("strwriter");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fits);
	tcase_add_test(tc, test_exact_fit);
	tcase_add_test(tc, test_overflow_sticks);
	tcase_add_test(tc, test_empty_buffer);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(strwriter_suite());
}
