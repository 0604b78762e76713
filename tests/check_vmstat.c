#include "config.h"

/* Unit tests for lib/collect/vmstat.c. */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "util/readfile.h"
#include "util/scan.h"
#include "tw_check.h"
#include "util/error.h"
#include "collect/vmstat.h"

#define BIT(f) (UINT32_C(1) << (f))
/* The counters every kernel since 4.8 has; ALL with the dirty figures and
 * the host's reclaim, which a full /proc/vmstat has too. */
#define COUNTERS UINT32_C(0x1ff)
#define ALL (COUNTERS | BIT(TW_VM_PGSTEAL_HOST) | BIT(TW_VM_NR_DIRTY) | \
    BIT(TW_VM_NR_WRITEBACK) | BIT(TW_VM_DIRTY_THRESHOLD) | BIT(TW_VM_DIRTY_BG_THRESHOLD))

static void
parse_fixture(const char *name, struct tw_vmstat *vm, struct tw_parse_stats *ps)
{
	struct tw_buf b;
	int dfd = open(tw_fixture_path("collectors/vmstat"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(dfd, 0);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_read_file_at(dfd, name, &b), TW_OK);
	memset(vm, 0, sizeof(*vm));
	ck_assert_int_eq(tw_vmstat_parse(b.data, b.len, vm, ps), TW_OK);
	tw_buf_free(&b);
	close(dfd);
}

START_TEST(test_debian12_vm)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_vmstat vm;
	struct tw_buf b;
	int fd = open(tw_fixture_path("debian12-vm/proc"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_buf_init(&b);
	memset(&vm, 0xff, sizeof(vm));
	ck_assert_int_eq(tw_vmstat_read(fd, &b, &vm, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 192);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(vm.present, ALL);
	ck_assert_uint_eq(vm.v[TW_VM_PGPGIN], 1509881);
	ck_assert_uint_eq(vm.v[TW_VM_PGPGOUT], 646504);
	ck_assert_uint_eq(vm.v[TW_VM_PGFAULT], 3746617);
	ck_assert_uint_eq(vm.v[TW_VM_PGMAJFAULT], 1412);
	ck_assert_uint_eq(vm.v[TW_VM_REFAULT_FILE], 113702);
	ck_assert_uint_eq(vm.v[TW_VM_ACTIVATE_FILE], 19566);
	ck_assert_uint_eq(vm.v[TW_VM_COMPACT_STALL], 0);
	ck_assert_uint_eq(vm.v[TW_VM_COMPACT_FAIL], 0);
	ck_assert_uint_eq(vm.v[TW_VM_ALLOCSTALL], 0);
	ck_assert_uint_eq(vm.v[TW_VM_PGSTEAL_HOST], 0);
	ck_assert_uint_eq(vm.v[TW_VM_NR_DIRTY], 261);
	ck_assert_uint_eq(vm.v[TW_VM_NR_WRITEBACK], 0);
	ck_assert_uint_eq(vm.v[TW_VM_DIRTY_THRESHOLD], 1218880);
	ck_assert_uint_eq(vm.v[TW_VM_DIRTY_BG_THRESHOLD], 608695);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

START_TEST(test_linux54_split_allocstall)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_vmstat vm;

	parse_fixture("linux-5.4.txt", &vm, &ps);
	ck_assert_uint_eq(ps.lines, 13);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(vm.present, COUNTERS);
	/* Before 5.9 the refault counters had no _file suffix. */
	ck_assert_uint_eq(vm.v[TW_VM_REFAULT_FILE], 5000);
	ck_assert_uint_eq(vm.v[TW_VM_ACTIVATE_FILE], 700);
	ck_assert_uint_eq(vm.v[TW_VM_ALLOCSTALL], 1 + 2 + 40 + 3);
	ck_assert_uint_eq(vm.v[TW_VM_PGPGIN], 81920);
	ck_assert_uint_eq(vm.v[TW_VM_PGPGOUT], 40960);
	ck_assert_uint_eq(vm.v[TW_VM_PGFAULT], 999999);
	ck_assert_uint_eq(vm.v[TW_VM_PGMAJFAULT], 321);
	ck_assert_uint_eq(vm.v[TW_VM_COMPACT_STALL], 11);
	ck_assert_uint_eq(vm.v[TW_VM_COMPACT_FAIL], 4);
}
END_TEST

START_TEST(test_linux44_single_allocstall)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_vmstat vm;

	parse_fixture("linux-4.4.txt", &vm, &ps);
	ck_assert_uint_eq(ps.lines, 5);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(vm.present, BIT(TW_VM_PGPGIN) | BIT(TW_VM_PGPGOUT) |
	    BIT(TW_VM_PGFAULT) | BIT(TW_VM_PGMAJFAULT) | BIT(TW_VM_ALLOCSTALL));
	ck_assert_uint_eq(vm.v[TW_VM_ALLOCSTALL], 17);
	ck_assert_uint_eq(vm.v[TW_VM_PGPGOUT], 200);
	ck_assert_uint_eq(vm.v[TW_VM_REFAULT_FILE], 0);
}
END_TEST

/* The host's own reclaim: kswapd, direct, khugepaged and proactive, split
 * by zone before 4.8; not pgsteal_anon and _file, which hold cgroups'
 * reclaim too, nor a key that only starts like one. */
START_TEST(test_pgsteal_host)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_vmstat vm;

	parse_fixture("pgsteal-zones.txt", &vm, &ps);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(vm.present, BIT(TW_VM_PGSTEAL_HOST) | BIT(TW_VM_NR_DIRTY) |
	    BIT(TW_VM_NR_WRITEBACK) | BIT(TW_VM_DIRTY_THRESHOLD) | BIT(TW_VM_DIRTY_BG_THRESHOLD));
	ck_assert_uint_eq(vm.v[TW_VM_PGSTEAL_HOST], 1 + 20 + 300 + 4000);
	ck_assert_uint_eq(vm.v[TW_VM_NR_DIRTY], 10);
	ck_assert_uint_eq(vm.v[TW_VM_DIRTY_BG_THRESHOLD], 10);
}
END_TEST

START_TEST(test_refault_variants)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_vmstat vm;

	parse_fixture("refault-only.txt", &vm, &ps);
	ck_assert_uint_eq(vm.present, BIT(TW_VM_REFAULT_FILE));
	ck_assert_uint_eq(vm.v[TW_VM_REFAULT_FILE], 1234);

	/* The _file key wins whichever comes first. */
	parse_fixture("both.txt", &vm, &ps);
	ck_assert_uint_eq(vm.present, BIT(TW_VM_REFAULT_FILE) | BIT(TW_VM_ACTIVATE_FILE));
	ck_assert_uint_eq(vm.v[TW_VM_REFAULT_FILE], 60);
	ck_assert_uint_eq(vm.v[TW_VM_ACTIVATE_FILE], 20);
	ck_assert_uint_eq(ps.lines, 5);
	ck_assert_uint_eq(ps.malformed, 0);

	/* The sum wraps like the counters do. */
	parse_fixture("allocstall-wrap.txt", &vm, &ps);
	ck_assert_uint_eq(vm.present, BIT(TW_VM_ALLOCSTALL));
	ck_assert_uint_eq(vm.v[TW_VM_ALLOCSTALL], 1);
}
END_TEST

