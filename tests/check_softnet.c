/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/collect/softnet.c. */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "util/readfile.h"
#include "util/scan.h"
#include "collect/softnet.h"
#include "tw_check.h"
#include "util/error.h"

#define TXT(s) (s), sizeof(s) - 1

static void
parse_fixture(const char *name, struct tw_softnet_set *s, struct tw_parse_stats *ps)
{
	struct tw_buf b;
	int dfd = open(tw_fixture_path("collectors/softnet"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(dfd, 0);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_read_file_at(dfd, name, &b), TW_OK);
	ck_assert_int_eq(tw_softnet_parse(b.data, b.len, s, ps), TW_OK);
	tw_buf_free(&b);
	close(dfd);
}

/* cpu, ncols, cpu_from_column, has_backlog, then the six counters. */
static void
assert_cpu(const struct tw_softnet_cpu *c, uint32_t cpu, uint32_t ncols, int from_col,
    int has_backlog, uint32_t processed, uint32_t dropped, uint32_t squeeze, uint32_t rps,
    uint32_t flow, uint32_t backlog)
{
	ck_assert_uint_eq(c->cpu, cpu);
	ck_assert_uint_eq(c->ncols, ncols);
	ck_assert_int_eq(c->cpu_from_column, from_col);
	ck_assert_int_eq(c->has_backlog, has_backlog);
	ck_assert_uint_eq(c->processed, processed);
	ck_assert_uint_eq(c->dropped, dropped);
	ck_assert_uint_eq(c->time_squeeze, squeeze);
	ck_assert_uint_eq(c->received_rps, rps);
	ck_assert_uint_eq(c->flow_limit, flow);
	ck_assert_uint_eq(c->backlog_len, backlog);
}

START_TEST(test_debian12_vm)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_softnet_set s;
	struct tw_buf b;
	int fd = open(tw_fixture_path("debian12-vm/proc"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_softnet_set_init(&s);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_softnet_read(fd, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 2);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(s.count, 2);
	assert_cpu(&s.cpus[0], 0, 15, 1, 1, 0xd, 0, 0, 0, 0, 0);
	assert_cpu(&s.cpus[1], 1, 15, 1, 1, 0x588, 0, 0, 0, 0, 0);
	/* _read starts over. */
	ck_assert_int_eq(tw_softnet_read(fd, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(s.count, 2);
	tw_buf_free(&b);
	tw_softnet_set_free(&s);
	close(fd);
}
END_TEST

START_TEST(test_old_kernels)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_softnet_set s;

	tw_softnet_set_init(&s);
	parse_fixture("cols9.txt", &s, &ps);
	ck_assert_uint_eq(s.count, 2);
	assert_cpu(&s.cpus[0], 0, 9, 0, 0, 0x10, 1, 2, 0, 0, 0);
	assert_cpu(&s.cpus[1], 1, 9, 0, 0, 0x20, 3, 4, 0, 0, 0);

	s.count = 0;
	parse_fixture("cols10.txt", &s, &ps);
	ck_assert_uint_eq(s.count, 1);
	assert_cpu(&s.cpus[0], 0, 10, 0, 0, 0x100, 5, 6, 7, 0, 0);

	s.count = 0;
	parse_fixture("cols11.txt", &s, &ps);
	ck_assert_uint_eq(s.count, 2);
	assert_cpu(&s.cpus[0], 0, 11, 0, 0, UINT32_MAX, 0x80000000u, 9, 10, 11, 0);
	assert_cpu(&s.cpus[1], 1, 11, 0, 0, 1, 2, 3, 4, 5, 0);

	ck_assert_uint_eq(ps.lines, 5);
	ck_assert_uint_eq(ps.malformed, 0);
	tw_softnet_set_free(&s);
}
END_TEST

START_TEST(test_cpu_column)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_softnet_set s;

	tw_softnet_set_init(&s);
	/* CPU 1 is offline: the column, not the row, names the CPU. */
	parse_fixture("cols13.txt", &s, &ps);
	ck_assert_uint_eq(s.count, 3);
	assert_cpu(&s.cpus[0], 0, 13, 1, 1, 0xa, 1, 2, 3, 4, 5);
	assert_cpu(&s.cpus[1], 2, 13, 1, 1, 0xb, 6, 7, 8, 9, 10);
	assert_cpu(&s.cpus[2], 3, 13, 1, 1, 0xc, 11, 12, 13, 14, 15);

	parse_fixture("cols15.txt", &s, &ps);
	ck_assert_uint_eq(s.count, 4);
	assert_cpu(&s.cpus[3], 1, 15, 1, 1, 0x588, 0, 0x21, 0, 0, 0x12);

	/* Twelve columns: a backlog but no CPU number. */
	ck_assert_int_eq(tw_softnet_parse(TXT("1 2 3 4 5 6 7 8 9 a b c\n"
	    "1 2 3 4 5 6 7 8 9 a b c\n"), &s, &ps), TW_OK);
	ck_assert_uint_eq(s.count, 6);
	assert_cpu(&s.cpus[5], 1, 12, 0, 1, 1, 2, 3, 0xa, 0xb, 0xc);
	ck_assert_uint_eq(ps.lines, 6);
	ck_assert_uint_eq(ps.malformed, 0);
	tw_softnet_set_free(&s);
}
END_TEST

START_TEST(test_malformed)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_softnet_set s;

	tw_softnet_set_init(&s);
	parse_fixture("malformed.txt", &s, &ps);
	ck_assert_uint_eq(ps.lines, 8);
	ck_assert_uint_eq(ps.malformed, 6);
	ck_assert_uint_eq(s.count, 2);
	assert_cpu(&s.cpus[0], 0, 11, 0, 0, 1, 0, 0, 0, 0, 0);
	/* Row 4 counting the malformed rows before it. */
	assert_cpu(&s.cpus[1], 4, 11, 0, 0, 5, 6, 7, 8, 9, 0);

	s.count = 0;
	ck_assert_int_eq(tw_softnet_parse(TXT("1 2 3 4 5 6 7 8 9\r\n"
	    "1\0 2 3 4 5 6 7 8 9\n"
	    "1 2 3 4 5 6 7 8 9\n"
	    "1 2 3 4 5 6 7 8 -9\n"), &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 12);
	ck_assert_uint_eq(ps.malformed, 9);
	ck_assert_uint_eq(s.count, 1);
	ck_assert_uint_eq(s.cpus[0].cpu, 2);
	ck_assert_int_eq(tw_softnet_parse(TXT(""), &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 12);
	tw_softnet_set_free(&s);
}
END_TEST

static Suite *
softnet_suite(void)
{
	Suite *s = suite_create("softnet");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_debian12_vm);
	tcase_add_test(tc, test_old_kernels);
	tcase_add_test(tc, test_cpu_column);
	tcase_add_test(tc, test_malformed);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(softnet_suite());
}
