/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/collect/pressure.c.
 *
 * Linked with -Wl,--wrap=read (tests/collectors.mk) so that a read can be
 * made to fail the way a kernel booted with psi=0 fails it. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/pressure.h"
#include "util/readfile.h"
#include "util/scan.h"
#include "tw_check.h"
#include "util/error.h"

ssize_t __real_read(int fd, void *buf, size_t n);
ssize_t __wrap_read(int fd, void *buf, size_t n);

/* Reads of the file with this inode fail with fail_errno. */
static ino_t fail_ino;
static int fail_errno;

ssize_t
__wrap_read(int fd, void *buf, size_t n)
{
	struct stat st;

	if (fail_errno != 0 && fstat(fd, &st) == 0 && st.st_ino == fail_ino) {
		errno = fail_errno;
		return -1;
	}
	return __real_read(fd, buf, n);
}

static int
open_dir(const char *rel)
{
	int fd = open(tw_fixture_path(rel), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	return fd;
}

static void
assert_line(const struct tw_psi_line *l, uint64_t a10, uint64_t a60, uint64_t a300,
    uint64_t total)
{
	ck_assert_uint_eq(l->avg10, a10);
	ck_assert_uint_eq(l->avg60, a60);
	ck_assert_uint_eq(l->avg300, a300);
	ck_assert(l->total_us == total);
}

START_TEST(test_debian12_vm)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_psi psi;
	struct tw_buf b;
	int fd = open_dir("debian12-vm/proc");

	tw_buf_init(&b);
	ck_assert_int_eq(tw_psi_read(fd, "io", &b, &psi, &ps), TW_OK);
	ck_assert_int_eq(psi.has_some, 1);
	ck_assert_int_eq(psi.has_full, 1);
	assert_line(&psi.some, 24, 11, 11, 3948280);
	assert_line(&psi.full, 15, 7, 9, 3720975);
	ck_assert_int_eq(tw_psi_read(fd, "memory", &b, &psi, &ps), TW_OK);
	ck_assert_int_eq(psi.has_some, 1);
	ck_assert_int_eq(psi.has_full, 1);
	assert_line(&psi.some, 0, 0, 0, 0);
	assert_line(&psi.full, 0, 0, 0, 0);
	ck_assert_uint_eq(ps.lines, 4);
	ck_assert_uint_eq(ps.malformed, 0);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

START_TEST(test_handmade)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_psi psi;
	struct tw_buf b;
	int fd = open_dir("collectors/pressure/proc");

	tw_buf_init(&b);
	ck_assert_int_eq(tw_psi_read(fd, "memory", &b, &psi, &ps), TW_OK);
	assert_line(&psi.some, 170, 45, 29, 5226209);
	assert_line(&psi.full, 0, 5, 10000, UINT64_MAX);
	/* 4.20's cpu file has no "full" line. */
	ck_assert_int_eq(tw_psi_read(fd, "cpu", &b, &psi, &ps), TW_OK);
	ck_assert_int_eq(psi.has_some, 1);
	ck_assert_int_eq(psi.has_full, 0);
	assert_line(&psi.some, 1250, 300, 1, 42);
	assert_line(&psi.full, 0, 0, 0, 0);
	ck_assert_uint_eq(ps.lines, 3);
	ck_assert_uint_eq(ps.malformed, 0);

	/* No such file, and read clears what was there. */
	ck_assert_int_eq(tw_psi_read(fd, "io", &b, &psi, &ps), TW_E_ABSENT);
	ck_assert_int_eq(psi.has_some, 0);
	ck_assert_uint_eq(psi.some.total_us, 0);
	ck_assert_int_eq(tw_psi_read(-1, "io", &b, &psi, &ps), TW_E_ABSENT);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

START_TEST(test_resource_names)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_psi psi;
	struct tw_buf b;
	int fd = open_dir("collectors/pressure/proc");

	tw_buf_init(&b);
	ck_assert_int_eq(tw_psi_read(fd, "../pressure/memory", &b, &psi, &ps), TW_E_INVAL);
	ck_assert_int_eq(tw_psi_read(fd, "Memory", &b, &psi, &ps), TW_E_INVAL);
	ck_assert_int_eq(tw_psi_read(fd, "", &b, &psi, &ps), TW_E_INVAL);
	ck_assert_int_eq(tw_psi_read(fd, NULL, &b, &psi, &ps), TW_E_INVAL);
	ck_assert_int_eq(tw_psi_read(fd, "abcdefghijklmnop", &b, &psi, &ps), TW_E_INVAL);
	ck_assert_int_eq(tw_psi_read(fd, "abcdefghijklmno", &b, &psi, &ps), TW_E_ABSENT);
	ck_assert_uint_eq(ps.lines, 0);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

START_TEST(test_malformed)
{
	static const char nul[] = "some avg10=0.00 avg60=0.00 avg300=0.00 total=1\0\n"
	    "full avg10=0.00 avg60=0.00 avg\0300=0.00 total=1\n"
	    "full avg10=0.50 avg60=0.25 avg300=0.12 total=2\n";
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_psi psi;
	struct tw_buf b;
	int fd = open_dir("collectors/pressure");

	tw_buf_init(&b);
	ck_assert_int_eq(tw_read_file_at(fd, "malformed.txt", &b), TW_OK);
	memset(&psi, 0, sizeof(psi));
	ck_assert_int_eq(tw_psi_parse(b.data, b.len, &psi, &ps), TW_OK);
	/* Only the line with its keys in another order and one unknown key is
	 * good. */
	ck_assert_uint_eq(ps.lines, 9);
	ck_assert_uint_eq(ps.malformed, 8);
	ck_assert_int_eq(psi.has_some, 1);
	ck_assert_int_eq(psi.has_full, 0);
	assert_line(&psi.some, 100, 200, 300, 77);

	ck_assert_int_eq(tw_psi_parse(nul, sizeof(nul) - 1, &psi, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 12);
	ck_assert_uint_eq(ps.malformed, 10);
	ck_assert_int_eq(psi.has_full, 1);
	assert_line(&psi.full, 50, 25, 12, 2);
	assert_line(&psi.some, 100, 200, 300, 77);

	ck_assert_int_eq(tw_psi_parse("", 0, &psi, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 12);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

/* A kernel with PSI built in but booted with psi=0 opens the file and
 * fails the read with EOPNOTSUPP: not available, not an I/O error. */
START_TEST(test_psi_disabled)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_psi psi;
	struct tw_buf b;
	struct stat st;
	int fd = open_dir("collectors/pressure/proc");

	ck_assert_int_eq(fstatat(fd, "pressure/memory", &st, 0), 0);
	fail_ino = st.st_ino;
	tw_buf_init(&b);

	fail_errno = EOPNOTSUPP;
	ck_assert_int_eq(tw_psi_read(fd, "memory", &b, &psi, &ps), TW_E_ABSENT);
	ck_assert_int_eq(psi.has_some, 0);
	/* Other read errors stay errors. */
	fail_errno = EIO;
	ck_assert_int_eq(tw_psi_read(fd, "memory", &b, &psi, &ps), TW_E_IO);
	fail_errno = EACCES;
	ck_assert_int_eq(tw_psi_read(fd, "memory", &b, &psi, &ps), TW_E_ACCESS);
	/* The cpu file is not affected. */
	ck_assert_int_eq(tw_psi_read(fd, "cpu", &b, &psi, &ps), TW_OK);
	fail_errno = 0;
	ck_assert_int_eq(tw_psi_read(fd, "memory", &b, &psi, &ps), TW_OK);
	ck_assert_uint_eq(ps.malformed, 0);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

/* What tw_psi_parse must give, written the obvious way (sscanf-free
 * token by token): a line's first token "some" or "full", then tokens
 * key=value with avg10, avg60, avg300 (hundredths) and total each once,
 * other keys ignored. The parser's quick path for the kernel's own form
 * must agree with it on lines near that form. */
static int
ref_line(const char *line, size_t len, struct tw_psi *out)
{
	struct tw_tokens it;
	struct tw_psi_line pl;
	const char *tok;
	size_t tlen;
	unsigned seen = 0;
	int some;

	memset(&pl, 0, sizeof(pl));
	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &tok, &tlen))
		return 0;
	if (tw_token_is(tok, tlen, "some"))
		some = 1;
	else if (tw_token_is(tok, tlen, "full"))
		some = 0;
	else
		return 0;
	while (tw_tokens_next(&it, &tok, &tlen)) {
		const char *eq = memchr(tok, '=', tlen);
		size_t klen;
		unsigned bit;
		int rc;

		if (eq == NULL || eq == tok)
			return 0;
		klen = (size_t)(eq - tok);
		if (klen == 5 && memcmp(tok, "avg10", 5) == 0) {
			bit = 1;
			rc = tw_parse_hundredths(eq + 1, tlen - klen - 1, &pl.avg10);
		} else if (klen == 5 && memcmp(tok, "avg60", 5) == 0) {
			bit = 2;
			rc = tw_parse_hundredths(eq + 1, tlen - klen - 1, &pl.avg60);
		} else if (klen == 6 && memcmp(tok, "avg300", 6) == 0) {
			bit = 4;
			rc = tw_parse_hundredths(eq + 1, tlen - klen - 1, &pl.avg300);
		} else if (klen == 5 && memcmp(tok, "total", 5) == 0) {
			bit = 8;
			rc = tw_parse_u64(eq + 1, tlen - klen - 1, &pl.total_us);
		} else {
			continue;
		}
		if (rc != TW_OK || (seen & bit))
			return 0;
		seen |= bit;
	}
	if (seen != 15)
		return 0;
	if (some) {
		out->some = pl;
		out->has_some = 1;
	} else {
		out->full = pl;
		out->has_full = 1;
	}
	return 1;
}

static void
ref_psi(const char *text, size_t len, struct tw_psi *out, struct tw_parse_stats *ps)
{
	struct tw_lines it;
	const char *line;
	size_t llen;
	int complete;

	memset(out, 0, sizeof(*out));
	tw_lines_init(&it, text, len);
	while (tw_lines_next(&it, &line, &llen, &complete)) {
		ps->lines++;
		if (!complete || !ref_line(line, llen, out))
			ps->malformed++;
	}
}

static size_t
pick(char *dst, const char *const *set, size_t n)
{
	const char *s = set[(size_t)rand() % n];
	size_t len = strlen(s);

	memcpy(dst, s, len);
	return len;
}

#define PICK(dst, set) pick((dst), (set), sizeof(set) / sizeof((set)[0]))

START_TEST(test_reference)
{
	static const char *const kinds[] = { "some ", "full ", "some  ", "som ", "full\t", "" };
	static const char *const keys[] = { "avg10=", "avg60=", "avg300=", "total=", "avg1=",
		"avg10", "=", "new=" };
	static const char *const nums[] = { "0.00", "12.34", "1.5", "100.00", "7", "0.123",
		".50", "1.", "999999999999999999.99", "99999999999999999.99",
		"9999999999999999.99", "184467440737095516.15",
		"18446744073709551615", "18446744073709551616", "123", "", "x", "1.2x" };
	static const char *const gaps[] = { " ", " ", " ", "  ", "\t", "" };
	char text[1024];
	size_t k;

	srand(4242);
	for (k = 0; k < 200000; k++) {
		size_t len = 0, lines = (size_t)rand() % 4, i, j;
		struct tw_psi got, want;
		struct tw_parse_stats gps = { 0, 0 }, wps = { 0, 0 };

		for (i = 0; i < lines; i++) {
			static const char *const order[] = { "avg10=", "avg60=", "avg300=",
				"total=" };
			len += PICK(text + len, kinds);
			for (j = 0; j < 4 + (size_t)(rand() % 3 == 0); j++) {
				/* Mostly the kernel's order, sometimes anything. */
				if (j > 0)
					len += rand() % 4 == 0 ? PICK(text + len, gaps) :
					    (size_t)(text[len] = ' ', 1);
				len += rand() % 6 == 0 || j >= 4 ? PICK(text + len, keys) :
				    (size_t)(memcpy(text + len, order[j], strlen(order[j])),
				    strlen(order[j]));
				len += PICK(text + len, nums);
			}
			text[len++] = '\n';
		}
		if (len > 0 && rand() % 4 == 0)
			text[(size_t)rand() % len] = " \n.=0x"[rand() % 6];
		if (len > 0 && rand() % 5 == 0)
			len -= (size_t)rand() % len;
		memset(&got, 0, sizeof(got));
		ck_assert_int_eq(tw_psi_parse(text, len, &got, &gps), TW_OK);
		ref_psi(text, len, &want, &wps);
		ck_assert_msg(gps.lines == wps.lines && gps.malformed == wps.malformed &&
		    got.has_some == want.has_some && got.has_full == want.has_full,
		    "lines %llu/%llu malformed %llu/%llu on \"%.*s\"",
		    (unsigned long long)gps.lines, (unsigned long long)wps.lines,
		    (unsigned long long)gps.malformed, (unsigned long long)wps.malformed, (int)len,
		    text);
		if (want.has_some)
			ck_assert_msg(memcmp(&got.some, &want.some, sizeof(want.some)) == 0,
			    "some on \"%.*s\"", (int)len, text);
		if (want.has_full)
			ck_assert_msg(memcmp(&got.full, &want.full, sizeof(want.full)) == 0,
			    "full on \"%.*s\"", (int)len, text);
	}
}
END_TEST

static Suite *
pressure_suite(void)
{
	Suite *s = suite_create("pressure");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_debian12_vm);
	tcase_add_test(tc, test_handmade);
	tcase_add_test(tc, test_resource_names);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_psi_disabled);
	tcase_add_test(tc, test_reference);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(pressure_suite());
}
