/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/threshold/range.c and threshold.c: the guidelines' table,
 * strict parsing, the canonical text, locale independence, and thresholds
 * that are not set. */
#include <locale.h>
#include <math.h>

#include "threshold/range.h"
#include "threshold/threshold.h"
#include "tw_check.h"
#include "util/error.h"

static struct tw_range
parsed(const char *text)
{
	struct tw_range r;

	ck_assert_msg(tw_range_parse(text, &r) == TW_OK, "'%s' should parse", text);
	return r;
}

START_TEST(test_forms)
{
	struct tw_range r;

	r = parsed("10");
	ck_assert(r.start == 0 && r.end == 10);
	ck_assert(!r.start_inf && !r.end_inf && !r.inside);
	ck_assert_str_eq(r.text, "10");

	r = parsed("10:");
	ck_assert(r.start == 10 && !r.start_inf && r.end_inf && !r.inside);
	ck_assert_str_eq(r.text, "10:");

	r = parsed("~:10");
	ck_assert(r.start_inf && !r.end_inf && r.end == 10 && !r.inside);
	ck_assert_str_eq(r.text, "~:10");

	r = parsed("10:20");
	ck_assert(r.start == 10 && r.end == 20 && !r.inside);
	ck_assert_str_eq(r.text, "10:20");

	r = parsed("@10:20");
	ck_assert(r.start == 10 && r.end == 20 && r.inside);
	ck_assert_str_eq(r.text, "@10:20");

	r = parsed("~:");
	ck_assert(r.start_inf && r.end_inf && !r.inside);
	ck_assert_str_eq(r.text, "~:");

	r = parsed("-5:-2.5");
	ck_assert(r.start == -5 && r.end == -2.5);
	ck_assert_str_eq(r.text, "-5:-2.5");
}
END_TEST

/* The guidelines' table, endpoints included. */
START_TEST(test_alerts_table)
{
	struct tw_range r;

	r = parsed("10");		/* < 0 or > 10 */
	ck_assert_int_eq(tw_range_alerts(&r, -0.001), 1);
	ck_assert_int_eq(tw_range_alerts(&r, 0), 0);
	ck_assert_int_eq(tw_range_alerts(&r, 5), 0);
	ck_assert_int_eq(tw_range_alerts(&r, 10), 0);
	ck_assert_int_eq(tw_range_alerts(&r, 10.001), 1);

	r = parsed("10:");		/* < 10 */
	ck_assert_int_eq(tw_range_alerts(&r, 9.999), 1);
	ck_assert_int_eq(tw_range_alerts(&r, 10), 0);
	ck_assert_int_eq(tw_range_alerts(&r, 1e300), 0);

	r = parsed("~:10");		/* > 10 */
	ck_assert_int_eq(tw_range_alerts(&r, -1e300), 0);
	ck_assert_int_eq(tw_range_alerts(&r, 10), 0);
	ck_assert_int_eq(tw_range_alerts(&r, 10.5), 1);

	r = parsed("10:20");		/* < 10 or > 20 */
	ck_assert_int_eq(tw_range_alerts(&r, 9), 1);
	ck_assert_int_eq(tw_range_alerts(&r, 10), 0);
	ck_assert_int_eq(tw_range_alerts(&r, 20), 0);
	ck_assert_int_eq(tw_range_alerts(&r, 21), 1);

	r = parsed("@10:20");		/* >= 10 and <= 20 */
	ck_assert_int_eq(tw_range_alerts(&r, 9.99), 0);
	ck_assert_int_eq(tw_range_alerts(&r, 10), 1);
	ck_assert_int_eq(tw_range_alerts(&r, 15), 1);
	ck_assert_int_eq(tw_range_alerts(&r, 20), 1);
	ck_assert_int_eq(tw_range_alerts(&r, 20.01), 0);

	r = parsed("~:");		/* never */
	ck_assert_int_eq(tw_range_alerts(&r, -1e300), 0);
	ck_assert_int_eq(tw_range_alerts(&r, 0), 0);
	ck_assert_int_eq(tw_range_alerts(&r, 1e300), 0);

	r = parsed("@~:");		/* always */
	ck_assert_int_eq(tw_range_alerts(&r, -1e300), 1);
	ck_assert_int_eq(tw_range_alerts(&r, 1e300), 1);

	r = parsed("@5");		/* inside 0..5 */
	ck_assert_int_eq(tw_range_alerts(&r, 0), 1);
	ck_assert_int_eq(tw_range_alerts(&r, 5), 1);
	ck_assert_int_eq(tw_range_alerts(&r, 5.5), 0);
	ck_assert_int_eq(tw_range_alerts(&r, -1), 0);

	r = parsed("-5:-2.5");
	ck_assert_int_eq(tw_range_alerts(&r, -5), 0);
	ck_assert_int_eq(tw_range_alerts(&r, -5.01), 1);
	ck_assert_int_eq(tw_range_alerts(&r, -2.5), 0);
	ck_assert_int_eq(tw_range_alerts(&r, -2.4), 1);

	/* A value that could not be computed must not pass. */
	r = parsed("~:");
	ck_assert_int_eq(tw_range_alerts(&r, NAN), 1);
}
END_TEST

