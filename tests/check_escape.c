/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/util/escape.c: the names an unprivileged user can
 * choose, as the kernel hands them over, and their shown form; cuts at
 * every length; tidy on shown, cut and foreign strings; the way back. */
#include "tw_check.h"
#include "util/error.h"
#include "util/escape.h"

static const char *
esc(const char *raw, size_t len)
{
	static char buf[1024];

	ck_assert_int_eq(tw_escape(buf, sizeof(buf), raw, len), TW_OK);
	return buf;
}

#define ESC(lit) esc((lit), sizeof(lit) - 1)

START_TEST(test_plain_stays)
{
	ck_assert_str_eq(ESC("nginx.service"), "nginx.service");
	ck_assert_str_eq(ESC("/system.slice/a b;c|d'e=f"), "/system.slice/a b;c|d'e=f");
	ck_assert_str_eq(ESC(""), "");
	/* Valid UTF-8 of two, three and four bytes. */
	ck_assert_str_eq(ESC("r\xc3\xa4ume \xe2\x82\xac \xf0\x9f\x90\xa7"),
	    "r\xc3\xa4ume \xe2\x82\xac \xf0\x9f\x90\xa7");
}
END_TEST

START_TEST(test_forged_comms)
{
	/* The comms of the report, set with prctl(PR_SET_NAME). */
	ck_assert_str_eq(ESC("\n  apply: id;#"), "\\x0a  apply: id;#");
	ck_assert_str_eq(ESC("x\ntune: sysctl"), "x\\x0atune: sysctl");
	ck_assert_str_eq(ESC("ok\rBUFCACHE OK"), "ok\\x0dBUFCACHE OK");
	ck_assert_str_eq(ESC("\x1b[2J"), "\\x1b[2J");
	ck_assert_str_eq(ESC("a\xff" "b"), "a\\xffb");
	ck_assert_str_eq(ESC("tab\there\x7f"), "tab\\x09here\\x7f");
	ck_assert_str_eq(ESC("nul\0in"), "nul\\x00in");
}
END_TEST

START_TEST(test_backslash)
{
	/* systemd's own escape, and a forged one: both shown as what they
	 * are, so that no shown \xNN can be taken for a raw byte. */
	ck_assert_str_eq(ESC("user\\x2dsvc.service"), "user\\x5cx2dsvc.service");
	ck_assert_str_eq(ESC("\\"), "\\x5c");
	ck_assert_str_eq(ESC("\\x0a"), "\\x5cx0a");
}
END_TEST

