/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/sample/pools.c and lib/view/view.c: the figures the MIB publishes,
 * from hand-built samples, with sysstat's formulas worked out by hand, and
 * a row found by its index. */
#include "config.h"

#include <stdint.h>

#include "sample/pools.h"
#include "tw_check.h"
#include "util/error.h"
#include "tw_sample_fixture.h"
#include "view/build.h"
#include "view/record_pool.h"
#include "figures/cache_record.h"
#include "view/view.h"
#include "window/window.h"

static const struct tw_view_settings settings = { "0.1.0", "Linux test", 5, 60 };

static const struct fx_disk sda_a = {
	8, 0, "sda", 100, 800, 50, 10, 80, 30, 0, 100, 200
};
static const struct fx_disk sda_b = {
	8, 0, "sda", 600, 8800, 1050, 110, 1680, 530, 2, 2600, 7700
};

#define COL(vd, c) ((vd)->col[c])
#define HAS(vd, c) (((vd)->has >> (c)) & 1)

START_TEST(test_view_disk_record)
{
	struct tw_window w;
	struct tw_sample s;
	struct tw_pool_set pools;
	struct tw_view v;
	const struct tw_view_disk *vd;

	tw_sample_init(&s);
	tw_pool_set_init(&pools);
	tw_view_init(&v);
	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);

	fx_sample_disks(&s, 1000, &sda_a, 1);
	s.queues[0].nr_requests = 64;
	strcpy(s.queues[0].scheduler, "mq-deadline");
	s.queues[0].rotational = 1;
	ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
	ck_assert_int_eq(tw_view_build(&v, &(struct tw_view_sources){ .settings = &settings,
	    .window = &w, .sample = &s, .pools = &pools }), TW_OK);
	ck_assert_uint_eq(v.ndisks, 1);
	vd = &v.disks[0];
	/* One sample: counters, but no windowed figure at all. */
	ck_assert(HAS(vd, TW_OID_DISK_READS));
	ck_assert(!HAS(vd, TW_OID_DISK_READ_LATENCY));
	ck_assert(!HAS(vd, TW_OID_DISK_UTIL));
	ck_assert(!HAS(vd, TW_OID_DISK_READ_OPS));
	ck_assert_uint_eq(COL(&v.agent, TW_OID_AGENT_WINDOW_SAMPLES), 1);

	fx_sample_disks(&s, 6000, &sda_b, 1);
	s.queues[0].nr_requests = 64;
	strcpy(s.queues[0].scheduler, "mq-deadline");
	s.queues[0].rotational = 1;
	ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
	ck_assert_int_eq(tw_view_build(&v, &(struct tw_view_sources){ .settings = &settings,
	    .window = &w, .sample = &s, .pools = &pools }), TW_OK);
	vd = &v.disks[0];
	ck_assert_str_eq(vd->name, "sda");
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_READS), 600);
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_WRITES), 110);
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_READ_BYTES), 8800 * 512);
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_WRITTEN_BYTES), 1680 * 512);
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_READ_TIME), 1050);
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_WRITE_TIME), 530);
	/* 500 reads in 5 s = 100.00/s; 100 writes = 20.00/s. */
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_READ_OPS), 10000);
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_WRITE_OPS), 2000);
	/* 8000 sectors * 512 / 5 s; 1600 * 512 / 5 s. */
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_READ_RATE), 819200);
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_WRITE_RATE), 163840);
	/* r_await 1000 ms / 500 = 2 ms; w_await 500 / 100 = 5 ms. */
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_READ_LATENCY), 2000);
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_WRITE_LATENCY), 5000);
	/* aqu-sz 7500 / 5000 = 1.50; %util 2500 / 5000 = 50.00. */
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_QUEUE_DEPTH), 150);
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_UTIL), 5000);
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_IN_FLIGHT), 2);
	ck_assert_str_eq(vd->scheduler, "mq-deadline");
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_NR_REQUESTS), 64);
	ck_assert(!HAS(vd, TW_OID_DISK_READ_AHEAD_KB));
	ck_assert(!HAS(vd, TW_OID_DISK_WBT_LATENCY));
	ck_assert_uint_eq(COL(vd, TW_OID_DISK_ROTATIONAL), 1);
	ck_assert_uint_eq(COL(&v.agent, TW_OID_AGENT_WINDOW_SAMPLES), 2);
	ck_assert_uint_eq(COL(&v.agent, TW_OID_AGENT_WINDOW_SPAN), 5000);
	ck_assert_uint_eq(COL(&v.agent, TW_OID_AGENT_SAMPLES), 2);
	ck_assert_uint_eq(COL(&v.agent, TW_OID_AGENT_INTERVAL), 5);
	ck_assert_uint_eq(COL(&v.agent, TW_OID_AGENT_WINDOW), 60);

	tw_view_free(&v);
	tw_window_free(&w);
	tw_pool_set_free(&pools);
	tw_sample_free(&s);
}
END_TEST

