/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/collect/meminfo.c. */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "collect/meminfo.h"
#include "util/readfile.h"
#include "util/scan.h"
#include "tw_check.h"
#include "util/error.h"

#define BIT(f) (UINT32_C(1) << (f))

static void
parse_fixture(const char *name, struct tw_meminfo *m, struct tw_parse_stats *ps)
{
	struct tw_buf b;
	int dfd = open(tw_fixture_path("collectors/meminfo"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(dfd, 0);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_read_file_at(dfd, name, &b), TW_OK);
	ck_assert_int_eq(tw_meminfo_parse(b.data, b.len, m, ps), TW_OK);
	tw_buf_free(&b);
	close(dfd);
}

START_TEST(test_debian12_vm)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_meminfo m;
	struct tw_buf b;
	int fd = open(tw_fixture_path("debian12-vm/proc"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_buf_init(&b);
	memset(&m, 0xff, sizeof(m));
	ck_assert_int_eq(tw_meminfo_read(fd, &b, &m, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 54);
	ck_assert_uint_eq(ps.malformed, 0);
	/* SwapTotal and SwapFree too: this VM has no swap, and says so. */
	ck_assert_uint_eq(m.present, 0xff);
	ck_assert_uint_eq(m.bytes[TW_MEM_TOTAL], UINT64_C(25276502016));
	ck_assert_uint_eq(m.bytes[TW_MEM_AVAILABLE], UINT64_C(24916574208));
	ck_assert_uint_eq(m.bytes[TW_MEM_CACHED], 243740672);
	ck_assert_uint_eq(m.bytes[TW_MEM_BUFFERS], 5136384);
	ck_assert_uint_eq(m.bytes[TW_MEM_DIRTY], 1069056);
	ck_assert_uint_eq(m.bytes[TW_MEM_WRITEBACK], 0);
	ck_assert_uint_eq(m.bytes[TW_MEM_SWAP_TOTAL], 0);
	ck_assert_uint_eq(m.bytes[TW_MEM_SWAP_FREE], 0);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

START_TEST(test_linux310_no_available)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_meminfo m;

	memset(&m, 0, sizeof(m));
	parse_fixture("linux-3.10.txt", &m, &ps);
	ck_assert_uint_eq(ps.lines, 10);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(m.present, BIT(TW_MEM_TOTAL) | BIT(TW_MEM_CACHED) |
	    BIT(TW_MEM_BUFFERS) | BIT(TW_MEM_DIRTY) | BIT(TW_MEM_WRITEBACK));
	ck_assert_uint_eq(m.bytes[TW_MEM_TOTAL], 2097152000);
	ck_assert_uint_eq(m.bytes[TW_MEM_AVAILABLE], 0);
	ck_assert_uint_eq(m.bytes[TW_MEM_CACHED], 921600000);
	ck_assert_uint_eq(m.bytes[TW_MEM_BUFFERS], 67108864);
	ck_assert_uint_eq(m.bytes[TW_MEM_DIRTY], 1263616);
	ck_assert_uint_eq(m.bytes[TW_MEM_WRITEBACK], 57344);
}
END_TEST

START_TEST(test_malformed)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_meminfo m;

	memset(&m, 0, sizeof(m));
	parse_fixture("malformed.txt", &m, &ps);
	/* Good: the largest kB value that fits in bytes, HugePages_Total (no
	 * unit, not kept) and the second MemTotal. The last line, cut before
	 * its newline, does not count. */
	ck_assert_uint_eq(ps.lines, 12);
	ck_assert_uint_eq(ps.malformed, 9);
	ck_assert_uint_eq(m.present, BIT(TW_MEM_TOTAL) | BIT(TW_MEM_DIRTY));
	ck_assert_uint_eq(m.bytes[TW_MEM_TOTAL], 4194304);
	ck_assert(m.bytes[TW_MEM_DIRTY] == UINT64_C(18446744073709550592));
	ck_assert_uint_eq(m.bytes[TW_MEM_WRITEBACK], 0);
	ck_assert_uint_eq(m.bytes[TW_MEM_AVAILABLE], 0);
}
END_TEST

START_TEST(test_crlf_nul_empty)
{
	static const char nul[] = "MemTotal:\0 1 kB\nCached: 1\0 kB\nDirty: 2 kB\n\0\n";
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_meminfo m;

	memset(&m, 0, sizeof(m));
	parse_fixture("crlf.txt", &m, &ps);
	ck_assert_uint_eq(ps.lines, 2);
	ck_assert_uint_eq(ps.malformed, 2);
	ck_assert_uint_eq(m.present, 0);

	ck_assert_int_eq(tw_meminfo_parse(nul, sizeof(nul) - 1, &m, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 6);
	ck_assert_uint_eq(ps.malformed, 5);
	ck_assert_uint_eq(m.present, BIT(TW_MEM_DIRTY));
	ck_assert_uint_eq(m.bytes[TW_MEM_DIRTY], 2048);

	ck_assert_int_eq(tw_meminfo_parse("", 0, &m, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 6);
}
END_TEST

/* A parse sets what it sees and leaves the rest alone (that a read starts
 * from nothing is check_collectors' test_read_absent). */
START_TEST(test_parse_adds)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_meminfo m;

	memset(&m, 0, sizeof(m));
	ck_assert_int_eq(tw_meminfo_parse("Writeback: 3 kB\n", 16, &m, &ps), TW_OK);
	ck_assert_int_eq(tw_meminfo_parse("MemTotal: 5 kB\n", 15, &m, &ps), TW_OK);
	ck_assert_uint_eq(m.present, BIT(TW_MEM_TOTAL) | BIT(TW_MEM_WRITEBACK));
	ck_assert_uint_eq(m.bytes[TW_MEM_WRITEBACK], 3072);
	ck_assert_uint_eq(ps.lines, 2);
}
END_TEST

static Suite *
meminfo_suite(void)
{
	Suite *s = suite_create("meminfo");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_debian12_vm);
	tcase_add_test(tc, test_linux310_no_available);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_crlf_nul_empty);
	tcase_add_test(tc, test_parse_adds);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(meminfo_suite());
}
