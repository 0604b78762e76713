#include "config.h"

/* Unit tests for lib/collect/diskstats.c. */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "collect/diskstats.h"
#include "util/readfile.h"
#include "util/scan.h"
#include "tw_check.h"
#include "util/error.h"

#define ALL17 UINT32_C(0x1ffff)

/* Read one file of tests/fixtures/collectors/diskstats into b. */
static void
load(const char *name, struct tw_buf *b)
{
	int dfd = open(tw_fixture_path("collectors/diskstats"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(dfd, 0);
	ck_assert_int_eq(tw_read_file_at(dfd, name, b), TW_OK);
	close(dfd);
}

static void
parse_fixture(const char *name, struct tw_disk_set *s, struct tw_parse_stats *ps)
{
	struct tw_buf b;

	tw_buf_init(&b);
	load(name, &b);
	ck_assert_int_eq(tw_diskstats_parse(b.data, b.len, s, ps), TW_OK);
	tw_buf_free(&b);
}

static void
assert_values(const struct tw_disk_stat *d, const uint64_t *want, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ck_assert_msg(d->v[i] == want[i], "%s field %zu: %ju, want %ju", d->name, i,
		    (uintmax_t)d->v[i], (uintmax_t)want[i]);
	for (; i < TW_DISK_NFIELDS; i++)
		ck_assert_msg(d->v[i] == 0, "%s field %zu not 0", d->name, i);
}

START_TEST(test_debian12_vm)
{
	static const uint64_t vda[] = { 36392, 7940, 3019762, 14608, 20508, 8142, 1293008,
		7965, 0, 6716, 23298, 8830, 35, 443152, 594, 3091, 130 };
	char proc[4096];
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_disk_set s;
	struct tw_buf b;
	int fd;

	snprintf(proc, sizeof(proc), "%s", tw_fixture_path("debian12-vm/proc"));
	fd = open(proc, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(fd, 0);
	tw_disk_set_init(&s);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_diskstats_read(fd, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 10);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(s.count, 10);
	ck_assert_str_eq(s.disks[0].name, "loop0");
	ck_assert_uint_eq(s.disks[0].major, 7);
	ck_assert_uint_eq(s.disks[7].minor, 7);
	ck_assert_uint_eq(s.disks[0].present, ALL17);
	ck_assert_str_eq(s.disks[8].name, "vda");
	ck_assert_uint_eq(s.disks[8].major, 254);
	ck_assert_uint_eq(s.disks[8].minor, 0);
	ck_assert_uint_eq(s.disks[8].present, ALL17);
	assert_values(&s.disks[8], vda, 17);
	ck_assert_str_eq(s.disks[9].name, "zram0");
	ck_assert_uint_eq(s.disks[9].major, 253);

	/* _read clears the set; the stats keep adding up. */
	ck_assert_int_eq(tw_diskstats_read(fd, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(s.count, 10);
	ck_assert_uint_eq(ps.lines, 20);
	tw_buf_free(&b);
	tw_disk_set_free(&s);
	ck_assert_ptr_null(s.disks);
	close(fd);
}
END_TEST

START_TEST(test_linux26_partitions)
{
	static const uint64_t hda[] = { 446216, 784926, 9550688, 4382310, 424847, 312726,
		5922052, 19310380, 0, 3376340, 23705160 };
	static const uint64_t hda1[] = { 35486, 0, 38030, 0, 1200, 0, 9600 };
	static const uint64_t sda1[] = { 1563, 0, 49906, 0, 6277, 0, 50216 };
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_disk_set s;
	uint32_t part = TW_DISK_BIT(TW_DISK_READS) | TW_DISK_BIT(TW_DISK_SECTORS_READ) |
	    TW_DISK_BIT(TW_DISK_WRITES) | TW_DISK_BIT(TW_DISK_SECTORS_WRITTEN);

	ck_assert_uint_eq(part, 0x55);
	tw_disk_set_init(&s);
	parse_fixture("linux-2.6.txt", &s, &ps);
	ck_assert_uint_eq(ps.lines, 5);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(s.count, 5);
	ck_assert_str_eq(s.disks[0].name, "hda");
	ck_assert_uint_eq(s.disks[0].present, 0x7ff);
	assert_values(&s.disks[0], hda, 11);
	ck_assert_str_eq(s.disks[1].name, "hda1");
	ck_assert_uint_eq(s.disks[1].major, 3);
	ck_assert_uint_eq(s.disks[1].minor, 1);
	ck_assert_uint_eq(s.disks[1].present, part);
	assert_values(&s.disks[1], hda1, 7);
	ck_assert_str_eq(s.disks[4].name, "sda1");
	ck_assert_uint_eq(s.disks[4].present, part);
	assert_values(&s.disks[4], sda1, 7);
	tw_disk_set_free(&s);
}
END_TEST

START_TEST(test_linux419_discards)
{
	static const uint64_t nvme[] = { 118954, 2108, 7785602, 41286, 406201, 292815,
		18553488, 548330, 3, 183344, 611152, 1024, 5, 2097152, 37 };
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_disk_set s;

	tw_disk_set_init(&s);
	parse_fixture("linux-4.19.txt", &s, &ps);
	ck_assert_uint_eq(ps.lines, 2);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(s.count, 2);
	ck_assert_str_eq(s.disks[0].name, "nvme0n1");
	ck_assert_uint_eq(s.disks[0].major, 259);
	ck_assert_uint_eq(s.disks[0].present, 0x7fff);
	ck_assert(!(s.disks[0].present & TW_DISK_BIT(TW_DISK_FLUSHES)));
	assert_values(&s.disks[0], nvme, 15);
	ck_assert_str_eq(s.disks[1].name, "nvme0n1p1");
	ck_assert_uint_eq(s.disks[1].v[TW_DISK_SECTORS_READ], 14552);
	tw_disk_set_free(&s);
}
END_TEST

START_TEST(test_future_fields)
{
	static const uint64_t sda[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 17 };
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_disk_set s;

	tw_disk_set_init(&s);
	parse_fixture("future.txt", &s, &ps);
	/* sda's fields 18 and 19 are ignored; sdb's 18th is not a number. */
	ck_assert_uint_eq(ps.lines, 2);
	ck_assert_uint_eq(ps.malformed, 1);
	ck_assert_uint_eq(s.count, 1);
	ck_assert_str_eq(s.disks[0].name, "sda");
	ck_assert_uint_eq(s.disks[0].present, ALL17);
	assert_values(&s.disks[0], sda, 17);
	tw_disk_set_free(&s);
}
END_TEST

START_TEST(test_malformed_lines)
{
	static const uint64_t name31[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_disk_set s;

	tw_disk_set_init(&s);
	parse_fixture("malformed.txt", &s, &ps);
	ck_assert_uint_eq(ps.lines, 16);
	ck_assert_uint_eq(ps.malformed, 12);
	ck_assert_uint_eq(s.count, 4);

	ck_assert_str_eq(s.disks[0].name, "sda6");
	ck_assert_uint_eq(s.disks[0].present, ALL17);
	ck_assert(s.disks[0].v[TW_DISK_READS] == UINT64_MAX);
	ck_assert(s.disks[0].v[TW_DISK_FLUSH_TICKS] == UINT64_MAX);
	ck_assert_uint_eq(s.disks[0].v[TW_DISK_READS_MERGED], 0);

	ck_assert_str_eq(s.disks[1].name, "abcdefghijklmnopqrstuvwxyz01234");
	ck_assert_uint_eq(s.disks[1].present, 0x7ff);
	assert_values(&s.disks[1], name31, 11);

	ck_assert_str_eq(s.disks[2].name, "max");
	ck_assert_uint_eq(s.disks[2].major, UINT32_MAX);
	ck_assert_uint_eq(s.disks[2].minor, UINT32_MAX);
	ck_assert_uint_eq(s.disks[2].present, 0x55);
	ck_assert_uint_eq(s.disks[2].v[TW_DISK_SECTORS_WRITTEN], 4);

	ck_assert_str_eq(s.disks[3].name, "sdb");
	ck_assert_uint_eq(s.disks[3].present, 0xfff);
	ck_assert_uint_eq(s.disks[3].v[TW_DISK_DISCARDS], 12);
	tw_disk_set_free(&s);
}
END_TEST

START_TEST(test_crlf_and_empty)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_disk_set s;

	tw_disk_set_init(&s);
	parse_fixture("crlf.txt", &s, &ps);
	ck_assert_uint_eq(ps.lines, 2);
	ck_assert_uint_eq(ps.malformed, 2);
	ck_assert_uint_eq(s.count, 0);
	parse_fixture("empty.txt", &s, &ps);
	ck_assert_uint_eq(ps.lines, 2);
	ck_assert_uint_eq(ps.malformed, 2);
	ck_assert_uint_eq(s.count, 0);
	ck_assert_int_eq(tw_diskstats_parse("", 0, &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 2);
	tw_disk_set_free(&s);
}
END_TEST

START_TEST(test_embedded_nul)
{
	/* A NUL in the name, one in a counter, a line of NULs, then a good line. */
	static const char text[] =
	    "8 0 sd\0a 1 2 3 4\n"
	    "8 1 sdb 1 2\0 3 4\n"
	    "\0\0\0\n"
	    "8 2 sdc 5 6 7 8\n";
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_disk_set s;

	tw_disk_set_init(&s);
	ck_assert_int_eq(tw_diskstats_parse(text, sizeof(text) - 1, &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 4);
	ck_assert_uint_eq(ps.malformed, 3);
	ck_assert_uint_eq(s.count, 1);
	ck_assert_str_eq(s.disks[0].name, "sdc");
	ck_assert_uint_eq(s.disks[0].v[TW_DISK_SECTORS_WRITTEN], 8);
	tw_disk_set_free(&s);
}
END_TEST

/* A device's name, shown (util/escape.h) for everything but sysfs, which
 * is looked up by the kernel's own. */
START_TEST(test_names_shown)
{
	static const char text[] =
	    "8 0 sd\x01" "a 1 2 3 4\n"
	    "8 16 md_\xff\\x0a 1 2 3 4\n"
	    "8 32 r\xc3\xa4id 1 2 3 4\n"
	    "8 48 md_\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01 1 2 3 4\n";
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_disk_set s;

	tw_disk_set_init(&s);
	ck_assert_int_eq(tw_diskstats_parse(text, sizeof(text) - 1, &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(s.count, 4);
	ck_assert_str_eq(s.disks[0].name, "sd\\x01a");
	ck_assert_str_eq(s.disks[0].raw_name, "sd\x01" "a");
	ck_assert_str_eq(s.disks[1].name, "md_\\xff\\x5cx0a");
	ck_assert_str_eq(s.disks[1].raw_name, "md_\xff\\x0a");
	ck_assert_str_eq(s.disks[2].name, "r\xc3\xa4id");
	ck_assert_str_eq(s.disks[2].raw_name, "r\xc3\xa4id");
	/* Shown, ten escapes are 43 bytes: cut between two of them, at 31. */
	ck_assert_str_eq(s.disks[3].name, "md_\\x01\\x01\\x01\\x01\\x01\\x01\\x01");
	ck_assert_uint_eq(strlen(s.disks[3].raw_name), 13);
	tw_disk_set_free(&s);
}
END_TEST

START_TEST(test_parse_appends_and_grows)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_disk_set s;
	int i;

	tw_disk_set_init(&s);
	/* 40 parses of 5 lines: past the first allocation several times. */
	for (i = 0; i < 40; i++)
		parse_fixture("linux-2.6.txt", &s, &ps);
	ck_assert_uint_eq(s.count, 200);
	ck_assert_uint_ge(s.cap, 200);
	ck_assert_uint_eq(ps.lines, 200);
	ck_assert_str_eq(s.disks[199].name, "sda1");
	ck_assert_str_eq(s.disks[195].name, "hda");
	tw_disk_set_free(&s);
	ck_assert_uint_eq(s.count, 0);
	ck_assert_uint_eq(s.cap, 0);
}
END_TEST

START_TEST(test_field_bits)
{
	uint32_t mask = 0;
	int f;

	for (f = 0; f < TW_DISK_NFIELDS; f++) {
		unsigned bits = tw_disk_field_bits((enum tw_disk_field)f);

		ck_assert(bits == 32 || bits == 64);
		if (bits == 32)
			mask |= TW_DISK_BIT(f);
	}
	ck_assert_uint_eq(mask, TW_DISK_BIT(TW_DISK_READ_TICKS) |
	    TW_DISK_BIT(TW_DISK_WRITE_TICKS) | TW_DISK_BIT(TW_DISK_IN_FLIGHT) |
	    TW_DISK_BIT(TW_DISK_IO_TICKS) | TW_DISK_BIT(TW_DISK_WEIGHTED_TICKS) |
	    TW_DISK_BIT(TW_DISK_DISCARD_TICKS) | TW_DISK_BIT(TW_DISK_FLUSH_TICKS));
	ck_assert_uint_eq(mask, 0x14788);
	ck_assert_uint_eq(tw_disk_field_bits(TW_DISK_NFIELDS), 64);
}
END_TEST

static Suite *
diskstats_suite(void)
{
	Suite *s = suite_create("diskstats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_debian12_vm);
	tcase_add_test(tc, test_names_shown);
	tcase_add_test(tc, test_linux26_partitions);
	tcase_add_test(tc, test_linux419_discards);
	tcase_add_test(tc, test_future_fields);
	tcase_add_test(tc, test_malformed_lines);
	tcase_add_test(tc, test_crlf_and_empty);
	tcase_add_test(tc, test_embedded_nul);
	tcase_add_test(tc, test_parse_appends_and_grows);
	tcase_add_test(tc, test_field_bits);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(diskstats_suite());
}