static void
set_sysctl(struct tw_sample *s, enum tw_sysctl_id id, const char *text)
{
	s->sysctl.v[id].rc = TW_OK;
	strcpy(s->sysctl.v[id].text, text);
	s->have |= TW_SRC_BIT(TW_SRC_SYSCTL);
}

static void
softnet_sample(struct tw_sample *s, uint64_t ms, uint32_t dropped, uint32_t squeeze)
{
	tw_sample_clear(s);
	s->mono_ms = ms;
	if (s->softnet.cap < 1) {
		s->softnet.cpus = calloc(1, sizeof(*s->softnet.cpus));
		s->softnet.cap = 1;
	}
	memset(&s->softnet.cpus[0], 0, sizeof(s->softnet.cpus[0]));
	s->softnet.cpus[0].cpu = 1;
	s->softnet.cpus[0].ncols = 13;
	s->softnet.cpus[0].cpu_from_column = 1;
	s->softnet.cpus[0].has_backlog = 1;
	s->softnet.cpus[0].backlog_len = 7;
	s->softnet.cpus[0].dropped = dropped;
	s->softnet.cpus[0].time_squeeze = squeeze;
	s->softnet.count = 1;
	s->have |= TW_SRC_BIT(TW_SRC_SOFTNET);
	set_sysctl(s, TW_SYSCTL_NET_CORE_NETDEV_MAX_BACKLOG, "1000");
	set_sysctl(s, TW_SYSCTL_NET_CORE_NETDEV_BUDGET, "300");
	set_sysctl(s, TW_SYSCTL_NET_IPV4_TCP_MEM, "45000 60000 90000");
	s->sock.present = (1u << TW_SOCK_TCP_MEM) | (1u << TW_SOCK_TCP_INUSE);
	s->sock.v[TW_SOCK_TCP_MEM] = 12;
	s->have |= TW_SRC_BIT(TW_SRC_SOCKSTAT);
}

static const struct tw_view_pool *
find_pool(const struct tw_view *v, uint32_t cls, uint32_t instance)
{
	size_t i;

	for (i = 0; i < v->npools; i++)
		if (v->pools[i].cls == cls && v->pools[i].instance == instance)
			return &v->pools[i];
	return NULL;
}

