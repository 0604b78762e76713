/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/threshold/state.c. */
#include <locale.h>

#include "threshold/state.h"
#include "tw_check.h"
#include "util/error.h"

START_TEST(test_names)
{
	ck_assert_str_eq(tw_state_name(TW_STATE_OK), "OK");
	ck_assert_str_eq(tw_state_name(TW_STATE_WARNING), "WARNING");
	ck_assert_str_eq(tw_state_name(TW_STATE_CRITICAL), "CRITICAL");
	ck_assert_str_eq(tw_state_name(TW_STATE_UNKNOWN), "UNKNOWN");
	/* A corrupt state never reads as a healthy one. */
	ck_assert_str_eq(tw_state_name((enum tw_state)7), "UNKNOWN");
	ck_assert_str_eq(tw_state_name((enum tw_state)-1), "UNKNOWN");
	ck_assert_int_eq(TW_STATE_OK, 0);
	ck_assert_int_eq(TW_STATE_WARNING, 1);
	ck_assert_int_eq(TW_STATE_CRITICAL, 2);
	ck_assert_int_eq(TW_STATE_UNKNOWN, 3);
}
END_TEST

START_TEST(test_parse)
{
	enum tw_state st = TW_STATE_OK;

	ck_assert_int_eq(tw_state_parse("warning", &st), TW_OK);
	ck_assert_int_eq(st, TW_STATE_WARNING);
	ck_assert_int_eq(tw_state_parse("CRITICAL", &st), TW_OK);
	ck_assert_int_eq(st, TW_STATE_CRITICAL);
	ck_assert_int_eq(tw_state_parse("Unknown", &st), TW_OK);
	ck_assert_int_eq(st, TW_STATE_UNKNOWN);
	ck_assert_int_eq(tw_state_parse("ok", &st), TW_OK);
	ck_assert_int_eq(st, TW_STATE_OK);
	ck_assert_int_eq(tw_state_parse("3", &st), TW_OK);
	ck_assert_int_eq(st, TW_STATE_UNKNOWN);
	ck_assert_int_eq(tw_state_parse("1", &st), TW_OK);
	ck_assert_int_eq(st, TW_STATE_WARNING);
	ck_assert_int_eq(tw_state_parse("0", &st), TW_OK);
	ck_assert_int_eq(st, TW_STATE_OK);
}
END_TEST

START_TEST(test_parse_rejects)
{
	enum tw_state st = TW_STATE_CRITICAL;

	ck_assert_int_eq(tw_state_parse("4", &st), TW_E_INVAL);
	ck_assert_int_eq(tw_state_parse("01", &st), TW_E_INVAL);
	ck_assert_int_eq(tw_state_parse("-1", &st), TW_E_INVAL);
	ck_assert_int_eq(tw_state_parse("", &st), TW_E_INVAL);
	ck_assert_int_eq(tw_state_parse("warn", &st), TW_E_INVAL);
	ck_assert_int_eq(tw_state_parse("warnings", &st), TW_E_INVAL);
	ck_assert_int_eq(tw_state_parse(" ok", &st), TW_E_INVAL);
	ck_assert_int_eq(tw_state_parse(NULL, &st), TW_E_INVAL);
	/* Left alone on error. */
	ck_assert_int_eq(st, TW_STATE_CRITICAL);
}
END_TEST

START_TEST(test_worst)
{
	/* OK < UNKNOWN < WARNING < CRITICAL, in both argument orders. */
	static const enum tw_state order[] = {
		TW_STATE_OK, TW_STATE_UNKNOWN, TW_STATE_WARNING, TW_STATE_CRITICAL,
	};
	size_t i, j;

	for (i = 0; i < 4; i++) {
		for (j = 0; j < 4; j++) {
			enum tw_state want = order[i > j ? i : j];

			ck_assert_int_eq(tw_state_worst(order[i], order[j]), want);
		}
	}
	ck_assert_int_eq(tw_state_worst(TW_STATE_CRITICAL, TW_STATE_UNKNOWN), TW_STATE_CRITICAL);
	ck_assert_int_eq(tw_state_worst(TW_STATE_UNKNOWN, TW_STATE_WARNING), TW_STATE_WARNING);
	ck_assert_int_eq(tw_state_worst(TW_STATE_OK, TW_STATE_UNKNOWN), TW_STATE_UNKNOWN);
	ck_assert_int_eq(tw_state_worst((enum tw_state)9, TW_STATE_OK), TW_STATE_UNKNOWN);
	ck_assert_int_eq(tw_state_worst((enum tw_state)9, TW_STATE_WARNING), TW_STATE_WARNING);
}
END_TEST

/* In a Turkish locale "i" and "I" are not each other's case: parsing must
 * not follow the locale. Only run where the locale exists. */
START_TEST(test_turkish_locale)
{
	static const char *const names[] = { "tr_TR.ISO-8859-9", "tr_TR.iso88599", "tr_TR.UTF-8" };
	enum tw_state st = TW_STATE_OK;
	size_t i;
	int found = 0;

	for (i = 0; i < sizeof(names) / sizeof(names[0]) && !found; i++)
		found = setlocale(LC_ALL, names[i]) != NULL;
	if (!found) {
		fprintf(stderr, "check_state: no tr_TR locale, locale test skipped\n");
		return;
	}
	ck_assert_int_eq(tw_state_parse("warning", &st), TW_OK);
	ck_assert_int_eq(st, TW_STATE_WARNING);
	ck_assert_int_eq(tw_state_parse("critical", &st), TW_OK);
	ck_assert_int_eq(st, TW_STATE_CRITICAL);
	ck_assert_int_eq(tw_state_parse("UNKNOWN", &st), TW_OK);
	ck_assert_int_eq(st, TW_STATE_UNKNOWN);
	setlocale(LC_ALL, "C");
}
END_TEST

static Suite *
state_suite(void)
{
	Suite *s = suite_create("state");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_parse_rejects);
	tcase_add_test(tc, test_worst);
	tcase_add_test(tc, test_turkish_locale);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(state_suite());
}
