#include "config.h"

/* Unit tests for lib/collect/buddyinfo.c. */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "collect/buddyinfo.h"
#include "util/readfile.h"
#include "util/scan.h"
#include "tw_check.h"
#include "util/error.h"

#define TXT(s) (s), sizeof(s) - 1

static void
parse_fixture(const char *name, struct tw_buddy_set *s, struct tw_parse_stats *ps)
{
	struct tw_buf b;
	int dfd = open(tw_fixture_path("collectors/buddyinfo"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(dfd, 0);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_read_file_at(dfd, name, &b), TW_OK);
	ck_assert_int_eq(tw_buddyinfo_parse(b.data, b.len, s, ps), TW_OK);
	tw_buf_free(&b);
	close(dfd);
}

static void
assert_zone(const struct tw_buddy_zone *z, uint32_t node, const char *zone,
    const uint64_t *free, uint32_t n)
{
	uint32_t i;

	ck_assert_uint_eq(z->node, node);
	ck_assert_str_eq(z->zone, zone);
	ck_assert_uint_eq(z->norders, n);
	for (i = 0; i < n; i++)
		ck_assert_msg(z->free[i] == free[i], "%s order %u: %ju, want %ju", zone, i,
		    (uintmax_t)z->free[i], (uintmax_t)free[i]);
	for (; i < TW_BUDDY_MAX_ORDERS; i++)
		ck_assert_uint_eq(z->free[i], 0);
}

START_TEST(test_debian12_vm)
{
	static const uint64_t dma[] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 3 };
	static const uint64_t dma32[] = { 1, 1, 4, 2, 5, 4, 3, 3, 4, 2, 752 };
	static const uint64_t normal[] = { 303, 154, 311, 304, 169, 54, 22, 13, 18, 7, 296 };
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_buddy_set s;
	struct tw_buf b;
	int fd = open(tw_fixture_path("debian12-vm/proc"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_buddy_set_init(&s);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_buddyinfo_read(fd, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 3);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(s.count, 3);
	assert_zone(&s.zones[0], 0, "DMA", dma, 11);
	assert_zone(&s.zones[1], 0, "DMA32", dma32, 11);
	assert_zone(&s.zones[2], 0, "Normal", normal, 11);
	ck_assert_int_eq(tw_buddyinfo_read(fd, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(s.count, 3);
	tw_buf_free(&b);
	tw_buddy_set_free(&s);
	ck_assert_ptr_null(s.zones);
	close(fd);
}
END_TEST

START_TEST(test_numa_and_more_orders)
{
	static const uint64_t n0_normal[] = { 4381, 1093, 185, 1530, 567, 102, 4, 0, 0, 0, 0 };
	static const uint64_t n1_normal[] = { 700, 600, 500, 400, 300, 200, 100, 50, 25, 12, 6 };
	static const uint64_t n1_movable[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9 };
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_buddy_set s;

	tw_buddy_set_init(&s);
	parse_fixture("numa.txt", &s, &ps);
	ck_assert_uint_eq(ps.lines, 5);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(s.count, 5);
	assert_zone(&s.zones[2], 0, "Normal", n0_normal, 11);
	assert_zone(&s.zones[3], 1, "Normal", n1_normal, 11);
	assert_zone(&s.zones[4], 1, "Movable", n1_movable, 14);
	ck_assert_uint_eq(s.zones[1].free[0], 759);
	tw_buddy_set_free(&s);
}
END_TEST

START_TEST(test_malformed)
{
	static const uint64_t max[] = { UINT64_MAX };
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_buddy_set s;
	uint32_t i;

	tw_buddy_set_init(&s);
	parse_fixture("malformed.txt", &s, &ps);
	ck_assert_uint_eq(ps.lines, 13);
	ck_assert_uint_eq(ps.malformed, 11);
	ck_assert_uint_eq(s.count, 2);
	/* 32 orders is the most we hold; 33 is malformed. */
	ck_assert_str_eq(s.zones[0].zone, "Normal");
	ck_assert_uint_eq(s.zones[0].norders, 32);
	for (i = 0; i < 32; i++)
		ck_assert_uint_eq(s.zones[0].free[i], i);
	assert_zone(&s.zones[1], UINT32_MAX, "DMA", max, 1);

	/* A zone name of 15 bytes fits, 16 does not; NULs and CRs are not
	 * numbers. */
	ck_assert_int_eq(tw_buddyinfo_parse(TXT("Node 2, zone ABCDEFGHIJKLMNO 5\n"
	    "Node 2, zone ABCDEFGHIJKLMNOP 5\n"
	    "Node 2, zone DMA 1\0 2\n"
	    "Node 2, zone D\0MA 1 2\n"
	    "Node 2, zone DMA 1 2\r\n"), &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 18);
	ck_assert_uint_eq(ps.malformed, 15);
	ck_assert_uint_eq(s.count, 3);
	ck_assert_str_eq(s.zones[2].zone, "ABCDEFGHIJKLMNO");
	ck_assert_uint_eq(s.zones[2].node, 2);
	ck_assert_int_eq(tw_buddyinfo_parse(TXT(""), &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 18);
	/* A zone's name is the kernel's word: one that would need escaping
	 * (util/escape.h) is no zone, its line malformed. */
	ck_assert_int_eq(tw_buddyinfo_parse(TXT("Node 0, zone Nor\x01mal 5\n"
	    "Node 0, zone Nor\\x0amal 5\n"
	    "Node 0, zone Nor\xffmal 5\n"), &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 21);
	ck_assert_uint_eq(ps.malformed, 18);
	ck_assert_uint_eq(s.count, 3);
	tw_buddy_set_free(&s);
}
END_TEST

static Suite *
buddyinfo_suite(void)
{
	Suite *s = suite_create("buddyinfo");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_debian12_vm);
	tcase_add_test(tc, test_numa_and_more_orders);
	tcase_add_test(tc, test_malformed);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(buddyinfo_suite());
}