START_TEST(test_view_pools)
{
	struct tw_window w;
	struct tw_sample s;
	struct tw_pool_set pools;
	struct tw_view v;
	const struct tw_view_pool *p;

	tw_sample_init(&s);
	tw_pool_set_init(&pools);
	tw_view_init(&v);
	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);

	/* dropped wraps at 2^32: 4294967290 -> 5 is 11 drops. */
	softnet_sample(&s, 0, 4294967290u, 1);
	ck_assert_int_eq(tw_pools_build(&s, &pools), TW_OK);
	ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
	softnet_sample(&s, 60000, 5, 3);
	ck_assert_int_eq(tw_pools_build(&s, &pools), TW_OK);
	ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
	ck_assert_int_eq(tw_view_build(&v, &(struct tw_view_sources){ .settings = &settings,
	    .window = &w, .sample = &s, .pools = &pools }), TW_OK);

	/* Sorted by (class, instance): backlog, budget, tcp memory. */
	ck_assert_uint_eq(v.npools, 3);
	p = find_pool(&v, TW_DBLOCK_SOFTNET_BACKLOG, 1);
	ck_assert_ptr_eq(p, &v.pools[0]);
	ck_assert_str_eq(p->name, "cpu1 backlog");
	ck_assert_str_eq(p->tunable, "net.core.netdev_max_backlog");
	ck_assert_uint_eq(COL(p, TW_OID_DBLOCK_IN_USE), 7);
	ck_assert_uint_eq(COL(p, TW_OID_DBLOCK_LIMIT), 1000);
	ck_assert_uint_eq(COL(p, TW_OID_DBLOCK_FREE), 993);
	ck_assert_uint_eq(COL(p, TW_OID_DBLOCK_RECENT_FAILURES), 11);
	ck_assert_uint_eq(COL(p, TW_OID_DBLOCK_FAILURES), UINT64_C(4294967290) + 11);
	ck_assert(!HAS(p, TW_OID_DBLOCK_SIZE));

	p = find_pool(&v, TW_DBLOCK_SOFTNET_BUDGET, 1);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(COL(p, TW_OID_DBLOCK_RECENT_FAILURES), 2);
	ck_assert_uint_eq(COL(p, TW_OID_DBLOCK_LIMIT), 300);

	/* tcp memory: 12 pages in use of tcp_mem's third value, 90000; no
	 * TcpExt counters in this sample, so no failure columns. */
	p = find_pool(&v, TW_DBLOCK_TCP_MEMORY, 0);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(COL(p, TW_OID_DBLOCK_IN_USE), 12);
	ck_assert_uint_eq(COL(p, TW_OID_DBLOCK_LIMIT), 90000);
	ck_assert_uint_eq(COL(p, TW_OID_DBLOCK_FREE), 89988);
	ck_assert_uint_eq(COL(p, TW_OID_DBLOCK_SIZE), 4096);
	ck_assert(!HAS(p, TW_OID_DBLOCK_FAILURES));
	ck_assert(!HAS(p, TW_OID_DBLOCK_RECENT_FAILURES));

	/* Tunables come out with their 1-based index and the kernel's text. */
	ck_assert_str_eq(tw_view_tunable(&v, "net.ipv4.tcp_mem"), "45000 60000 90000");
	ck_assert_ptr_null(tw_view_tunable(&v, "vm.swappiness"));

	tw_view_free(&v);
	tw_window_free(&w);
	tw_pool_set_free(&pools);
	tw_sample_free(&s);
}
END_TEST

/* TCP's time in memory pressure: cumulative and within the window, on
 * the tcp memory pool only. 600 ms, then 10,600 and 20,600 ten seconds
 * apart, with a window of one interval: 10,000 in it. */
START_TEST(test_view_pressure_time)
{
	static const uint64_t ms[] = { 600, 10600, 20600 };
	struct tw_window w;
	struct tw_sample s;
	struct tw_pool_set pools;
	struct tw_view v;
	const struct tw_view_pool *p;
	struct tw_pool_record pf;
	size_t i;

	tw_sample_init(&s);
	tw_pool_set_init(&pools);
	tw_view_init(&v);
	ck_assert_int_eq(tw_window_init(&w, 1), TW_OK);
	for (i = 0; i < 3; i++) {
		softnet_sample(&s, 10000 * (uint64_t)i, 0, 0);
		s.have_tcp_pressure = 1;
		s.tcp_pressure_ms = ms[i];
		ck_assert_int_eq(tw_pools_build(&s, &pools), TW_OK);
		ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
	}
	ck_assert_int_eq(tw_view_build(&v, &(struct tw_view_sources){ .settings = &settings,
	    .window = &w, .sample = &s, .pools = &pools }), TW_OK);
	p = find_pool(&v, TW_DBLOCK_TCP_MEMORY, 0);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(COL(p, TW_OID_DBLOCK_PRESSURE_TIME), 20600);
	ck_assert_uint_eq(COL(p, TW_OID_DBLOCK_RECENT_PRESSURE_TIME), 10000);
	tw_view_pool_record(p, &pf);
	ck_assert_double_eq_tol(pf.recent_pressure_ms, 10000, 1e-9);
	p = find_pool(&v, TW_DBLOCK_SOFTNET_BACKLOG, 1);
	ck_assert(!HAS(p, TW_OID_DBLOCK_PRESSURE_TIME));
	ck_assert(!HAS(p, TW_OID_DBLOCK_RECENT_PRESSURE_TIME));
	tw_view_free(&v);
	tw_window_free(&w);
	tw_pool_set_free(&pools);
	tw_sample_free(&s);
}
END_TEST

