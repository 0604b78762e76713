#include "config.h"

/* Unit tests for lib/plugin/perfdata.c: numbers, items and the output buffer. */
#include <float.h>
#include <locale.h>
#include <math.h>

#include "plugin/perfdata.h"
#include "plugin/range.h"
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
	ck_assert_str_eq(item(&p), "'sda r_await'=12.35ms;10;20;0");
	p.has_max = 1;
	p.max = 1000;
	ck_assert_str_eq(item(&p), "'sda r_await'=12.35ms;10;20;0;1000");

	/* Trailing empty fields are dropped, inner ones kept. */
	memset(&p, 0, sizeof(p));
	p.label = "x";
	p.value = 1;
	ck_assert_str_eq(item(&p), "'x'=1");
	p.warn = &w;
	ck_assert_str_eq(item(&p), "'x'=1;10");
	p.warn = NULL;
	p.crit = &c;
	ck_assert_str_eq(item(&p), "'x'=1;;20");
	p.crit = NULL;
	p.has_min = 1;
	ck_assert_str_eq(item(&p), "'x'=1;;;0");
	p.has_min = 0;
	p.has_max = 1;
	p.max = 100;
	ck_assert_str_eq(item(&p), "'x'=1;;;;100");
	p.has_max = 0;
	p.warn = &in;
	p.crit = &up;
	ck_assert_str_eq(item(&p), "'x'=1;@10:20;~:5");

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
	ck_assert_str_eq(item(&p), "'ratio'=0.1235%;;;0;100");

	/* A counter and a byte count. */
	memset(&p, 0, sizeof(p));
	p.label = "refaults";
	p.value = 152;
	p.uom = "c";
	ck_assert_str_eq(item(&p), "'refaults'=152c");
	p.label = "dirty";
	p.value = 1073741824;
	p.uom = "B";
	ck_assert_str_eq(item(&p), "'dirty'=1073741824B");
}
END_TEST

START_TEST(test_format_labels)
{
	struct tw_perf p;
	char buf[64];

	memset(&p, 0, sizeof(p));
	p.value = 1;
	p.label = "it's";
	ck_assert_str_eq(item(&p), "'it''s'=1");
	p.label = "''";
	ck_assert_str_eq(item(&p), "''''''=1");
	p.label = "a=b";
	ck_assert_str_eq(item(&p), "'a_b'=1");
	p.label = "tab\there\n\x7f";
	ck_assert_str_eq(item(&p), "'tab_here__'=1");
	p.label = "caf\xc3\xa9 ;|";
	ck_assert_str_eq(item(&p), "'caf\xc3\xa9 ;|'=1");

	p.label = "";
	ck_assert_int_eq(tw_perf_format(&p, buf, sizeof(buf)), TW_E_INVAL);
	ck_assert_str_eq(buf, "");
	p.label = NULL;
	ck_assert_int_eq(tw_perf_format(&p, buf, sizeof(buf)), TW_E_INVAL);
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
	ck_assert_str_eq(item(&p), "'x'=U;10");
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

	/* "'x'=1ms;10" is 10 bytes: it needs 11, and 10 is refused whole. */
	ck_assert_int_eq(tw_perf_format(&p, buf, 11), TW_OK);
	ck_assert_str_eq(buf, "'x'=1ms;10");
	ck_assert_int_eq(tw_perf_format(&p, buf, 10), TW_E_TOOBIG);
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
	ck_assert_str_eq(item(&p), "'x'=0.75s");
	setlocale(LC_ALL, "C");
}
END_TEST

static const char *
finish(struct tw_out *o, enum tw_state st)
{
	const char *text;
	size_t len;

	ck_assert_int_eq(tw_out_finish(o, st, &text, &len), TW_OK);
	ck_assert_uint_eq(len, strlen(text));
	return text;
}

START_TEST(test_out)
{
	struct tw_range w, c;
	struct tw_perf p;
	struct tw_out o;

	ck_assert_int_eq(tw_range_parse("90:", &w), TW_OK);
	ck_assert_int_eq(tw_range_parse("80:", &c), TW_OK);
	tw_out_init(&o, "BUFCACHE");
	ck_assert_int_eq(tw_out_printf(&o, "hit ratio %s%%", "97.5"), TW_OK);
	ck_assert_int_eq(tw_out_printf(&o, ", %d refaults/s", 12), TW_OK);
	memset(&p, 0, sizeof(p));
	p.label = "hit";
	p.value = 97.5;
	p.uom = "%";
	p.warn = &w;
	p.crit = &c;
	ck_assert_int_eq(tw_out_perf(&o, &p), TW_OK);
	memset(&p, 0, sizeof(p));
	p.label = "refaults";
	p.value = 12;
	p.uom = "c";
	ck_assert_int_eq(tw_out_perf(&o, &p), TW_OK);
	/* A bad item is refused and leaves the output as it was. */
	p.uom = "GB";
	ck_assert_int_eq(tw_out_perf(&o, &p), TW_E_INVAL);
	ck_assert_int_eq(tw_out_line(&o, "sda: %s", "read ahead 4096 KB"), TW_OK);
	ck_assert_int_eq(tw_out_line(&o, "sdb: ok"), TW_OK);
	ck_assert_str_eq(finish(&o, TW_STATE_OK),
	    "BUFCACHE OK - hit ratio 97.5%, 12 refaults/s | "
	    "'hit'=97.5%;90:;80: 'refaults'=12c\nsda: read ahead 4096 KB\nsdb: ok\n");
	/* finish() can be called again, with another state. */
	ck_assert_str_eq(finish(&o, TW_STATE_CRITICAL),
	    "BUFCACHE CRITICAL - hit ratio 97.5%, 12 refaults/s | "
	    "'hit'=97.5%;90:;80: 'refaults'=12c\nsda: read ahead 4096 KB\nsdb: ok\n");
	tw_out_free(&o);
}
END_TEST