/* Endpoints are the same double the compiler makes of the literal, so a
 * value equal to the threshold is on the boundary, not past it. */
START_TEST(test_exact_values)
{
	struct tw_range r;

	r = parsed("12.34");
	ck_assert(r.end == 12.34);
	ck_assert_int_eq(tw_range_alerts(&r, 12.34), 0);
	r = parsed("0.1:0.3");
	ck_assert(r.start == 0.1 && r.end == 0.3);
	ck_assert_int_eq(tw_range_alerts(&r, 0.1), 0);
	ck_assert_int_eq(tw_range_alerts(&r, 0.1 + 0.2), 1);	/* 0.30000000000000004 */
	r = parsed("9007199254740993");		/* 2^53 + 1 rounds to even */
	ck_assert(r.end == 9007199254740992.0);
	r = parsed("123456789012345678901234567890");
	ck_assert(r.end == 123456789012345678901234567890.0);
	r = parsed("0.000000000000000000000000000001");
	ck_assert(r.end == 1e-30);
	r = parsed("-0.5:");
	ck_assert(r.start == -0.5);
}
END_TEST

START_TEST(test_canonical_text)
{
	ck_assert_str_eq(parsed("007.50").text, "7.5");
	ck_assert_str_eq(parsed("0:10").text, "10");
	ck_assert_str_eq(parsed("@0:10").text, "@10");
	ck_assert_str_eq(parsed("@10").text, "@10");
	ck_assert_str_eq(parsed("-0:5").text, "5");
	ck_assert_str_eq(parsed("-0.00").text, "0");
	ck_assert_str_eq(parsed("00:").text, "0:");
	ck_assert_str_eq(parsed("@~:").text, "@~:");
	ck_assert_str_eq(parsed("-010.100:-0.0").text, "-10.1:0");
	ck_assert_str_eq(parsed("1.0:2.000").text, "1:2");
}
END_TEST

START_TEST(test_invalid)
{
	static const char *const bad[] = {
		"", "@", ":", "@:", ":10", "~", "@~", "10:~", "~10", "~:~",
		"10:5", "@20:10", "-1:-2",
		"1e3", "1E3", "1e-3", "0x10", "0X1A", "nan", "NaN", "inf", "-inf",
		"infinity", "~:inf", "+5", ".5", "5.", "-.5", "-", "--5", "5..0",
		"1.2.3", "1,5", "10 ", " 10", "10: 20", "10:20x", "1:2:3", "@@10",
		"10@", "1_000", "\t5", "5\n", "٣",
		/* 64 bytes: one over the limit. */
		"1234567890123456789012345678901234567890123456789012345678901234",
	};
	struct tw_range r;
	size_t i;

	memset(&r, 0x5a, sizeof(r));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(tw_range_parse(bad[i], &r) == TW_E_INVAL,
		    "'%s' should be invalid", bad[i]);
	ck_assert_int_eq(tw_range_parse(NULL, &r), TW_E_INVAL);
	/* Untouched on error. */
	ck_assert_int_eq(((unsigned char *)&r)[0], 0x5a);
	/* 63 bytes is accepted. */
	ck_assert_int_eq(tw_range_parse(
	    "123456789012345678901234567890123456789012345678901234567890123", &r), TW_OK);
}
END_TEST

START_TEST(test_state)
{
	struct tw_range w = parsed("10"), c = parsed("20"), in = parsed("@0:100"),
	    low = parsed("50");

	ck_assert_int_eq(tw_range_state(5, &w, &c), TW_STATE_OK);
	ck_assert_int_eq(tw_range_state(10, &w, &c), TW_STATE_OK);
	ck_assert_int_eq(tw_range_state(15, &w, &c), TW_STATE_WARNING);
	ck_assert_int_eq(tw_range_state(20, &w, &c), TW_STATE_WARNING);
	ck_assert_int_eq(tw_range_state(25, &w, &c), TW_STATE_CRITICAL);
	ck_assert_int_eq(tw_range_state(-1, &w, &c), TW_STATE_CRITICAL);
	ck_assert_int_eq(tw_range_state(NAN, &w, &c), TW_STATE_UNKNOWN);
	ck_assert_int_eq(tw_range_state(25, NULL, NULL), TW_STATE_OK);
	ck_assert_int_eq(tw_range_state(15, &w, NULL), TW_STATE_WARNING);
	ck_assert_int_eq(tw_range_state(25, NULL, &c), TW_STATE_CRITICAL);
	/* In both ranges: critical wins. */
	ck_assert_int_eq(tw_range_state(60, &in, &low), TW_STATE_CRITICAL);
	ck_assert_int_eq(tw_range_state(40, &in, &low), TW_STATE_WARNING);
}
END_TEST