START_TEST(test_view_bufcache)
{
	struct tw_window w;
	struct tw_sample s;
	struct tw_pool_set pools;
	struct tw_view v;
	struct tw_proc_io a = { 10, 100, 1000, 0, 1 }, b = { 10, 100, 11000, 1000, 1 };
	int i;

	tw_sample_init(&s);
	tw_pool_set_init(&pools);
	tw_view_init(&v);
	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	for (i = 0; i < 2; i++) {
		tw_sample_clear(&s);
		s.mono_ms = 1000 + 5000 * (uint64_t)i;
		s.have = TW_SRC_BIT(TW_SRC_MEMINFO) | TW_SRC_BIT(TW_SRC_VMSTAT) |
		    TW_SRC_BIT(TW_SRC_PROCIO) | TW_SRC_BIT(TW_SRC_PSI_MEMORY);
		s.mem.present = (1u << TW_MEM_CACHED) | (1u << TW_MEM_DIRTY);
		s.mem.bytes[TW_MEM_CACHED] = UINT64_C(6) << 30;
		s.mem.bytes[TW_MEM_DIRTY] = 4096;
		s.vm.present = (1u << TW_VM_REFAULT_FILE) | (1u << TW_VM_PGMAJFAULT) |
		    (1u << TW_VM_PGPGIN);
		/* refaults +500 in 5 s: 100.00/s; majfaults +10: 2.00/s;
		 * pgpgin +5000 KiB: 1000.00 KiB/s. */
		s.vm.v[TW_VM_REFAULT_FILE] = 1000 + 500 * (uint64_t)i;
		s.vm.v[TW_VM_PGMAJFAULT] = 10 + 10 * (uint64_t)i;
		s.vm.v[TW_VM_PGPGIN] = 4000 + 5000 * (uint64_t)i;
		s.psi_memory.has_some = 1;
		s.psi_memory.some.avg10 = 123;
		s.procs.procs = i == 0 ? &a : &b;
		s.procs.count = 1;
		ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
	}
	ck_assert_int_eq(tw_view_build(&v, &(struct tw_view_sources){ .settings = &settings,
	    .window = &w, .sample = &s, .pools = &pools }), TW_OK);
	ck_assert_uint_eq(COL(&v.bc, TW_OID_BC_CACHED), UINT64_C(6) << 30);
	ck_assert_uint_eq(COL(&v.bc, TW_OID_BC_DIRTY), 4096);
	ck_assert(!HAS(&v.bc, TW_OID_BC_BUFFERS));
	ck_assert_uint_eq(COL(&v.bc, TW_OID_BC_REFAULTS), 1500);
	ck_assert_uint_eq(COL(&v.bc, TW_OID_BC_REFAULT_RATE), 10000);
	ck_assert_uint_eq(COL(&v.bc, TW_OID_BC_MAJOR_FAULTS), 20);
	ck_assert_uint_eq(COL(&v.bc, TW_OID_BC_MAJOR_FAULT_RATE), 200);
	ck_assert_uint_eq(COL(&v.bc, TW_OID_BC_PAGE_IN_RATE), 100000);
	ck_assert_uint_eq(COL(&v.bc, TW_OID_BC_MEMORY_PRESSURE), 123);
	ck_assert(!HAS(&v.bc, TW_OID_BC_IO_PRESSURE));
	/* 1 - 1000 / 10000 = 90.00 %. */
	ck_assert_uint_eq(COL(&v.bc, TW_OID_BC_READ_HIT_RATIO), 9000);
	ck_assert_uint_eq(COL(&v.bc, TW_OID_BC_LOGICAL_READ_BYTES), 10000);
	ck_assert_uint_eq(COL(&v.bc, TW_OID_BC_PHYSICAL_READ_BYTES), 1000);
	ck_assert_uint_eq(COL(&v.bc, TW_OID_BC_HIT_RATIO_PROCESSES), 1);
	ck_assert_str_eq(v.bc.method, TW_HIT_RATIO_METHOD);

	s.procs.procs = NULL;
	s.procs.count = 0;
	tw_view_free(&v);
	tw_window_free(&w);
	tw_pool_set_free(&pools);
	tw_sample_free(&s);
}
END_TEST

/* The view's names are shown, and twAgentUnprintableNames counts those
 * that had a byte escaped other than a backslash. A sample built by hand
 * with raw bytes in a name (no collector writes one) is shown too: the
 * view copies every string in through the tidy copy. */