START_TEST(test_not_utf8)
{
	/* Overlong forms, surrogates, past U+10FFFF, lone continuation and
	 * lead bytes, a sequence cut by the end: every byte escaped. */
	ck_assert_str_eq(ESC("\xc0\xaf"), "\\xc0\\xaf");
	ck_assert_str_eq(ESC("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");
	ck_assert_str_eq(ESC("\xed\xa0\x80"), "\\xed\\xa0\\x80");
	ck_assert_str_eq(ESC("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
	ck_assert_str_eq(ESC("\xf5\x80\x80\x80"), "\\xf5\\x80\\x80\\x80");
	ck_assert_str_eq(ESC("\x80x"), "\\x80x");
	ck_assert_str_eq(ESC("\xe2\x82"), "\\xe2\\x82");
	ck_assert_str_eq(ESC("\xc3"), "\\xc3");
	/* The largest and smallest of each length stay. */
	ck_assert_str_eq(ESC("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");
	ck_assert_str_eq(ESC("\xf0\x90\x80\x80"), "\xf0\x90\x80\x80");
	ck_assert_str_eq(ESC("\xe0\xa0\x80"), "\xe0\xa0\x80");
	ck_assert_str_eq(ESC("\xc2\xa0"), "\xc2\xa0");
}
END_TEST

START_TEST(test_unsafe_characters)
{
	/* C1 controls (NEL, CSI), the line and paragraph separators that
	 * str.splitlines() breaks at, and a right-to-left override. */
	ck_assert_str_eq(ESC("a\xc2\x85" "b"), "a\\xc2\\x85b");
	ck_assert_str_eq(ESC("\xc2\x9b" "2J"), "\\xc2\\x9b2J");
	ck_assert_str_eq(ESC("a\xe2\x80\xa8" "b\xe2\x80\xa9"), "a\\xe2\\x80\\xa8b\\xe2\\x80\\xa9");
	ck_assert_str_eq(ESC("\xe2\x80\xae" "cod.exe"), "\\xe2\\x80\\xaecod.exe");
	ck_assert_str_eq(ESC("\xe2\x81\xa6" "x"), "\\xe2\\x81\\xa6x");
	/* Their neighbours stay. */
	ck_assert_str_eq(ESC("\xe2\x80\xa7\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa"),
	    "\xe2\x80\xa7\xe2\x80\xaf\xe2\x81\xa5\xe2\x81\xaa");
}
END_TEST

/* The length of the unit of a shown string at s. */
static size_t
unit_len(const char *s)
{
	unsigned char c = (unsigned char)s[0];

	if (c == '\\')
		return 4;
	return c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
}

/* Whether cut is a prefix of whole units of the shown string whole. */
static int
unit_prefix(const char *whole, const char *cut)
{
	size_t n = strlen(cut), i = 0;

	if (strncmp(whole, cut, n) != 0)
		return 0;
	while (i < n)
		i += unit_len(whole + i);
	return i == n;
}

START_TEST(test_every_cut)
{
	static const char raw[] = "a\n\xc3\xa4\\\xff\xe2\x82\xac" "b\x1b\xf0\x9f\x90\xa7";
	char whole[128], buf[128], tidied[128];
	size_t cap;

	ck_assert_int_eq(tw_escape(whole, sizeof(whole), raw, sizeof(raw) - 1), TW_OK);
	ck_assert_str_eq(whole,
	    "a\\x0a\xc3\xa4\\x5c\\xff\xe2\x82\xac" "b\\x1b\xf0\x9f\x90\xa7");
	for (cap = 1; cap <= strlen(whole) + 1; cap++) {
		int rc = tw_escape(buf, cap, raw, sizeof(raw) - 1);
		size_t n = strlen(buf);

		ck_assert_int_eq(rc, cap == strlen(whole) + 1 ? TW_OK : TW_E_TOOBIG);
		ck_assert_uint_lt(n, cap);
		ck_assert_msg(unit_prefix(whole, buf), "cap %zu: \"%s\" is not whole units", cap,
		    buf);
		/* The longest such prefix: the next unit would not have fitted. */
		if (rc == TW_E_TOOBIG)
			ck_assert_uint_gt(n + unit_len(whole + n), cap - 1);
		/* Tidy cuts the shown string at the same place. */
		ck_assert_int_eq(tw_escape_tidy(tidied, cap, whole, strlen(whole)), rc);
		ck_assert_str_eq(tidied, buf);
	}
	ck_assert_int_eq(tw_escape(NULL, 4, "a", 1), TW_E_INVAL);
	ck_assert_int_eq(tw_escape(buf, 0, "a", 1), TW_E_INVAL);
	ck_assert_int_eq(tw_escape_str(buf, 4, NULL), TW_OK);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(tw_escape_str(buf, 3, "ab\n"), TW_E_TOOBIG);
	ck_assert_str_eq(buf, "ab");
}
END_TEST

START_TEST(test_size_bound)
{
	char raw[64], buf[TW_ESCAPE_SIZE(64)];
	size_t i;

	for (i = 0; i < sizeof(raw); i++)
		raw[i] = (char)(0x80 + i);
	ck_assert_int_eq(tw_escape(buf, sizeof(buf), raw, sizeof(raw)), TW_OK);
	ck_assert_uint_eq(strlen(buf), 4 * sizeof(raw));
	ck_assert_int_eq(tw_escape(buf, sizeof(buf) - 1, raw, sizeof(raw)), TW_E_TOOBIG);
	ck_assert_uint_eq(strlen(buf), 4 * (sizeof(raw) - 1));
}
END_TEST

static const char *
tidy(const char *s)
{
	static char buf[256];

	ck_assert_int_eq(tw_escape_copy(buf, sizeof(buf), s), TW_OK);
	return buf;
}

START_TEST(test_tidy)
{
	/* A shown string is copied as it is. */
	ck_assert_str_eq(tidy("x\\x0atune: sysctl \xc3\xa4 \\x5c"), "x\\x0atune: sysctl \xc3\xa4 \\x5c");
	/* An apply line's systemd escape is one escape, kept. */
	ck_assert_str_eq(tidy("systemctl set-property 'user\\x2dsvc.service'"),
	    "systemctl set-property 'user\\x2dsvc.service'");
	/* A foreign agent's raw bytes and lone backslashes are escaped. */
	ck_assert_str_eq(tidy("a\nb\xff\\q\\x"), "a\\x0ab\\xff\\x5cq");
	ck_assert_str_eq(tidy("\\xZZ"), "\\x5cxZZ");
	/* What an earlier snprintf cut short at the end goes. */
	ck_assert_str_eq(tidy("abc\\x0"), "abc");
	ck_assert_str_eq(tidy("abc\\"), "abc");
	ck_assert_str_eq(tidy("abc\xe2\x82"), "abc");
	ck_assert_str_eq(tidy("abc\xf0\x9f\x90"), "abc");
	ck_assert_str_eq(tidy("abc\xe0"), "abc");
	/* A bad sequence at the end is not one cut short: escaped. */
	ck_assert_str_eq(tidy("abc\xed\xa0"), "abc\\xed\\xa0");
	ck_assert_str_eq(tidy("abc\xc0"), "abc\\xc0");
	ck_assert_str_eq(tidy(NULL), "");
}
END_TEST

/* One byte of every value at every place of a name of every length to 24,
 * the rest plain: tw_escape escapes it as written out here if it is not
 * plain and keeps it if it is, and tw_escape_copy gives what
 * tw_escape_tidy gives, around a cut too. Both fast paths take the name
 * eight bytes at a test. */
START_TEST(test_one_byte_anywhere)
{
	char src[32], got[128], want[128], a[20], b[20];
	size_t len, pos;
	int byte;

	for (len = 1; len <= 24; len++)
		for (pos = 0; pos < len; pos++)
			for (byte = 1; byte < 256; byte++) {
				int plain = byte >= 0x20 && byte < 0x7f && byte != '\\';
				int ra, rb;

				memset(src, 'a' + (int)(pos % 26), len);
				src[pos] = (char)byte;
				src[len] = '\0';
				ck_assert_int_eq(tw_escape_str(got, sizeof(got), src), TW_OK);
				snprintf(want, sizeof(want), plain ? "%.*s%c%s" : "%.*s\\x%02x%s", (int)pos,
				    src, byte, src + pos + 1);
				ck_assert_msg(strcmp(got, want) == 0, "byte 0x%02x at %zu of %zu: \"%s\"",
				    (unsigned)byte, pos, len, got);
				ra = tw_escape_copy(a, sizeof(a), src);
				rb = tw_escape_tidy(b, sizeof(b), src, len);
				ck_assert_msg(ra == rb && strcmp(a, b) == 0,
				    "length %zu, byte 0x%02x at %zu: \"%s\" (%d), not \"%s\" (%d)", len,
				    (unsigned)byte, pos, a, ra, b, rb);
			}
}
END_TEST

START_TEST(test_is_shown)
{
	ck_assert_int_eq(tw_escape_is_shown("a\\x0ab \xc3\xa4", 9), 1);
	ck_assert_int_eq(tw_escape_is_shown("a\\X0a", 5), 0);
	ck_assert_int_eq(tw_escape_is_shown("a\\x0A", 5), 1);
	ck_assert_int_eq(tw_escape_is_shown("a\n", 2), 0);
	ck_assert_int_eq(tw_escape_is_shown("a\\", 2), 0);
	ck_assert_int_eq(tw_escape_is_shown("\xff", 1), 0);
	ck_assert_int_eq(tw_escape_is_shown("\xe2\x80\xa8", 3), 0);
	ck_assert_int_eq(tw_escape_is_shown(NULL, 0), 1);
	ck_assert_int_eq(tw_escape_needed("Normal", 6), 0);
	ck_assert_int_eq(tw_escape_needed("r\xc3\xa4ume", 6), 0);
	ck_assert_int_eq(tw_escape_needed("a\\x41", 5), 1);
	ck_assert_int_eq(tw_escape_needed("a\nb", 3), 1);
	ck_assert_int_eq(tw_escape_needed("a\xff", 2), 1);
	ck_assert_int_eq(tw_escape_had_unprintable("user\\x5cx2d.service"), 0);
	ck_assert_int_eq(tw_escape_had_unprintable("\\x0a  apply: id;#"), 1);
	ck_assert_int_eq(tw_escape_had_unprintable("plain"), 0);
	ck_assert_int_eq(tw_escape_had_unprintable(NULL), 0);
}
END_TEST

START_TEST(test_unescape)
{
	static const char raw[] = "a\n\\x2d\0\xff\xc3\xa4.service";
	char shown[128], back[128];
	size_t n;

	ck_assert_int_eq(tw_escape(shown, sizeof(shown), raw, sizeof(raw) - 1), TW_OK);
	ck_assert_int_eq(tw_unescape(back, sizeof(back), shown, &n), TW_OK);
	ck_assert_uint_eq(n, sizeof(raw) - 1);
	ck_assert_mem_eq(back, raw, n);
	ck_assert_int_eq(tw_unescape(back, sizeof(back), "user\\x5cx2dsvc.service", &n), TW_OK);
	ck_assert_str_eq(back, "user\\x2dsvc.service");
	/* Not a shown string: refused, never half read. */
	ck_assert_int_eq(tw_unescape(back, sizeof(back), "a\\q", &n), TW_E_INVAL);
	ck_assert_str_eq(back, "");
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(tw_unescape(back, sizeof(back), "a\\x4", &n), TW_E_INVAL);
	ck_assert_int_eq(tw_unescape(back, sizeof(back), "a\nb", &n), TW_E_INVAL);
	ck_assert_int_eq(tw_unescape(back, 3, "abc", &n), TW_E_TOOBIG);
	ck_assert_str_eq(back, "");
	ck_assert_int_eq(tw_unescape(back, 4, "abc", NULL), TW_OK);
	ck_assert_str_eq(back, "abc");
}
END_TEST

/* A cut at the head begins at a whole unit: never inside an escape or a
 * character. */
START_TEST(test_unit_start)
{
	static const char s[] = "a\\x0ab" "\xc3\xa4" "c";	/* a \x0a b U+00E4 c */

	ck_assert_ptr_eq(tw_escape_unit_start(s, s), s);
	ck_assert_ptr_eq(tw_escape_unit_start(s, s + 1), s + 1);	/* the escape */
	ck_assert_ptr_eq(tw_escape_unit_start(s, s + 2), s + 5);	/* inside it */
	ck_assert_ptr_eq(tw_escape_unit_start(s, s + 3), s + 5);
	ck_assert_ptr_eq(tw_escape_unit_start(s, s + 4), s + 5);
	ck_assert_ptr_eq(tw_escape_unit_start(s, s + 5), s + 5);	/* b */
	ck_assert_ptr_eq(tw_escape_unit_start(s, s + 7), s + 8);	/* inside U+00E4 */
	ck_assert_ptr_eq(tw_escape_unit_start(s, s + 8), s + 8);
}
END_TEST

static Suite *
escape_suite(void)
{
	Suite *s = suite_create("escape");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_plain_stays);
	tcase_add_test(tc, test_forged_comms);
	tcase_add_test(tc, test_backslash);
	tcase_add_test(tc, test_not_utf8);
	tcase_add_test(tc, test_unsafe_characters);
	tcase_add_test(tc, test_every_cut);
	tcase_add_test(tc, test_size_bound);
	tcase_add_test(tc, test_tidy);
	tcase_add_test(tc, test_one_byte_anywhere);
	tcase_add_test(tc, test_is_shown);
	tcase_add_test(tc, test_unescape);
	tcase_add_test(tc, test_unit_start);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(escape_suite());
}
