/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Every collector against this machine's real /proc and /sys: the figures
 * must be sane and, on a real kernel, no line may be malformed. Exact
 * values belong to the fixture tests; these only hold on any Linux. */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "collect/blockqueue.h"
#include "collect/buddyinfo.h"
#include "collect/diskstats.h"
#include "collect/meminfo.h"
#include "collect/netstat.h"
#include "collect/pressure.h"
#include "collect/procio.h"
#include "util/readfile.h"
#include "util/scan.h"
#include "collect/protocols.h"
#include "collect/sockstat.h"
#include "collect/softnet.h"
#include "collect/sysctl.h"
#include "tw_check.h"
#include "util/error.h"
#include "collect/vmstat.h"

#define BIT(f) (UINT32_C(1) << (f))

static struct tw_roots roots;
static struct tw_buf scratch;

static void
setup(void)
{
	ck_assert_int_eq(tw_roots_open(&roots, "/proc", "/sys"), TW_OK);
	ck_assert_int_ge(roots.sys_fd, 0);
	tw_buf_init(&scratch);
}

static void
teardown(void)
{
	tw_buf_free(&scratch);
	tw_roots_close(&roots);
}

START_TEST(test_meminfo)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_meminfo m;

	ck_assert_int_eq(tw_meminfo_read(roots.proc_fd, &scratch, &m, &ps), TW_OK);
	ck_assert_uint_gt(ps.lines, 10);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert(m.present & BIT(TW_MEM_TOTAL));
	ck_assert(m.present & BIT(TW_MEM_CACHED));
	ck_assert_uint_gt(m.bytes[TW_MEM_TOTAL], 0);
	ck_assert_uint_ge(m.bytes[TW_MEM_TOTAL], m.bytes[TW_MEM_CACHED]);
	ck_assert_uint_ge(m.bytes[TW_MEM_TOTAL], m.bytes[TW_MEM_DIRTY]);
	ck_assert_uint_eq(m.bytes[TW_MEM_TOTAL] % 1024, 0);
}
END_TEST

START_TEST(test_diskstats_and_queues)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_disk_set s;
	struct dirent *de;
	size_t i, queues = 0;
	DIR *d;

	tw_disk_set_init(&s);
	ck_assert_int_eq(tw_diskstats_read(roots.proc_fd, &scratch, &s, &ps), TW_OK);
	ck_assert_uint_ge(s.count, 1);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(ps.lines, s.count);
	for (i = 0; i < s.count; i++) {
		uint32_t p = s.disks[i].present;

		/* The partition form, or at least the 11 fields of every
		 * kernel since 2.6 laid out contiguously. */
		ck_assert_msg(p == 0x55 || ((p & 0x7ff) == 0x7ff && (p & (p + 1)) == 0),
		    "%s: present %#x", s.disks[i].name, p);
		ck_assert_uint_gt(strlen(s.disks[i].name), 0);
	}
	tw_disk_set_free(&s);

	/* Every whole disk in /sys/block has a queue directory. */
	d = opendir("/sys/block");
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		struct tw_queue q;

		if (de->d_name[0] == '.')
			continue;
		ck_assert_msg(tw_queue_read(roots.sys_fd, de->d_name, &q) == TW_OK, "%s",
		    de->d_name);
		ck_assert(q.rotational == 0 || q.rotational == 1);
		ck_assert(q.read_ahead_kb >= 0);
		queues++;
	}
	closedir(d);
	ck_assert_uint_ge(queues, 1);
}
END_TEST

START_TEST(test_vmstat)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_vmstat vm;
	uint32_t need = BIT(TW_VM_PGPGIN) | BIT(TW_VM_PGPGOUT) | BIT(TW_VM_PGFAULT) |
	    BIT(TW_VM_PGMAJFAULT);

	ck_assert_int_eq(tw_vmstat_read(roots.proc_fd, &scratch, &vm, &ps), TW_OK);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(vm.present & need, need);
	ck_assert_uint_gt(vm.v[TW_VM_PGFAULT], 0);
	ck_assert_uint_ge(vm.v[TW_VM_PGFAULT], vm.v[TW_VM_PGMAJFAULT]);
}
END_TEST

