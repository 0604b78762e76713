/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/threshold/perfdata.c: numbers and items. */
#include <float.h>
#include <locale.h>
#include <math.h>

#include "threshold/perfdata.h"
#include "threshold/range.h"
#include "tw_check.h"
#include "util/error.h"

static const char *
num(double v, unsigned precision)
{
	static char buf[400];

	ck_assert_int_eq(tw_perf_number(v, precision, buf, sizeof(buf)), TW_OK);
	return buf;
}

START_TEST(test_number)
{
	char small[5];

	ck_assert_str_eq(num(5.0, 0), "5");
	ck_assert_str_eq(num(-3, 0), "-3");
	ck_assert_str_eq(num(0, 0), "0");
	ck_assert_str_eq(num(-0.0, 0), "0");
	ck_assert_str_eq(num(2.5, 0), "2.5");
	ck_assert_str_eq(num(2.50, 2), "2.5");
	ck_assert_str_eq(num(0.004, 0), "0");
	ck_assert_str_eq(num(-0.001, 0), "0");
	ck_assert_str_eq(num(-0.005, 3), "-0.005");
	/* Half away from zero on exactly representable halves. */
	ck_assert_str_eq(num(1.25, 1), "1.3");
	ck_assert_str_eq(num(-1.25, 1), "-1.3");
	ck_assert_str_eq(num(0.125, 2), "0.13");
	/* Rounding carries into the whole part. */
	ck_assert_str_eq(num(0.999, 2), "1");
	ck_assert_str_eq(num(9.999, 0), "10");
	ck_assert_str_eq(num(-9.999, 0), "-10");
	ck_assert_str_eq(num(12.346, 0), "12.35");
	ck_assert_str_eq(num(1234567.891, 0), "1234567.89");
	ck_assert_str_eq(num(3.14159, 3), "3.142");
	ck_assert_str_eq(num(0.123456789, 9), "0.123456789");
	ck_assert_str_eq(num(1e20, 0), "100000000000000000000");
	ck_assert_str_eq(num(18446744073709551615.0, 0), "18446744073709551616");
	ck_assert_uint_eq(strlen(num(DBL_MAX, 0)), 309);
	ck_assert_uint_eq(strlen(num(-DBL_MAX, 9)), 310);

	ck_assert_int_eq(tw_perf_number(1, 10, small, sizeof(small)), TW_E_INVAL);
	ck_assert_int_eq(tw_perf_number(NAN, 0, small, sizeof(small)), TW_E_INVAL);
	ck_assert_int_eq(tw_perf_number(INFINITY, 0, small, sizeof(small)), TW_E_INVAL);
	ck_assert_int_eq(tw_perf_number(-INFINITY, 0, small, sizeof(small)), TW_E_INVAL);
	ck_assert_int_eq(tw_perf_number(1234, 0, small, sizeof(small)), TW_OK);
	ck_assert_str_eq(small, "1234");
	ck_assert_int_eq(tw_perf_number(12345, 0, small, sizeof(small)), TW_E_TOOBIG);
	ck_assert_str_eq(small, "");
	ck_assert_int_eq(tw_perf_number(-1.5, 0, small, sizeof(small)), TW_OK);
	ck_assert_str_eq(small, "-1.5");
	ck_assert_int_eq(tw_perf_number(-12.5, 0, small, sizeof(small)), TW_E_TOOBIG);
}
END_TEST

START_TEST(test_uom)
{
	static const char *const good[] = {
		"", "s", "ms", "us", "%", "B", "KB", "MB", "TB", "c",
	};
	static const char *const bad[] = {
		"GB", "b", "kB", "Kb", "%%", "ms ", " s", "S", "C", "ns", "iops", "KiB",
	};
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(tw_perf_uom_valid(good[i]), "'%s' is a UOM", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!tw_perf_uom_valid(bad[i]), "'%s' is not a UOM", bad[i]);
	ck_assert(tw_perf_uom_valid(NULL));
}
END_TEST

static const char *
item(const struct tw_perf *p)
{
	static char buf[1024];

	ck_assert_int_eq(tw_perf_format(p, buf, sizeof(buf)), TW_OK);
	return buf;
}

