/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/collect/sockstat.c. */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "util/readfile.h"
#include "util/scan.h"
#include "collect/sockstat.h"
#include "tw_check.h"
#include "util/error.h"

#define TXT(s) (s), sizeof(s) - 1
#define BIT(f) (UINT32_C(1) << (f))

static void
parse_fixture(const char *name, struct tw_sockstat *ss, struct tw_parse_stats *ps)
{
	struct tw_buf b;
	int dfd = open(tw_fixture_path("collectors/sockstat"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(dfd, 0);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_read_file_at(dfd, name, &b), TW_OK);
	memset(ss, 0, sizeof(*ss));
	ck_assert_int_eq(tw_sockstat_parse(b.data, b.len, ss, ps), TW_OK);
	tw_buf_free(&b);
	close(dfd);
}

START_TEST(test_debian12_vm)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_sockstat ss;
	struct tw_buf b;
	int fd = open(tw_fixture_path("debian12-vm/proc"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_buf_init(&b);
	memset(&ss, 0xff, sizeof(ss));
	ck_assert_int_eq(tw_sockstat_read(fd, &b, &ss, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 6);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(ss.present, 0x7f);
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_INUSE], 1);
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_ORPHAN], 0);
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_TW], 0);
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_ALLOC], 1);
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_MEM], 358);
	ck_assert_uint_eq(ss.v[TW_SOCK_UDP_INUSE], 0);
	ck_assert_uint_eq(ss.v[TW_SOCK_UDP_MEM], 0);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

START_TEST(test_linux26_no_udp_mem)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_sockstat ss;

	parse_fixture("linux-2.6.txt", &ss, &ps);
	ck_assert_uint_eq(ps.lines, 5);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(ss.present, 0x7f & ~BIT(TW_SOCK_UDP_MEM));
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_INUSE], 5);
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_ORPHAN], 1);
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_TW], 2);
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_ALLOC], 8);
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_MEM], 3);
	ck_assert_uint_eq(ss.v[TW_SOCK_UDP_INUSE], 3);
}
END_TEST

START_TEST(test_malformed)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_sockstat ss;

	parse_fixture("malformed.txt", &ss, &ps);
	/* Good: UDPLITE and FRAG (well formed, not kept) and the full TCP line;
	 * a bad line stores nothing, not even its good pairs. */
	ck_assert_uint_eq(ps.lines, 10);
	ck_assert_uint_eq(ps.malformed, 7);
	ck_assert_uint_eq(ss.present, 0x1f);
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_INUSE], 9);
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_ORPHAN], 0);
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_TW], 4);
	ck_assert_uint_eq(ss.v[TW_SOCK_TCP_ALLOC], 10);
	ck_assert(ss.v[TW_SOCK_TCP_MEM] == UINT64_MAX);
	ck_assert_uint_eq(ss.v[TW_SOCK_UDP_INUSE], 0);

	memset(&ss, 0, sizeof(ss));
	ck_assert_int_eq(tw_sockstat_parse(TXT("UDP: inuse 1 mem 2\r\n"
	    "UDP: in\0use 3 mem 4\n"
	    "UDP: inuse 5 mem 6\0\n"), &ss, &ps), TW_OK);
	/* "in\0use" is a key we do not know, so the second line is fine. */
	ck_assert_uint_eq(ps.lines, 13);
	ck_assert_uint_eq(ps.malformed, 9);
	ck_assert_uint_eq(ss.present, BIT(TW_SOCK_UDP_MEM));
	ck_assert_uint_eq(ss.v[TW_SOCK_UDP_MEM], 4);
	ck_assert_int_eq(tw_sockstat_parse(TXT(""), &ss, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 13);
}
END_TEST

static Suite *
sockstat_suite(void)
{
	Suite *s = suite_create("sockstat");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_debian12_vm);
	tcase_add_test(tc, test_linux26_no_udp_mem);
	tcase_add_test(tc, test_malformed);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(sockstat_suite());
}