START_TEST(test_perfdata)
{
	struct tw_range r;
	char out[64];

	r = parsed("10");
	ck_assert_int_eq(tw_range_perfdata(&r, out, sizeof(out)), TW_OK);
	ck_assert_str_eq(out, "10");
	r = parsed("0:10.50");
	ck_assert_int_eq(tw_range_perfdata(&r, out, sizeof(out)), TW_OK);
	ck_assert_str_eq(out, "10.5");
	r = parsed("10:");
	ck_assert_int_eq(tw_range_perfdata(&r, out, sizeof(out)), TW_OK);
	ck_assert_str_eq(out, "10:");
	r = parsed("~:10");
	ck_assert_int_eq(tw_range_perfdata(&r, out, sizeof(out)), TW_OK);
	ck_assert_str_eq(out, "~:10");
	r = parsed("@10:20");
	ck_assert_int_eq(tw_range_perfdata(&r, out, sizeof(out)), TW_OK);
	ck_assert_str_eq(out, "@10:20");
	r = parsed("@10");
	ck_assert_int_eq(tw_range_perfdata(&r, out, sizeof(out)), TW_OK);
	ck_assert_str_eq(out, "@10");
	/* Too small: nothing rather than a cut range. */
	ck_assert_int_eq(tw_range_perfdata(&r, out, 3), TW_E_TOOBIG);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(tw_range_perfdata(&r, out, 4), TW_OK);
	ck_assert_str_eq(out, "@10");
	ck_assert_int_eq(tw_range_perfdata(&r, out, 0), TW_E_TOOBIG);
}
END_TEST

/* Under a locale whose decimal separator is ',' a threshold still means
 * the same. The locale is only there when the system (or LOCPATH) has it. */
START_TEST(test_locale)
{
	static const char *const names[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8" };
	struct tw_range r;
	size_t i;
	int found = 0;

	for (i = 0; i < sizeof(names) / sizeof(names[0]) && !found; i++)
		found = setlocale(LC_ALL, names[i]) != NULL;
	if (!found) {
		fprintf(stderr, "check_range: no de_DE/fr_FR locale, locale test skipped\n");
		return;
	}
	ck_assert_str_eq(localeconv()->decimal_point, ",");
	ck_assert_int_eq(tw_range_parse("12.5", &r), TW_OK);
	ck_assert(r.end == 12.5);
	ck_assert_str_eq(r.text, "12.5");
	ck_assert_int_eq(tw_range_parse("12,5", &r), TW_E_INVAL);
	ck_assert_int_eq(tw_range_parse("0.25:0.75", &r), TW_OK);
	ck_assert(r.start == 0.25 && r.end == 0.75);
	setlocale(LC_ALL, "C");
}
END_TEST

/* A threshold is a range that may be unset: unset never alerts, whatever
 * the value, and a failed parse leaves the threshold as it was. */
START_TEST(test_threshold)
{
	struct tw_threshold w, c, none;

	memset(&w, 0, sizeof(w));
	memset(&c, 0, sizeof(c));
	memset(&none, 0, sizeof(none));
	ck_assert_ptr_null(tw_threshold_range(&none));
	ck_assert_ptr_null(tw_threshold_range(NULL));
	ck_assert_int_eq(tw_threshold_state(1e9, &none, &none), TW_STATE_OK);
	ck_assert_int_eq(tw_threshold_state(-1e9, NULL, NULL), TW_STATE_OK);

	ck_assert_int_eq(tw_threshold_parse(&w, "90:"), TW_OK);
	ck_assert_int_eq(w.set, 1);
	ck_assert_ptr_eq(tw_threshold_range(&w), &w.range);
	ck_assert_str_eq(w.range.text, "90:");
	ck_assert_int_eq(tw_threshold_parse(&c, "80:"), TW_OK);
	ck_assert_int_eq(tw_threshold_state(95, &w, &c), TW_STATE_OK);
	ck_assert_int_eq(tw_threshold_state(85, &w, &c), TW_STATE_WARNING);
	ck_assert_int_eq(tw_threshold_state(75, &w, &c), TW_STATE_CRITICAL);
	ck_assert_int_eq(tw_threshold_state(75, &w, &none), TW_STATE_WARNING);
	ck_assert_int_eq(tw_threshold_state(75, &none, &c), TW_STATE_CRITICAL);

	ck_assert_int_eq(tw_threshold_parse(&w, "x"), TW_E_INVAL);
	ck_assert_int_eq(w.set, 1);
	ck_assert_str_eq(w.range.text, "90:");
	ck_assert_int_eq(tw_threshold_parse(&none, ""), TW_E_INVAL);
	ck_assert_int_eq(none.set, 0);
}
END_TEST

static Suite *
range_suite(void)
{
	Suite *s = suite_create("range");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_forms);
	tcase_add_test(tc, test_alerts_table);
	tcase_add_test(tc, test_exact_values);
	tcase_add_test(tc, test_canonical_text);
	tcase_add_test(tc, test_invalid);
	tcase_add_test(tc, test_state);
	tcase_add_test(tc, test_perfdata);
	tcase_add_test(tc, test_locale);
	tcase_add_test(tc, test_threshold);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(range_suite());
}