START_TEST(test_pressure)
{
	static const char *const res[] = { "memory", "io" };
	size_t i;

	for (i = 0; i < 2; i++) {
		struct tw_parse_stats ps = { 0, 0 };
		struct tw_psi psi;
		int rc = tw_psi_read(roots.proc_fd, res[i], &scratch, &psi, &ps);

		/* Kernels before 4.20, or without PSI, have none. */
		if (rc == TW_E_ABSENT)
			continue;
		ck_assert_int_eq(rc, TW_OK);
		ck_assert_uint_eq(ps.malformed, 0);
		ck_assert_int_eq(psi.has_some, 1);
		ck_assert_uint_le(psi.some.avg10, 10000);
		ck_assert_uint_le(psi.some.avg300, 10000);
		if (psi.has_full)
			ck_assert_uint_le(psi.full.total_us, psi.some.total_us);
	}
}
END_TEST

START_TEST(test_softnet)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_softnet_set s;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	size_t i;

	tw_softnet_set_init(&s);
	ck_assert_int_eq(tw_softnet_read(roots.proc_fd, &scratch, &s, &ps), TW_OK);
	ck_assert_uint_ge(s.count, 1);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_int_ge(ncpu, 1);
	ck_assert_uint_le(s.count, (size_t)ncpu);
	for (i = 0; i < s.count; i++)
		ck_assert_uint_lt(s.cpus[i].cpu, (uint32_t)ncpu);
	tw_softnet_set_free(&s);
}
END_TEST

START_TEST(test_sockstat)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_sockstat ss;

	ck_assert_int_eq(tw_sockstat_read(roots.proc_fd, &scratch, &ss, &ps), TW_OK);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert(ss.present & BIT(TW_SOCK_TCP_INUSE));
	ck_assert(ss.present & BIT(TW_SOCK_TCP_MEM));
	ck_assert(ss.present & BIT(TW_SOCK_UDP_INUSE));
}
END_TEST

/* TCP keeps a memory count and a pressure state; UDP a count only. */
START_TEST(test_protocols)
{
	struct tw_parse_stats ps = { 0, 0 };
	const struct tw_protocol *tcp, *udp;
	struct tw_protocols p;

	ck_assert_int_eq(tw_protocols_read(roots.proc_fd, &scratch, &p, &ps), TW_OK);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(p.left_out, 0);
	tcp = tw_protocols_find(&p, "TCP");
	udp = tw_protocols_find(&p, "UDP");
	ck_assert_ptr_nonnull(tcp);
	ck_assert_ptr_nonnull(udp);
	ck_assert_int_ge(tcp->memory, 0);
	ck_assert_int_ne(tcp->pressure, TW_PROTO_PRESSURE_NI);
	ck_assert_int_ge(udp->memory, 0);
	ck_assert_int_eq(udp->pressure, TW_PROTO_PRESSURE_NI);
}
END_TEST

START_TEST(test_netstat)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_netstat_set s;
	uint64_t v;

	tw_netstat_set_init(&s);
	ck_assert_int_eq(tw_netstat_read(roots.proc_fd, &scratch, &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(ps.lines % 2, 0);
	ck_assert_int_eq(tw_netstat_get(&s, "Udp", "InDatagrams", &v), TW_OK);
	ck_assert_int_eq(tw_netstat_get(&s, "Udp", "RcvbufErrors", &v), TW_OK);
	/* Linux prints Tcp MaxConn as -1: no fixed limit. */
	ck_assert_int_eq(tw_netstat_get(&s, "Tcp", "MaxConn", &v), TW_OK);
	ck_assert(v == UINT64_MAX);
	ck_assert_int_eq(tw_netstat_get(&s, "TcpExt", "ListenOverflows", &v), TW_OK);
	tw_netstat_set_free(&s);
}
END_TEST

START_TEST(test_buddyinfo)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_buddy_set s;
	size_t i;

	tw_buddy_set_init(&s);
	ck_assert_int_eq(tw_buddyinfo_read(roots.proc_fd, &scratch, &s, &ps), TW_OK);
	ck_assert_uint_ge(s.count, 1);
	ck_assert_uint_eq(ps.malformed, 0);
	for (i = 0; i < s.count; i++)
		ck_assert_uint_eq(s.zones[i].norders, s.zones[0].norders);
	tw_buddy_set_free(&s);
}
END_TEST