/* A row found by its index, as lib/change finds the rows it watches; a
 * row between two others, or past the last, is not there. */
START_TEST(test_view_find)
{
	static struct tw_view_disk disks[3];
	static struct tw_view_pool pools[3];
	static struct tw_view_cgroup cgroups[4];
	struct tw_view v;
	size_t i;

	tw_view_init(&v);
	disks[0].major = 7, disks[0].minor = 0;
	disks[1].major = 8, disks[1].minor = 0;
	disks[2].major = 8, disks[2].minor = 16;
	pools[0].cls = 1, pools[0].instance = 5;
	pools[1].cls = 2, pools[1].instance = 0;
	pools[2].cls = 2, pools[2].instance = 3;
	for (i = 0; i < 4; i++)
		cgroups[i].index = (uint32_t)(10 * i + 1);
	v.disks = disks, v.ndisks = 3;
	v.pools = pools, v.npools = 3;
	v.cgroups = cgroups, v.ncgroups = 4;
	ck_assert_ptr_eq(tw_view_find_disk(&v, 8, 16), &disks[2]);
	ck_assert_ptr_eq(tw_view_find_disk(&v, 7, 0), &disks[0]);
	ck_assert_ptr_null(tw_view_find_disk(&v, 8, 1));
	ck_assert_ptr_null(tw_view_find_disk(&v, 9, 0));
	ck_assert_ptr_eq(tw_view_find_pool(&v, 2, 0), &pools[1]);
	ck_assert_ptr_eq(tw_view_find_pool(&v, 1, 5), &pools[0]);
	ck_assert_ptr_null(tw_view_find_pool(&v, 1, 6));
	ck_assert_ptr_eq(tw_view_find_cgroup(&v, 31), &cgroups[3]);
	ck_assert_ptr_eq(tw_view_find_cgroup(&v, 1), &cgroups[0]);
	ck_assert_ptr_null(tw_view_find_cgroup(&v, 20));
	ck_assert_ptr_null(tw_view_find_cgroup(&v, 0));
	v.ndisks = v.npools = v.ncgroups = 0;
	ck_assert_ptr_null(tw_view_find_disk(&v, 8, 16));
	ck_assert_ptr_null(tw_view_find_cgroup(&v, 1));
}
END_TEST

START_TEST(test_view_unprintable_names)
{
	static const struct fx_disk disks[] = {
		{ 8, 0, "sda\\x01", 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		{ 8, 16, "sdb", 0, 0, 0, 0, 0, 0, 0, 0, 0 },
		{ 8, 32, "raw\x1b[2J", 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	};
	struct tw_window w;
	struct tw_sample s;
	struct tw_pool_set pools;
	struct tw_view v;

	tw_sample_init(&s);
	tw_pool_set_init(&pools);
	tw_view_init(&v);
	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	fx_sample_disks(&s, 1000, disks, 3);
	strcpy(s.idents[1].alias, "user\\x5cx2dvg");	/* a backslash alone */
	strcpy(s.idents[1].stable_id, "naa.\\xff\\xfe");
	ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
	ck_assert_int_eq(tw_view_build(&v, &(struct tw_view_sources){ .settings = &settings,
	    .window = &w, .sample = &s, .pools = &pools }), TW_OK);
	ck_assert_str_eq(v.disks[0].name, "sda\\x01");
	ck_assert_str_eq(v.disks[2].name, "raw\\x1b[2J");
	ck_assert(HAS(&v.agent, TW_OID_AGENT_UNPRINTABLE_NAMES));
	/* sda's name, sdb's identifier and the third's name; not the alias. */
	ck_assert_uint_eq(COL(&v.agent, TW_OID_AGENT_UNPRINTABLE_NAMES), 3);
	tw_view_free(&v);
	tw_window_free(&w);
	tw_pool_set_free(&pools);
	tw_sample_free(&s);
}
END_TEST

static Suite *
view_suite(void)
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_view_disk_record);
	tcase_add_test(tc, test_view_pools);
	tcase_add_test(tc, test_view_pressure_time);
	tcase_add_test(tc, test_view_bufcache);
	tcase_add_test(tc, test_view_find);
	tcase_add_test(tc, test_view_unprintable_names);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(view_suite());
}