START_TEST(test_format)
{
	struct tw_range w, c, in, up;
	struct tw_perf p;

	ck_assert_int_eq(tw_range_parse("10", &w), TW_OK);
	ck_assert_int_eq(tw_range_parse("20", &c), TW_OK);
	ck_assert_int_eq(tw_range_parse("@10:20", &in), TW_OK);
	ck_assert_int_eq(tw_range_parse("~:5", &up), TW_OK);

	memset(&p, 0, sizeof(p));
	p.label = "sda r_await";
	p.value = 12.346;
	p.uom = "ms";
	p.warn = &w;
	p.crit = &c;
	p.has_min = 1;
	p.min = 0;
	ck_assert_str_eq(item(&p), "sda_r_await=12.35ms;10;20;0");
	p.has_max = 1;
	p.max = 1000;
	ck_assert_str_eq(item(&p), "sda_r_await=12.35ms;10;20;0;1000");

	/* Trailing empty fields are dropped, inner ones kept. */
	memset(&p, 0, sizeof(p));
	p.label = "x";
	p.value = 1;
	ck_assert_str_eq(item(&p), "x=1");
	p.warn = &w;
	ck_assert_str_eq(item(&p), "x=1;10");
	p.warn = NULL;
	p.crit = &c;
	ck_assert_str_eq(item(&p), "x=1;;20");
	p.crit = NULL;
	p.has_min = 1;
	ck_assert_str_eq(item(&p), "x=1;;;0");
	p.has_min = 0;
	p.has_max = 1;
	p.max = 100;
	ck_assert_str_eq(item(&p), "x=1;;;;100");
	p.has_max = 0;
	p.warn = &in;
	p.crit = &up;
	ck_assert_str_eq(item(&p), "x=1;@10:20;~:5");

	/* Precision applies to value, min and max. */
	memset(&p, 0, sizeof(p));
	p.label = "ratio";
	p.value = 0.123456;
	p.uom = "%";
	p.precision = 4;
	p.has_min = 1;
	p.min = 0.00001;
	p.has_max = 1;
	p.max = 99.99999;
	ck_assert_str_eq(item(&p), "ratio=0.1235%;;;0;100");

	/* A counter and a byte count. */
	memset(&p, 0, sizeof(p));
	p.label = "refaults";
	p.value = 152;
	p.uom = "c";
	ck_assert_str_eq(item(&p), "refaults=152c");
	p.label = "dirty";
	p.value = 1073741824;
	p.uom = "B";
	ck_assert_str_eq(item(&p), "dirty=1073741824B");
}
END_TEST

/* One alphabet for every label (threshold/perfdata.h): what graphers keep
 * as it is, so no label needs quotes and none has them. */
