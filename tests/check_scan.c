/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/util/scan.c and lib/util/readfile.c. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "util/readfile.h"
#include "util/scan.h"
#include "tw_check.h"
#include "util/error.h"

START_TEST(test_lines_complete_and_truncated)
{
	const char text[] = "one\ntwo\nthr";
	struct tw_lines it;
	const char *line;
	size_t len;
	int complete;

	tw_lines_init(&it, text, sizeof(text) - 1);
	ck_assert_int_eq(tw_lines_next(&it, &line, &len, &complete), 1);
	ck_assert_uint_eq(len, 3);
	ck_assert_int_eq(complete, 1);
	ck_assert_int_eq(tw_lines_next(&it, &line, &len, &complete), 1);
	ck_assert(memcmp(line, "two", 3) == 0);
	ck_assert_int_eq(tw_lines_next(&it, &line, &len, &complete), 1);
	ck_assert_uint_eq(len, 3);
	ck_assert_int_eq(complete, 0);
	ck_assert_int_eq(tw_lines_next(&it, &line, &len, &complete), 0);
}
END_TEST

/* A line parser for test_parse_lines: "ok" is good, "nomem" fails the
 * parse, anything else is malformed; it records what it was given. */
struct seen {
	char lines[8][8];
	size_t n;
};

static int
record_line(void *ctx, const char *line, size_t len)
{
	struct seen *s = ctx;

	ck_assert_uint_lt(s->n, 8);
	ck_assert_int_eq(tw_token_copy(s->lines[s->n++], 8, line, len), TW_OK);
	if (tw_token_is(line, len, "nomem"))
		return TW_E_NOMEM;
	return tw_token_is(line, len, "ok") ? TW_OK : TW_E_INVAL;
}

