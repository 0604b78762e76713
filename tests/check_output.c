/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/checkio/output.c: a whole plugin output, its shapes,
 * its cap and its labels told apart. */
#include <stdint.h>

#include "checkio/output.h"
#include "threshold/range.h"
#include "tw_check.h"
#include "util/error.h"

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
	    "hit=97.5%;90:;80: refaults=12c\nsda: read ahead 4096 KB\nsdb: ok\n");
	/* finish() can be called again, with another state. */
	ck_assert_str_eq(finish(&o, TW_STATE_CRITICAL),
	    "BUFCACHE CRITICAL - hit ratio 97.5%, 12 refaults/s | "
	    "hit=97.5%;90:;80: refaults=12c\nsda: read ahead 4096 KB\nsdb: ok\n");
	tw_out_free(&o);
}
END_TEST

/* A figure's item as every check gives it: "NAME WHAT" or WHAT alone,
 * min 0, max 100 for a percentage, the precision asked for. */
START_TEST(test_out_figure)
{
	struct tw_range w;
	struct tw_out o;

	ck_assert_int_eq(tw_range_parse("20", &w), TW_OK);
	tw_out_init(&o, "DISKLATENCY");
	ck_assert_int_eq(tw_out_figure(&o, "sda", NULL, "r_await", 1.5, "ms", 3, &w, NULL, 0),
	    TW_OK);
	ck_assert_int_eq(tw_out_figure(&o, "sda", NULL, "util", 42, "%", 2, NULL, NULL, 1), TW_OK);
	ck_assert_int_eq(tw_out_figure(&o, NULL, NULL, "cached", 4096, "B", 0, NULL, NULL, 0),
	    TW_OK);
	ck_assert_str_eq(finish(&o, TW_STATE_OK),
	    "DISKLATENCY OK | sda_r_await=1.5ms;20;;0 sda_util=42%;;;0;100 cached=4096B;;;0\n");
	tw_out_free(&o);
}
END_TEST

/* A name too long for the label keeps its tail, where a cgroup's unit
 * is, and the figure's word whole; a subject tells two cgroups of one
 * label apart; a word that leaves no room is refused. */
START_TEST(test_out_figure_cut)
{
	char name[160], want[200], what[TW_OUT_FIGURE_LABEL];
	const char *text;
	struct tw_out o;

	name[0] = '/';
	memset(name + 1, 'a', 140);
	strcpy(name + 141, "/web.service");
	tw_out_init(&o, "BUFCACHE");
	ck_assert_int_eq(tw_out_figure(&o, name, "/x/web.service", "cache", 4096, "B", 0, NULL,
	    NULL, 0), TW_OK);
	/* "..." and the last 134 bytes: 143 with " cache"; the label's
	 * alphabet drops the leading dots. */
	strcpy(want, "BUFCACHE OK | ");
	memset(want + 14, 'a', 122);
	strcpy(want + 14 + 122, "_web_service_cache=4096B;;;0\n");
	ck_assert_str_eq(finish(&o, TW_STATE_OK), want);
	tw_out_free(&o);

	tw_out_init(&o, "BUFCACHE");
	ck_assert_int_eq(tw_out_figure(&o, "web.service", "/a/web.service", "refaults", 1, "", 0,
	    NULL, NULL, 0), TW_OK);
	ck_assert_int_eq(tw_out_figure(&o, "web.service", "/b/web.service", "refaults", 2, "", 0,
	    NULL, NULL, 0), TW_OK);
	text = finish(&o, TW_STATE_OK);
	ck_assert_ptr_null(strstr(text, "web_service_refaults="));
	ck_assert_ptr_nonnull(strstr(text, "web_service_refaults_"));
	memset(what, 'w', sizeof(what) - 4);
	what[sizeof(what) - 4] = '\0';
	ck_assert_int_eq(tw_out_figure(&o, "sda", NULL, what, 1, "", 0, NULL, NULL, 0),
	    TW_E_INVAL);
	ck_assert_str_eq(finish(&o, TW_STATE_OK), text);
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
	ck_assert_str_eq(finish(&o, TW_STATE_OK), "DBLOCK OK | a=1\n");
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
	char label[4] = "aaa";
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
		ck_assert_int_eq(tw_out_perf(&o, &p), TW_OK);	/* aaa=1000000: 11 bytes */
	}
	for (i = 0; i < 5; i++)	/* 25 bytes and a newline each */
		ck_assert_int_eq(tw_out_line(&o, "line %d of the long output", i), TW_OK);
	/*
	 * "S OK - summary" is 14 bytes, " | " 3, ten items 10 * 11 + 9 blanks
	 * = 119, newline 1: 137 already, so every long line goes, then one
	 * item: 14 + 3 + 9 * 11 + 8 + 1 = 125.
	 */
	t = finish(&o, TW_STATE_OK);
	ck_assert_str_eq(t, "S OK - summary | aaa=1000000 baa=1000001 caa=1000002 "
	    "daa=1000003 eaa=1000004 faa=1000005 gaa=1000006 haa=1000007 iaa=1000008\n");
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