START_TEST(test_format_labels)
{
	static const struct {
		const char *label, *item;
	} cases[] = {
		{ "sda r_await", "sda_r_await=1" },
		{ "cpu1 backlog", "cpu1_backlog=1" },
		{ "softnet backlog", "softnet_backlog=1" },
		{ "high-order pages", "high-order_pages=1" },
		{ "vda aqu-sz", "vda_aqu-sz=1" },
		{ "nginx.service refaults", "nginx_service_refaults=1" },
		{ "/system.slice/nginx.service cache", "system_slice_nginx_service_cache=1" },
		{ "it's", "it_s=1" },
		{ "a=b", "a_b=1" },
		{ "a|b", "a_b=1" },
		{ "a  ''  ==b", "a_b=1" },
		{ "tab\there\n\x7f", "tab_here=1" },
		{ "x\\x0atune: sysctl", "x_x0atune_sysctl=1" },
		{ "caf\xc3\xa9 ;|", "caf=1" },
		{ "UPPER lower", "UPPER_lower=1" },
		{ "__x__", "__x__=1" },
	};
	struct tw_perf p;
	char buf[64];
	size_t i;

	memset(&p, 0, sizeof(p));
	p.value = 1;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p.label = cases[i].label;
		ck_assert_str_eq(item(&p), cases[i].item);
		ck_assert_int_eq(tw_perf_label(cases[i].label, buf, sizeof(buf)), TW_OK);
		ck_assert_uint_eq(strlen(buf), strcspn(cases[i].item, "="));
		ck_assert_uint_eq(strspn(buf, TW_PERF_LABEL_CHARS), strlen(buf));
	}
	/* Nothing of the alphabet, or nothing at all: no label. */
	p.label = "\xc3\xa9 ;|";
	ck_assert_int_eq(tw_perf_format(&p, buf, sizeof(buf)), TW_E_INVAL);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(tw_perf_label("' '", buf, sizeof(buf)), TW_E_INVAL);
	p.label = "";
	ck_assert_int_eq(tw_perf_format(&p, buf, sizeof(buf)), TW_E_INVAL);
	ck_assert_str_eq(buf, "");
	p.label = NULL;
	ck_assert_int_eq(tw_perf_format(&p, buf, sizeof(buf)), TW_E_INVAL);
	ck_assert_int_eq(tw_perf_label(NULL, buf, sizeof(buf)), TW_E_INVAL);
	/* Whole or not at all. */
	ck_assert_int_eq(tw_perf_label("sda r_await", buf, 12), TW_OK);
	ck_assert_str_eq(buf, "sda_r_await");
	ck_assert_int_eq(tw_perf_label("sda r_await", buf, 11), TW_E_TOOBIG);
	ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(test_format_errors)
{
	struct tw_range w;
	struct tw_perf p;
	char buf[64];

	ck_assert_int_eq(tw_range_parse("10", &w), TW_OK);
	memset(&p, 0, sizeof(p));
	p.label = "x";
	p.value = 1;

	p.uom = "GB";
	strcpy(buf, "junk");
	ck_assert_int_eq(tw_perf_format(&p, buf, sizeof(buf)), TW_E_INVAL);
	ck_assert_str_eq(buf, "");
	p.uom = "ms";

	/* Not measured: "U", without the UOM. */
	p.value = NAN;
	p.warn = &w;
	ck_assert_str_eq(item(&p), "x=U;10");
	p.value = INFINITY;
	ck_assert_int_eq(tw_perf_format(&p, buf, sizeof(buf)), TW_E_INVAL);
	p.value = 1;
	p.has_min = 1;
	p.min = NAN;
	ck_assert_int_eq(tw_perf_format(&p, buf, sizeof(buf)), TW_E_INVAL);
	p.has_min = 0;
	p.precision = 10;
	ck_assert_int_eq(tw_perf_format(&p, buf, sizeof(buf)), TW_E_INVAL);
	p.precision = 0;

	/* "x=1ms;10" is 8 bytes: it needs 9, and 8 is refused whole. */
	ck_assert_int_eq(tw_perf_format(&p, buf, 9), TW_OK);
	ck_assert_str_eq(buf, "x=1ms;10");
	ck_assert_int_eq(tw_perf_format(&p, buf, 8), TW_E_TOOBIG);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(tw_perf_format(&p, buf, 0), TW_E_TOOBIG);
}
END_TEST

START_TEST(test_locale)
{
	static const char *const names[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8" };
	struct tw_perf p;
	size_t i;
	int found = 0;

	for (i = 0; i < sizeof(names) / sizeof(names[0]) && !found; i++)
		found = setlocale(LC_ALL, names[i]) != NULL;
	if (!found) {
		fprintf(stderr, "check_perfdata: no de_DE/fr_FR locale, locale test skipped\n");
		return;
	}
	ck_assert_str_eq(localeconv()->decimal_point, ",");
	ck_assert_str_eq(num(2.5, 0), "2.5");
	ck_assert_str_eq(num(1234567.891, 0), "1234567.89");
	memset(&p, 0, sizeof(p));
	p.label = "x";
	p.value = 0.75;
	p.uom = "s";
	ck_assert_str_eq(item(&p), "x=0.75s");
	setlocale(LC_ALL, "C");
}
END_TEST

static Suite *
perfdata_suite(void)
{
	Suite *s = suite_create("perfdata");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_number);
	tcase_add_test(tc, test_uom);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_format_labels);
	tcase_add_test(tc, test_format_errors);
	tcase_add_test(tc, test_locale);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(perfdata_suite());
}