START_TEST(test_parse_lines)
{
	struct tw_parse_stats ps = { 10, 1 };
	struct seen s;

	/* Every line counts; the cut last one never reaches the parser. */
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(tw_parse_lines("ok\nbad\n\nok\nok", 13, record_line, &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 15);
	ck_assert_uint_eq(ps.malformed, 4);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_str_eq(s.lines[1], "bad");
	ck_assert_str_eq(s.lines[2], "");

	/* An error other than TW_E_INVAL stops at its line and is returned. */
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(tw_parse_lines("ok\nnomem\nok\n", 12, record_line, &s, &ps),
	    TW_E_NOMEM);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(ps.lines, 17);
	ck_assert_uint_eq(ps.malformed, 4);

	ck_assert_int_eq(tw_parse_lines("", 0, record_line, &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 17);
}
END_TEST

START_TEST(test_tokens)
{
	const char text[] = "  8 \t 0 sda  12";
	struct tw_tokens it;
	const char *tok;
	size_t len;

	tw_tokens_init(&it, text, sizeof(text) - 1);
	ck_assert_uint_eq(tw_tokens_count(&it), 4);
	ck_assert_int_eq(tw_tokens_next(&it, &tok, &len), 1);
	ck_assert(tw_token_is(tok, len, "8"));
	ck_assert_int_eq(tw_tokens_next(&it, &tok, &len), 1);
	ck_assert_int_eq(tw_tokens_next(&it, &tok, &len), 1);
	ck_assert(tw_token_is(tok, len, "sda"));
	ck_assert_int_eq(tw_tokens_next(&it, &tok, &len), 1);
	ck_assert(tw_token_is(tok, len, "12"));
	ck_assert_int_eq(tw_tokens_next(&it, &tok, &len), 0);
}
END_TEST

START_TEST(test_parse_u64_edges)
{
	uint64_t v;

	ck_assert_int_eq(tw_parse_u64("0", 1, &v), TW_OK);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(tw_parse_u64("18446744073709551615", 20, &v), TW_OK);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(tw_parse_u64("18446744073709551616", 20, &v), TW_E_RANGE);
	ck_assert_int_eq(tw_parse_u64("99999999999999999999", 20, &v), TW_E_RANGE);
	ck_assert_int_eq(tw_parse_u64("", 0, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_parse_u64("12a", 3, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_parse_u64("-1", 2, &v), TW_E_INVAL);
}
END_TEST

/* tw_tokens_next_u64 and tw_tokens_next_hex_u64 say of every token what
 * tw_tokens_next and tw_parse_u64 or tw_parse_hex_u64 say of it together,
 * and stop where they would. */
static const char *const number_lines[] = {
	"", "   ", "0", " 7 ", "1 2\t3", "18446744073709551615 1", "18446744073709551616",
	"99999999999999999999 1", "184467440737095516150", "12a 3", "4 -1", "5 +5", "6 1.5",
	"\t\t42\t", "8 0 sda", "1\r", "00000000000000000000001", "ffffffffffffffff 0",
	"10000000000000000", "fFfF aB09 Cd", "00001000 0000000g", "G1", "@", "`", "x1",
	"0000000000000000000000ff", "fffffffffffffffffz",
};

static void
check_numbers(int hex)
{
	size_t i;

	for (i = 0; i < sizeof(number_lines) / sizeof(number_lines[0]); i++) {
		const char *line = number_lines[i];
		struct tw_tokens a, b;
		const char *tok;
		size_t len;
		int step;

		tw_tokens_init(&a, line, strlen(line));
		tw_tokens_init(&b, line, strlen(line));
		for (step = 0;; step++) {
			uint64_t va = 0, vb = 0;
			int ra = hex ? tw_tokens_next_hex_u64(&a, &va) : tw_tokens_next_u64(&a, &va);
			int rb;

			if (!tw_tokens_next(&b, &tok, &len)) {
				ck_assert_msg(ra == 0, "%s \"%s\" token %d: %d at the end",
				    hex ? "hex" : "dec", line, step, ra);
				break;
			}
			rb = hex ? tw_parse_hex_u64(tok, len, &vb) : tw_parse_u64(tok, len, &vb);
			if (rb != TW_OK) {
				ck_assert_msg(ra == rb, "%s \"%s\" token %d: %d, not %d",
				    hex ? "hex" : "dec", line, step, ra, rb);
				break;
			}
			ck_assert_msg(ra == 1 && va == vb, "%s \"%s\" token %d: %d %" PRIu64
			    ", not %" PRIu64, hex ? "hex" : "dec", line, step, ra, va, vb);
		}
	}
}

START_TEST(test_tokens_next_number_agrees)
{
	check_numbers(0);
	check_numbers(1);
}
END_TEST

START_TEST(test_parse_hex_and_signed)
{
	uint64_t v;
	int64_t s;

	ck_assert_int_eq(tw_parse_hex_u64("0000ffff", 8, &v), TW_OK);
	ck_assert_uint_eq(v, 0xffff);
	ck_assert_int_eq(tw_parse_hex_u64("FFFFFFFFFFFFFFFF", 16, &v), TW_OK);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(tw_parse_hex_u64("1FFFFFFFFFFFFFFFF", 17, &v), TW_E_RANGE);
	ck_assert_int_eq(tw_parse_hex_u64("0x10", 4, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_parse_i64("-1", 2, &s), TW_OK);
	ck_assert_int_eq(s, -1);
	ck_assert_int_eq(tw_parse_i64("-9223372036854775808", 20, &s), TW_OK);
	ck_assert(s == INT64_MIN);
	ck_assert_int_eq(tw_parse_i64("9223372036854775808", 19, &s), TW_E_RANGE);
	ck_assert_int_eq(tw_parse_i64("-", 1, &s), TW_E_INVAL);
}
END_TEST

START_TEST(test_parse_hundredths)
{
	uint64_t v;

	ck_assert_int_eq(tw_parse_hundredths("12.34", 5, &v), TW_OK);
	ck_assert_uint_eq(v, 1234);
	ck_assert_int_eq(tw_parse_hundredths("0.5", 3, &v), TW_OK);
	ck_assert_uint_eq(v, 50);
	ck_assert_int_eq(tw_parse_hundredths("7", 1, &v), TW_OK);
	ck_assert_uint_eq(v, 700);
	ck_assert_int_eq(tw_parse_hundredths("1.", 2, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_parse_hundredths("1.234", 5, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_parse_hundredths(".5", 2, &v), TW_E_INVAL);
}
END_TEST

START_TEST(test_read_file_and_value)
{
	char dir[] = "/tmp/tw_check_scan.XXXXXX";
	struct tw_buf b;
	char value[16];
	int dfd, fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(dfd, 0);
	fd = openat(dfd, "attr", O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "128\n", 4), 4);
	close(fd);

	tw_buf_init(&b);
	ck_assert_int_eq(tw_read_file_at(dfd, "attr", &b), TW_OK);
	ck_assert_uint_eq(b.len, 4);
	ck_assert_str_eq(b.data, "128\n");
	ck_assert_int_eq(tw_read_file_at(dfd, "missing", &b), TW_E_ABSENT);
	ck_assert_int_eq(tw_read_file_at(-1, "attr", &b), TW_E_ABSENT);
	tw_buf_free(&b);

	ck_assert_int_eq(tw_read_value_at(dfd, "attr", value, sizeof(value)), TW_OK);
	ck_assert_str_eq(value, "128");
	ck_assert_int_eq(tw_read_value_at(dfd, "attr", value, 3), TW_E_TOOBIG);
	ck_assert_int_eq(tw_read_value_at(dfd, "missing", value, sizeof(value)), TW_E_ABSENT);

	unlinkat(dfd, "attr", 0);
	close(dfd);
	rmdir(dir);
}
END_TEST

static Suite *
scan_suite(void)
{
	Suite *s = suite_create("scan");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_lines_complete_and_truncated);
	tcase_add_test(tc, test_parse_lines);
	tcase_add_test(tc, test_tokens);
	tcase_add_test(tc, test_parse_u64_edges);
	tcase_add_test(tc, test_tokens_next_number_agrees);
	tcase_add_test(tc, test_parse_hex_and_signed);
	tcase_add_test(tc, test_parse_hundredths);
	tcase_add_test(tc, test_read_file_and_value);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(scan_suite());
}