/* Lines are cut by group (a line and the indented lines under it, such as
 * a finding's apply and persist lines), and the cut is said. */
START_TEST(test_out_limit_groups)
{
	struct tw_out o;
	const char *t;
	int i;

	tw_out_init(&o, "S");
	ck_assert_int_eq(tw_out_set_limit(&o, 133), TW_OK);
	ck_assert_int_eq(tw_out_printf(&o, "sum"), TW_OK);
	for (i = 1; i <= 3; i++) {
		tw_out_line(&o, "tune: %d", i);
		tw_out_line(&o, "  finding: %d", i);
		tw_out_line(&o, "  apply: %d", i);
		tw_out_line(&o, "  persist: %d", i);
	}
	/*
	 * "S OK - sum\n" is 11 bytes, each group 8 + 13 + 11 + 13 = 45, the
	 * note 60: 11 + 45 + 60 = 116. A second "tune: 2" line would still
	 * fit (124), but not without the lines under it, so it goes too.
	 */
	t = finish(&o, TW_STATE_OK);
	ck_assert_str_eq(t, "S OK - sum\ntune: 1\n  finding: 1\n  apply: 1\n  persist: 1\n"
	    "(8 more lines left out to keep the output within 133 bytes)\n");
	ck_assert_uint_le(strlen(t), 133);
	tw_out_free(&o);
}
END_TEST

/* FNV-1a, 32 bits, as the suffix's six hex digits are its low 24. */
static unsigned
fnv24(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h & 0xffffffu;
}

static void
perf_of(struct tw_out *o, const char *label, const char *subject, double v)
{
	struct tw_perf p;

	memset(&p, 0, sizeof(p));
	p.label = label;
	p.subject = subject;
	p.value = v;
	ck_assert_int_eq(tw_out_perf(o, &p), TW_OK);
}

/* Two subjects whose labels come out alike get each a suffix of its
 * subject; a label that no other subject shares keeps its own, and so do
 * two figures of one subject. */
START_TEST(test_out_labels_apart)
{
	struct tw_out o;
	char want[512];

	tw_out_init(&o, "BUFCACHE");
	perf_of(&o, "web.service refaults", "/twvictim/web.service", 1);
	perf_of(&o, "web.service cache", "/twvictim/web.service", 2);
	perf_of(&o, "web.service refaults", "/twhostile/web.service", 3);
	perf_of(&o, "web.service cache", "/twhostile/web.service", 4);
	perf_of(&o, "db.service refaults", "/system.slice/db.service", 5);
	/* No subject: the label is its own, and "a b" and "a_b" differ. */
	perf_of(&o, "a b", NULL, 6);
	perf_of(&o, "a_b", NULL, 7);
	snprintf(want, sizeof(want), "BUFCACHE OK | web_service_refaults_%06x=1 "
	    "web_service_cache_%06x=2 web_service_refaults_%06x=3 web_service_cache_%06x=4 "
	    "db_service_refaults=5 a_b_%06x=6 a_b_%06x=7\n",
	    fnv24("/twvictim/web.service"), fnv24("/twvictim/web.service"),
	    fnv24("/twhostile/web.service"), fnv24("/twhostile/web.service"),
	    fnv24("a b"), fnv24("a_b"));
	ck_assert_str_eq(finish(&o, TW_STATE_OK), want);
	/* Finished again, it says the same. */
	ck_assert_str_eq(finish(&o, TW_STATE_OK), want);
	tw_out_free(&o);

	/* The same subject twice under one label is one series: no suffix. */
	tw_out_init(&o, "X");
	perf_of(&o, "x", "s", 1);
	perf_of(&o, "x", "s", 2);
	ck_assert_str_eq(finish(&o, TW_STATE_OK), "X OK | x=1 x=2\n");
	tw_out_free(&o);
}
END_TEST

static Suite *
output_suite(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_out);
	tcase_add_test(tc, test_out_figure);
	tcase_add_test(tc, test_out_figure_cut);
	tcase_add_test(tc, test_out_shapes);
	tcase_add_test(tc, test_out_limit);
	tcase_add_test(tc, test_out_limit_groups);
	tcase_add_test(tc, test_out_labels_apart);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(output_suite());
}