START_TEST(test_sysctl)
{
	struct tw_sysctl_set set;
	int64_t v;
	int i;

	ck_assert_int_eq(tw_sysctl_read_all(roots.proc_fd, &set), TW_OK);
	ck_assert_int_eq(set.v[TW_SYSCTL_VM_DIRTY_RATIO].rc, TW_OK);
	ck_assert_int_eq(tw_sysctl_field(set.v[TW_SYSCTL_VM_DIRTY_RATIO].text, 0, &v), TW_OK);
	ck_assert_int_ge(v, 0);
	ck_assert_int_le(v, 100);
	ck_assert_int_eq(set.v[TW_SYSCTL_NET_IPV4_TCP_RMEM].rc, TW_OK);
	ck_assert_int_eq(tw_sysctl_field(set.v[TW_SYSCTL_NET_IPV4_TCP_RMEM].text, 2, &v), TW_OK);
	ck_assert_int_gt(v, 0);
	/* Whatever this kernel has reads as an integer or a list of them. */
	for (i = 0; i < TW_SYSCTL_COUNT; i++) {
		if (set.v[i].rc == TW_E_ABSENT)
			continue;
		ck_assert_msg(set.v[i].rc == TW_OK, "%s: rc %d",
		    tw_sysctl_name((enum tw_sysctl_id)i), set.v[i].rc);
		ck_assert_msg(tw_sysctl_field(set.v[i].text, 0, &v) == TW_OK, "%s: \"%s\"",
		    tw_sysctl_name((enum tw_sysctl_id)i), set.v[i].text);
	}
}
END_TEST

START_TEST(test_procio)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_proc_io_set s;
	int32_t self = (int32_t)getpid(), parent = (int32_t)getppid();
	size_t i;
	int found = 0;

	tw_proc_io_set_init(&s);
	ck_assert_int_eq(tw_procio_read_all(roots.proc_fd, self, &scratch, &s, &ps), TW_OK);
	ck_assert_uint_ge(s.count, 1);
	ck_assert_uint_eq(ps.malformed, 0);
	for (i = 0; i < s.count; i++) {
		ck_assert_int_ne(s.procs[i].pid, self);
		if (i > 0)
			ck_assert_int_lt(s.procs[i - 1].pid, s.procs[i].pid);
		if (s.procs[i].pid == parent || s.procs[i].pid == 1)
			found = 1;
	}
	ck_assert_msg(found, "neither our parent %d nor pid 1 among %zu processes "
	    "(%ju unreadable)", (int)parent, s.count, (uintmax_t)s.unreadable);
	tw_proc_io_set_free(&s);
}
END_TEST

static Suite *
realproc_suite(void)
{
	Suite *s = suite_create("realproc");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_meminfo);
	tcase_add_test(tc, test_diskstats_and_queues);
	tcase_add_test(tc, test_vmstat);
	tcase_add_test(tc, test_pressure);
	tcase_add_test(tc, test_softnet);
	tcase_add_test(tc, test_sockstat);
	tcase_add_test(tc, test_protocols);
	tcase_add_test(tc, test_netstat);
	tcase_add_test(tc, test_buddyinfo);
	tcase_add_test(tc, test_sysctl);
	tcase_add_test(tc, test_procio);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(realproc_suite());
}