START_TEST(test_out_shapes)
{
	struct tw_out o;
	struct tw_perf p;

	tw_out_init(&o, "DBLOCK");
	ck_assert_str_eq(finish(&o, TW_STATE_WARNING), "DBLOCK WARNING\n");
	ck_assert_str_eq(finish(&o, (enum tw_state)42), "DBLOCK UNKNOWN\n");
	memset(&p, 0, sizeof(p));
	p.label = "a";
	p.value = 1;
	ck_assert_int_eq(tw_out_perf(&o, &p), TW_OK);
	ck_assert_str_eq(finish(&o, TW_STATE_OK), "DBLOCK OK | 'a'=1\n");
	tw_out_free(&o);

	tw_out_init(&o, NULL);
	ck_assert_int_eq(tw_out_printf(&o, "no service"), TW_OK);
	ck_assert_str_eq(finish(&o, TW_STATE_CRITICAL), "CRITICAL - no service\n");
	tw_out_free(&o);

	/* '|' would start the perfdata; a newline would end the first line. */
	tw_out_init(&o, "");
	ck_assert_int_eq(tw_out_printf(&o, "a|b\nc\rd"), TW_OK);
	ck_assert_int_eq(tw_out_line(&o, "x|y"), TW_OK);
	ck_assert_int_eq(tw_out_line(&o, "two\nlines"), TW_OK);
	ck_assert_str_eq(finish(&o, TW_STATE_OK), "OK - a/b c d\nx/y\ntwo\nlines\n");
	tw_out_free(&o);
}
END_TEST

START_TEST(test_out_limit)
{
	struct tw_out o;
	struct tw_perf p;
	const char *t;
	char label[2] = "a";
	int i;

	tw_out_init(&o, "S");
	ck_assert_int_eq(tw_out_set_limit(&o, 10), TW_E_INVAL);
	ck_assert_int_eq(tw_out_set_limit(&o, 128), TW_OK);
	ck_assert_int_eq(tw_out_printf(&o, "summary"), TW_OK);
	memset(&p, 0, sizeof(p));
	p.label = label;
	for (i = 0; i < 10; i++) {
		label[0] = (char)('a' + i);
		p.value = 1000000 + i;
		ck_assert_int_eq(tw_out_perf(&o, &p), TW_OK);	/* 'a'=1000000: 11 bytes */
	}
	for (i = 0; i < 5; i++)	/* 25 bytes and a newline each */
		ck_assert_int_eq(tw_out_line(&o, "line %d of the long output", i), TW_OK);
	/*
	 * "S OK - summary" is 14 bytes, " | " 3, ten items 10 * 11 + 9 blanks
	 * = 119, newline 1: 137 already, so every long line goes, then one
	 * item: 14 + 3 + 9 * 11 + 8 + 1 = 125.
	 */
	t = finish(&o, TW_STATE_OK);
	ck_assert_str_eq(t, "S OK - summary | 'a'=1000000 'b'=1000001 'c'=1000002 "
	    "'d'=1000003 'e'=1000004 'f'=1000005 'g'=1000006 'h'=1000007 'i'=1000008\n");
	ck_assert_uint_eq(strlen(t), 125);

	/* Without a cap everything is kept. */
	ck_assert_int_eq(tw_out_set_limit(&o, 0), TW_OK);
	t = finish(&o, TW_STATE_OK);
	ck_assert_uint_eq(strlen(t), 137 + 5 * 26);
	ck_assert_str_eq(t + 137, "line 0 of the long output\nline 1 of the long output\n"
	    "line 2 of the long output\nline 3 of the long output\n"
	    "line 4 of the long output\n");
	tw_out_free(&o);

	/*
	 * A summary longer than the cap is cut, with "...", between UTF-8
	 * characters. "S WARNING - " is 12 bytes and "...\n" 4, so 112 bytes
	 * of summary fit; byte 112 is the middle of the e-acute after 111
	 * x's, so the cut falls before it: 12 + 111 + 4 = 127.
	 */
	tw_out_init(&o, "S");
	ck_assert_int_eq(tw_out_set_limit(&o, 128), TW_OK);
	for (i = 0; i < 111; i++)
		ck_assert_int_eq(tw_out_printf(&o, "x"), TW_OK);
	ck_assert_int_eq(tw_out_printf(&o, "\xc3\xa9tail"), TW_OK);
	ck_assert_int_eq(tw_out_line(&o, "gone"), TW_OK);
	t = finish(&o, TW_STATE_WARNING);
	ck_assert_uint_eq(strlen(t), 127);
	ck_assert(strncmp(t, "S WARNING - xxx", 15) == 0);
	ck_assert_str_eq(t + 122, "x...\n");
	ck_assert_ptr_null(strchr(t, '\xc3'));
	tw_out_free(&o);
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
	tcase_add_test(tc, test_out);
	tcase_add_test(tc, test_out_shapes);
	tcase_add_test(tc, test_out_limit);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(perfdata_suite());
}