START_TEST(test_malformed)
{
	static const char nul[] = "pgpgin 5\0\npgpg\0out 6\npgfault 7\n";
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_vmstat vm;

	parse_fixture("malformed.txt", &vm, &ps);
	ck_assert_uint_eq(ps.lines, 8);
	ck_assert_uint_eq(ps.malformed, 7);
	ck_assert_uint_eq(vm.present, BIT(TW_VM_COMPACT_FAIL));
	ck_assert_uint_eq(vm.v[TW_VM_COMPACT_FAIL], 7);
	ck_assert_uint_eq(vm.v[TW_VM_PGPGIN], 0);

	memset(&vm, 0, sizeof(vm));
	ck_assert_int_eq(tw_vmstat_parse(nul, sizeof(nul) - 1, &vm, &ps), TW_OK);
	/* "pgpg\0out" is a well-formed line with a key we do not know. */
	ck_assert_uint_eq(ps.lines, 11);
	ck_assert_uint_eq(ps.malformed, 8);
	ck_assert_uint_eq(vm.present, BIT(TW_VM_PGFAULT));

	ck_assert_int_eq(tw_vmstat_parse("pgpgin 1\r\n", 10, &vm, &ps), TW_OK);
	ck_assert_uint_eq(ps.malformed, 9);
	ck_assert_int_eq(tw_vmstat_parse("", 0, &vm, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 12);
	ck_assert_uint_eq(vm.present, BIT(TW_VM_PGFAULT));
}
END_TEST

static Suite *
vmstat_suite(void)
{
	Suite *s = suite_create("vmstat");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_debian12_vm);
	tcase_add_test(tc, test_linux54_split_allocstall);
	tcase_add_test(tc, test_linux44_single_allocstall);
	tcase_add_test(tc, test_refault_variants);
	tcase_add_test(tc, test_pgsteal_host);
	tcase_add_test(tc, test_malformed);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(vmstat_suite());
}
