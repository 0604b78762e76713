#include "config.h"

/* Unit tests for lib/collect/sysctl.c. */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <unistd.h>

#include "collect/sysctl.h"
#include "tw_check.h"
#include "util/error.h"

/* What the debian12-vm capture holds, in enum order. */
static const char *const debian12[TW_SYSCTL_COUNT] = {
	"20", "10", "0", "0", "100", "60", "67584", "10",
	"1000", "300", "8000", "4194304", "212992", "4194304", "212992", "4096", "0",
	"287898 383867 575796", "4096 131072 33554432", "4096 16384 4194304",
	"575799 767734 1151598", "2048",
};

START_TEST(test_names)
{
	int i;

	ck_assert_int_eq(TW_SYSCTL_COUNT, 22);
	ck_assert_str_eq(tw_sysctl_name(TW_SYSCTL_VM_DIRTY_RATIO), "vm.dirty_ratio");
	ck_assert_str_eq(tw_sysctl_name(TW_SYSCTL_VM_WATERMARK_SCALE_FACTOR),
	    "vm.watermark_scale_factor");
	ck_assert_str_eq(tw_sysctl_name(TW_SYSCTL_NET_CORE_NETDEV_BUDGET_USECS),
	    "net.core.netdev_budget_usecs");
	ck_assert_str_eq(tw_sysctl_name(TW_SYSCTL_NET_IPV4_UDP_MEM), "net.ipv4.udp_mem");
	ck_assert_str_eq(tw_sysctl_name(TW_SYSCTL_NET_IPV4_TCP_MAX_SYN_BACKLOG),
	    "net.ipv4.tcp_max_syn_backlog");
	ck_assert_ptr_null(tw_sysctl_name(TW_SYSCTL_COUNT));
	ck_assert_ptr_null(tw_sysctl_name((enum tw_sysctl_id)-1));
	for (i = 0; i < TW_SYSCTL_COUNT; i++) {
		const char *n = tw_sysctl_name((enum tw_sysctl_id)i);

		ck_assert_ptr_nonnull(n);
		ck_assert_int_eq(tw_sysctl_lookup(n), i);
	}
	ck_assert_int_eq(tw_sysctl_lookup("net.ipv4.tcp_rmem"), TW_SYSCTL_NET_IPV4_TCP_RMEM);
	ck_assert_int_eq(tw_sysctl_lookup("vm.nope"), -1);
	ck_assert_int_eq(tw_sysctl_lookup("vm/dirty_ratio"), -1);
	ck_assert_int_eq(tw_sysctl_lookup("vm.dirty_ratio "), -1);
	ck_assert_int_eq(tw_sysctl_lookup(""), -1);
	ck_assert_int_eq(tw_sysctl_lookup(NULL), -1);
}
END_TEST

START_TEST(test_read_debian12_vm)
{
	struct tw_sysctl_set set;
	int i, fd = open(tw_fixture_path("debian12-vm/proc"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(tw_sysctl_read_all(fd, &set), TW_OK);
	for (i = 0; i < TW_SYSCTL_COUNT; i++) {
		ck_assert_msg(set.v[i].rc == TW_OK, "%s: rc %d",
		    tw_sysctl_name((enum tw_sysctl_id)i), set.v[i].rc);
		ck_assert_str_eq(set.v[i].text, debian12[i]);
	}
	close(fd);
}
END_TEST

START_TEST(test_read_handmade)
{
	struct tw_sysctl_set set;
	int i, fd = open(tw_fixture_path("collectors/sysctl/proc"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	memset(&set, 'x', sizeof(set));
	ck_assert_int_eq(tw_sysctl_read_all(fd, &set), TW_OK);
	ck_assert_int_eq(set.v[TW_SYSCTL_VM_DIRTY_RATIO].rc, TW_OK);
	ck_assert_str_eq(set.v[TW_SYSCTL_VM_DIRTY_RATIO].text, "15");
	/* Blanks around a value go, and each run of them between its fields
	 * (the kernel's tabs) is one space: a DisplayString holds no tab. */
	ck_assert_int_eq(set.v[TW_SYSCTL_VM_SWAPPINESS].rc, TW_OK);
	ck_assert_str_eq(set.v[TW_SYSCTL_VM_SWAPPINESS].text, "7");
	ck_assert_str_eq(set.v[TW_SYSCTL_NET_IPV4_TCP_RMEM].text, "4096 87380 6291456");
	/* 131 bytes do not fit in the 128-byte field. */
	ck_assert_int_eq(set.v[TW_SYSCTL_NET_IPV4_TCP_MEM].rc, TW_E_TOOBIG);
	ck_assert_str_eq(set.v[TW_SYSCTL_NET_IPV4_TCP_MEM].text, "");
	for (i = 0; i < TW_SYSCTL_COUNT; i++) {
		if (i == TW_SYSCTL_VM_DIRTY_RATIO || i == TW_SYSCTL_VM_SWAPPINESS ||
		    i == TW_SYSCTL_NET_IPV4_TCP_RMEM || i == TW_SYSCTL_NET_IPV4_TCP_MEM)
			continue;
		ck_assert_int_eq(set.v[i].rc, TW_E_ABSENT);
		ck_assert_str_eq(set.v[i].text, "");
	}
	close(fd);

	ck_assert_int_eq(tw_sysctl_read_all(-1, &set), TW_OK);
	for (i = 0; i < TW_SYSCTL_COUNT; i++)
		ck_assert_int_eq(set.v[i].rc, TW_E_ABSENT);
	ck_assert_int_eq(tw_sysctl_read_all(-1, NULL), TW_E_INVAL);
}
END_TEST

START_TEST(test_field)
{
	int64_t v = 0;

	ck_assert_int_eq(tw_sysctl_field("4096\t131072\t33554432", 0, &v), TW_OK);
	ck_assert_int_eq(v, 4096);
	ck_assert_int_eq(tw_sysctl_field("4096\t131072\t33554432", 1, &v), TW_OK);
	ck_assert_int_eq(v, 131072);
	ck_assert_int_eq(tw_sysctl_field("4096\t131072\t33554432", 2, &v), TW_OK);
	ck_assert_int_eq(v, 33554432);
	ck_assert_int_eq(tw_sysctl_field("4096\t131072\t33554432", 3, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_sysctl_field("  7 ", 0, &v), TW_OK);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(tw_sysctl_field("-1", 0, &v), TW_OK);
	ck_assert_int_eq(v, -1);
	ck_assert_int_eq(tw_sysctl_field("9223372036854775807", 0, &v), TW_OK);
	ck_assert(v == INT64_MAX);
	ck_assert_int_eq(tw_sysctl_field("9223372036854775808", 0, &v), TW_E_RANGE);
	ck_assert_int_eq(tw_sysctl_field("12abc 5", 0, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_sysctl_field("12abc 5", 1, &v), TW_OK);
	ck_assert_int_eq(v, 5);
	ck_assert_int_eq(tw_sysctl_field("", 0, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_sysctl_field("1 2", UINT_MAX, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_sysctl_field(NULL, 0, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_sysctl_field("1", 0, NULL), TW_E_INVAL);
	ck_assert_int_eq(v, 5);
}
END_TEST

static Suite *
sysctl_suite(void)
{
	Suite *s = suite_create("sysctl");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_read_debian12_vm);
	tcase_add_test(tc, test_read_handmade);
	tcase_add_test(tc, test_field);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(sysctl_suite());
}
