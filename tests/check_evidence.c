/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/advice/evidence.c together with the rules, for the
 * buffer cache, memory and the bounds each system puts on a knob: for each
 * rule, its precondition present gives its knob, the right way and within
 * the right bound; absent, no knob; and each "no tunable" case on its own,
 * with its exact words. The knob is what a check prints: the first rule of
 * the symptom that has something to change (plugins/advise.c). The disks'
 * are in check_evidence_disk.c. */
#include <math.h>

#include "tw_evidence.h"

START_TEST(test_swappiness_up_with_swap_in_use)
{
	static const struct kv old[] = { { "vm.swappiness", "60" }, { 0, 0 } };
	static const struct kv k58[] = {
		{ "vm.swappiness", "60" }, { "kernel.osrelease", "5.8.0" }, { 0, 0 },
	};
	static const struct kv k61[] = {
		{ "vm.swappiness", "150" }, { "kernel.osrelease", "6.1.0-18-amd64" }, { 0, 0 },
	};
	struct cache_case c;
	struct tw_suggestion s;
	struct tw_verdict v;

	cache(&c);
	ck_assert_int_eq(tw_evidence_cache_reads(&c.e, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_LOW_HIT_REFAULTS);
	ck_assert_str_eq(v.found[0].evidence, "hit ratio 75 % with 999 refaults/s, 50 % of "
	    "page-ins, 512 of 1024 MiB of swap in use, in the last 60 s");
	/* Before 5.8 (or unknown) the kernel takes at most 100. */
	ck_assert_str_eq(knob(TW_SYM_LOW_HIT_REFAULTS, TW_OS_LINUX, old, &s),
	    "vm.swappiness 60 -> 100 (e; capped at its maximum, 100; "
	    "Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_int_eq(s.dir, TW_ADV_UP);
	ck_assert_str_eq(knob(TW_SYM_LOW_HIT_REFAULTS, TW_OS_LINUX, k58, &s),
	    "vm.swappiness 60 -> 120 (e; Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_str_eq(knob(TW_SYM_LOW_HIT_REFAULTS, TW_OS_LINUX, k61, &s),
	    "vm.swappiness 150 -> 200 (e; capped at its maximum, 200; "
	    "Documentation/admin-guide/sysctl/vm.rst)");
}
END_TEST

START_TEST(test_no_tunable_no_swap)
{
	struct cache_case c;
	struct tw_verdict v;

	cache(&c);
	c.rec.swap_total_bytes = c.rec.swap_free_bytes = 0;
	ck_assert_int_eq(tw_evidence_cache_reads(&c.e, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "the working set does not fit in memory (hit ratio 75 % "
	    "with 999 refaults/s, no swap), so add memory, raise the memory limit of its cgroup if "
	    "the load runs in one, or reduce load");
}
END_TEST

START_TEST(test_no_tunable_swap_unused)
{
	struct cache_case c;
	struct tw_verdict v;

	cache(&c);
	c.rec.swap_free_bytes = c.rec.swap_total_bytes;
	ck_assert_int_eq(tw_evidence_cache_reads(&c.e, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "the working set does not fit in memory (hit ratio 75 % "
	    "with 999 refaults/s, 1024 MiB of swap, none in use), so add memory, raise the memory "
	    "limit of its cgroup if the load runs in one, or reduce load");
}
END_TEST

START_TEST(test_no_tunable_swap_unknown)
{
	struct cache_case c;
	struct tw_verdict v;

	cache(&c);
	c.rec.swap_total_bytes = TW_FIG_NONE;
	ck_assert_int_eq(tw_evidence_cache_reads(&c.e, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_ptr_nonnull(strstr(v.no_tunable, "swap not reported by the agent"));
}
END_TEST

/* SVR4 sizes its cache with NBUF; FreeBSD, like Linux, leaves it to the
 * VM system (tuning(7)). */
START_TEST(test_refaults_other_systems)
{
	static const struct kv sco[] = { { "NBUF", "0" }, { "NHBUF", "0" }, { 0, 0 } };
	const struct tw_advice_rule *r;
	struct cache_case c;
	struct tw_suggestion s;
	struct tw_verdict v;

	cache(&c);
	ck_assert_uint_eq(tw_advice_rules(TW_SYM_LOW_HIT_REFAULTS, &r), 3);
	c.rec.swap_total_bytes = c.rec.swap_free_bytes = 0;
	c.e.os = TW_OS_SVR4;
	ck_assert_int_eq(tw_evidence_cache_reads(&c.e, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	/* NBUF 0 is 10 % of memory chosen at boot: 2 is 20 %, not 0 * 2. */
	ck_assert_str_eq(knob(TW_SYM_LOW_HIT_REFAULTS, TW_OS_SVR4, sco, &s),
	    "NBUF 0 -> 2 (e; 0 means sized automatically at boot; 1-9 count tenths of memory; "
	    "needs a kernel relink and a reboot; SCO OpenServer Performance Guide)");
	c.e.os = TW_OS_FREEBSD;
	ck_assert_int_eq(tw_evidence_cache_reads(&c.e, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_ptr_nonnull(strstr(v.no_tunable, "no swap"));
	ck_assert_ptr_null(tw_advice_name(&r[1], TW_OS_FREEBSD));
}
END_TEST

START_TEST(test_readahead_up_only_when_reads_fill_the_window)
{
	static const struct kv kv[] = { { "queue/read_ahead_kb", "128" }, { 0, 0 } };
	struct cache_case c;
	struct tw_suggestion s;
	struct tw_verdict v;
	size_t i;

	cache(&c);
	c.rec.refaults_s = 10;		/* 40 KiB of 8000: few */
	c.disk.name = "sdb";
	c.e.disk = &c.disk;
	c.disk.read_ops_s = 100;
	c.disk.read_bytes_s = 100 * 128 * 1024.0;
	c.disk.read_ahead_kb = 128;
	ck_assert_int_eq(tw_evidence_cache_reads(&c.e, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_LOW_HIT_SEQUENTIAL);
	ck_assert_str_eq(v.found[0].evidence, "hit ratio 75 % with few refaults: data read once, "
	    "in reads of 128 KiB that fill sdb's read-ahead window of 128 KiB, in the last 60 s");
	ck_assert_str_eq(knob(TW_SYM_LOW_HIT_SEQUENTIAL, TW_OS_LINUX, kv, &s),
	    "queue/read_ahead_kb 128 -> 256 (e; per device; Documentation/block/queue-sysfs.rst)");

	/* Small reads: read-ahead is not at work; neither way is right. */
	c.disk.read_bytes_s = 100 * 8192.0;
	ck_assert_int_eq(tw_evidence_cache_reads(&c.e, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "hit ratio 75 % with few refaults: data is read once, in "
	    "device reads of 8 KiB on sdb, not the size of its read-ahead window (read_ahead_kb "
	    "128): the reader sets their size, so another window would not change them, and more "
	    "cache would not help");
	/* No verdict ever lowers read-ahead: nothing tells random reads that
	 * it inflates from a stream. */
	for (i = 0; i < v.nfound; i++)
		ck_assert_int_ne(v.found[i].sym, TW_SYM_RANDOM_READAHEAD);
}
END_TEST

/* A window smaller than the kernel's default that sequential reads fill,
 * at 100 reads/s or more: raised to the default in one step (a doubling
 * from 4 KiB took five); at the default or above, or too few reads, it is
 * not this rule's. */
START_TEST(test_readahead_small_window)
{
	static const struct kv kv4[] = { { "queue/read_ahead_kb", "4" }, { 0, 0 } };
	static const struct kv kv64[] = { { "queue/read_ahead_kb", "64" }, { 0, 0 } };
	struct cache_case c;
	struct tw_suggestion s;
	struct tw_verdict v;

	cache(&c);
	c.rec.hit_ratio_pct = TW_FIG_NONE;
	c.rec.refaults_s = 0;
	c.disk.name = "loop3";
	c.e.disk = &c.disk;
	c.disk.read_ops_s = 15000;
	c.disk.read_bytes_s = 15000 * 4096.0;
	c.disk.read_ahead_kb = 4;
	ck_assert(tw_evidence_small_window(c.disk.read_ops_s, c.disk.read_bytes_s, 4));
	ck_assert_int_eq(tw_evidence_cache_reads(&c.e, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_LOW_HIT_SEQUENTIAL);
	ck_assert_str_eq(v.found[0].evidence, "data read once, in 15000 reads/s of 4 KiB that "
	    "fill loop3's read-ahead window of 4 KiB, under the kernel's default of 128 KiB, in "
	    "the last 60 s");
	ck_assert_str_eq(knob(TW_SYM_LOW_HIT_SEQUENTIAL, TW_OS_LINUX, kv4, &s),
	    "queue/read_ahead_kb 4 -> 128 (e; per device; Documentation/block/queue-sysfs.rst)");
	ck_assert_str_eq(knob(TW_SYM_LOW_HIT_SEQUENTIAL, TW_OS_LINUX, kv64, &s),
	    "queue/read_ahead_kb 64 -> 128 (e; per device; Documentation/block/queue-sysfs.rst)");
	/* 99 reads a second: too few to be a wait worth a finding. */
	ck_assert(!tw_evidence_small_window(99, 99 * 4096.0, 4));
	/* At the default: not small. */
	ck_assert(!tw_evidence_small_window(15000, 15000 * 131072.0, 128));
	/* Reads under the window: read-ahead is not at work (random reads of
	 * 8-16 KiB at a window of 16 average 12 KiB: a random reader asks for
	 * what it reads). */
	ck_assert(!tw_evidence_small_window(15000, 15000 * 4096.0, 16));
	ck_assert(!tw_evidence_small_window(15000, 15000 * 12288.0, 16));
	ck_assert(tw_evidence_small_window(15000, 15000 * 15000.0, 16));
	ck_assert(!tw_evidence_small_window(15000, 15000 * 4096.0, -1));
	/* Reads far past the window: an O_DIRECT reader of 1 MiB at a window
	 * of 64 KiB sets its own size; one merged request in two is still
	 * the window's. */
	ck_assert(!tw_evidence_small_window(1000, 1000 * 1048576.0, 64));
	ck_assert(tw_evidence_small_window(1000, 1000 * 96.0 * 1024, 64));
	ck_assert(!tw_evidence_small_window(1000, 1000 * 97.0 * 1024, 64));
}
END_TEST

/* The host's own refaults are at most its host-wide reclaim: a cgroup at
 * its own limit refaults with none, and is not the host's cache too small. */
START_TEST(test_host_refaults_and_cgroups)
{
	struct cache_case c;
	struct tw_verdict v;

	cache(&c);
	c.rec.swap_free_bytes = c.rec.swap_total_bytes;
	ck_assert_double_eq(tw_evidence_host_refaults(&c.e), 999);
	c.rec.reclaim_s = 12.5;
	ck_assert_double_eq(tw_evidence_host_refaults(&c.e), 12.5);
	c.rec.reclaim_s = 5000;
	ck_assert_double_eq(tw_evidence_host_refaults(&c.e), 999);
	/* 999 refaults/s of which none the host's: 0 % of page-ins, read once. */
	c.rec.reclaim_s = 0;
	ck_assert_int_eq(tw_evidence_cache_reads(&c.e, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_ptr_nonnull(strstr(v.no_tunable, "data is read once"));
}
END_TEST

/* Writers at the dirty limit a tenth of the window or more while the disk
 * that took the writes has room: dirty_bytes up, sized from a second of its
 * writes; a busy disk, or no disk that writes, is not this rule's. */
START_TEST(test_dirty_limited)
{
	static const struct kv bytes[] = { { "vm.dirty_bytes", "8388608" },
		{ "vm.dirty_background_bytes", "2097152" },
		{ TW_ADVICE_SHORTFALL, "515899392" }, { 0, 0 } };
	static const struct kv ratio[] = { { "vm.dirty_bytes", "0" },
		{ "vm.dirty_ratio", "20" }, { 0, 0 } };
	struct cache_case c;
	struct tw_suggestion s;
	struct tw_verdict v;
	uint64_t shortfall = 7;

	cache(&c);
	c.rec.dirty_limited_pct = 87;
	c.rec.dirty_bytes = 7.5 * 1048576;
	c.rec.dirty_threshold_bytes = 8 * 1048576;
	c.rec.dirty_bg_threshold_bytes = 2 * 1048576;
	c.writer.name = "loop4";
	c.e.writer = &c.writer;
	c.writer.write_bytes_s = 250 * 1048576.0;
	c.writer.util_pct = 52;
	ck_assert(tw_evidence_dirty_limited(&c.e));
	ck_assert_int_eq(tw_evidence_cache_dirty(&c.e, &v, &shortfall), TW_OK);
	/* Twice a second of writes, less the limit: 500 - 8 MiB. */
	ck_assert_uint_eq(shortfall, 492 * 1048576);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_DIRTY_LIMITED);
	ck_assert_str_eq(v.found[0].evidence, "writers throttled at the dirty limit 87 % of the last "
	    "60 s (dirty and writeback 7.5 MiB, limit 8 MiB, background 2 MiB) while loop4, the "
	    "disk that took the writes, wrote 250 MiB/s at 52 % utilisation");
	/* 8 MiB and 492 MiB short: at most 16 times, 128 MiB. */
	ck_assert_str_eq(knob(TW_SYM_DIRTY_LIMITED, TW_OS_LINUX, bytes, &s),
	    "vm.dirty_bytes 8388608 -> 134217728 (e; sized to twice a second of the disk's writes, "
	    "at most 16 times the current value; Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert(s.flags & TW_SUG_SIZE_CAPPED);
	/* The ratio in force: it doubles. */
	ck_assert_str_eq(knob(TW_SYM_DIRTY_LIMITED, TW_OS_LINUX, ratio, &s),
	    "vm.dirty_ratio 20 -> 40 (e; Documentation/admin-guide/sysctl/vm.rst)");
	/* The disk busy: the disk holds the writers back, not the limit. */
	c.writer.util_pct = 95;
	ck_assert(!tw_evidence_dirty_limited(&c.e));
	ck_assert_int_eq(tw_evidence_cache_dirty(&c.e, &v, &shortfall), TW_E_INVAL);
	c.writer.util_pct = 52;
	/* Its writes queued (2 on average, TW_EVIDENCE_DEEP_QUEUE): they
	 * wait on the disk, and a higher limit lets more of them wait. */
	c.writer.w_await_ms = 2000;	/* at 1 write/s */
	c.writer.write_ops_s = 1;
	ck_assert(!tw_evidence_dirty_limited(&c.e));
	c.writer.w_await_ms = 1900;
	ck_assert(tw_evidence_dirty_limited(&c.e));
	c.rec.dirty_limited_pct = 9;
	ck_assert(!tw_evidence_dirty_limited(&c.e));
	c.rec.dirty_limited_pct = 87;
	c.e.writer = NULL;
	ck_assert(!tw_evidence_dirty_limited(&c.e));
}
END_TEST

START_TEST(test_no_tunable_read_once_no_disk)
{
	struct cache_case c;
	struct tw_verdict v;

	cache(&c);
	c.rec.refaults_s = 10;
	ck_assert_int_eq(tw_evidence_cache_reads(&c.e, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "hit ratio 75 % with few refaults: data is read once, so more "
	    "cache would not help");
}
END_TEST

START_TEST(test_pressure_in_reclaim_watermarks)
{
	static const struct kv wsf[] = {
		{ "vm.watermark_scale_factor", "10" }, { "vm.min_free_kbytes", "67584" }, { 0, 0 },
	};
	static const struct kv wsf_top[] = {
		{ "vm.watermark_scale_factor", "1000" }, { "vm.min_free_kbytes", "200000" },
		{ 0, 0 },
	};
	static const struct kv wsf_517[] = {
		{ "vm.watermark_scale_factor", "1000" }, { "kernel.osrelease", "5.17.1" }, { 0, 0 },
	};
	static const struct kv all_top[] = {
		{ "vm.watermark_scale_factor", "1000" }, { "vm.min_free_kbytes", "262144" },
		{ 0, 0 },
	};
	struct cache_case c;
	struct tw_suggestion s;
	struct tw_verdict v;

	cache(&c);
	c.rec.refaults_s = 10;
	c.rec.memory_pressure_pct = 12.5;
	ck_assert_int_eq(tw_evidence_cache_pressure(&c.e, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_MEMORY_PRESSURE);
	ck_assert_str_eq(v.found[0].evidence, "memory pressure 12.5 % (tasks stalled, 10 s "
	    "average) with 10 refaults/s: the stalls are in reclaim");
	ck_assert_str_eq(knob(TW_SYM_MEMORY_PRESSURE, TW_OS_LINUX, wsf, &s),
	    "vm.watermark_scale_factor 10 -> 20 (e; Documentation/admin-guide/sysctl/vm.rst)");
	/* At 1000 on a kernel not known to take more: min_free_kbytes, which
	 * stops at the kernel's own ceiling of 262144. */
	ck_assert_str_eq(knob(TW_SYM_MEMORY_PRESSURE, TW_OS_LINUX, wsf_top, &s),
	    "vm.min_free_kbytes 200000 -> 262144 (e; capped at its maximum, 262144; "
	    "Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_str_eq(knob(TW_SYM_MEMORY_PRESSURE, TW_OS_LINUX, wsf_517, &s),
	    "vm.watermark_scale_factor 1000 -> 2000 (e; Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_ptr_null(knob(TW_SYM_MEMORY_PRESSURE, TW_OS_LINUX, all_top, &s));
}
END_TEST

START_TEST(test_no_tunable_pressure_thrashing)
{
	struct cache_case c;
	struct tw_verdict v;

	cache(&c);
	c.rec.memory_pressure_pct = 12.5;
	ck_assert_int_eq(tw_evidence_cache_pressure(&c.e, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "tasks stall on memory (pressure 12.5 %) while 999 pages/s "
	    "are read back: the working set does not fit (512 of 1024 MiB of swap in use), so add "
	    "memory or reduce load");
}
END_TEST

/* ---- High-order pages */

START_TEST(test_highorder_needs_blocks_gone_and_stalls)
{
	static const struct kv kv[] = {
		{ "vm.watermark_scale_factor", "10" }, { "vm.min_free_kbytes", "67584" }, { 0, 0 },
	};
	struct tw_highorder_figures h = { 40, 1, 3, 1, 4.2, 60 };
	struct tw_suggestion s;
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_highorder(&h, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_HIGHORDER_FAIL);
	ck_assert_str_eq(v.found[0].evidence, "compaction failed 40 times with 3 free blocks of "
	    "32 KiB or more left outside DMA and tasks stalled on memory (pressure 4.2 %), in the "
	    "last 60 s");
	/* vm.rst's knob for allocation stalls first, min_free_kbytes after. */
	ck_assert_str_eq(knob(TW_SYM_HIGHORDER_FAIL, TW_OS_LINUX, kv, &s),
	    "vm.watermark_scale_factor 10 -> 20 (e; Documentation/admin-guide/sysctl/vm.rst)");
}
END_TEST

START_TEST(test_no_tunable_highorder_blocks_left)
{
	struct tw_highorder_figures h = { 40, 1, 5000, 1, 4.2, 60 };
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_highorder(&h, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "compaction failed 40 times in the last 60 s, but 5000 free "
	    "blocks of 32 KiB or more remain: a failed compaction run is retried after reclaim, "
	    "not an allocation failure");
}
END_TEST

START_TEST(test_no_tunable_highorder_no_stalls)
{
	struct tw_highorder_figures h = { 40, 1, 3, 1, 0, 60 };
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_highorder(&h, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "compaction failed 40 times in the last 60 s, but no task "
	    "stalled on memory (pressure 0 %): a failed compaction run is retried after reclaim, "
	    "not an allocation failure");
}
END_TEST

START_TEST(test_no_tunable_highorder_no_figures)
{
	struct tw_highorder_figures h = { 40, 0, 0, 0, 0, 60 };
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_highorder(&h, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "compaction failed 40 times in the last 60 s, but the agent "
	    "shows no free-block figures, so an allocation failure is not shown");
}
END_TEST

/* ---- Bounds the kernels enforce */

/* Pruned receive queues name tcp_rmem only when TCP was not in memory
 * pressure in the window; under pressure the prunes are tcp_mem's. */
START_TEST(test_tcp_prune_under_pressure)
{
	struct tw_tcp_prune_figures f = { 157, 0, 10, 0, 0 };
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_tcp_prune(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_TCP_PRUNE);
	ck_assert_str_eq(v.found[0].evidence,
	    "157 segments were dropped or pruned from receive queues in the last 10 s");
	f.pressures = 2;
	ck_assert_int_eq(tw_evidence_tcp_prune(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_int_eq(v.no_tunable_sym, TW_SYM_TCP_PRUNE);
	ck_assert_str_eq(v.no_tunable,
	    "157 segments were dropped or pruned from receive queues in the last 10 s while TCP "
	    "entered memory pressure 2 times: net.ipv4.tcp_mem bounds them (see tcp memory), and "
	    "a larger tcp_rmem would ask for more of what ran out");
	/* In pressure through the window without entering it there: still
	 * tcp_mem's, with the time said. */
	f.pressures = 0;
	f.have_pressure_ms = 1;
	f.pressure_ms = 9800;
	ck_assert_int_eq(tw_evidence_tcp_prune(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable,
	    "157 segments were dropped or pruned from receive queues in the last 10 s while TCP "
	    "was in memory pressure 9.8 s of them: net.ipv4.tcp_mem bounds them (see tcp "
	    "memory), and a larger tcp_rmem would ask for more of what ran out");
	/* The figure known and 0: no pressure, tcp_rmem's. */
	f.pressure_ms = 0;
	ck_assert_int_eq(tw_evidence_tcp_prune(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(tw_evidence_tcp_prune(NULL, &v), TW_E_INVAL);
}
END_TEST

START_TEST(test_kernel_release)
{
	ck_assert_uint_eq(tw_advice_kernel("6.1.0-18-amd64"), TW_KERNEL(6, 1));
	ck_assert_uint_eq(tw_advice_kernel("4.19"), TW_KERNEL(4, 19));
	ck_assert_uint_eq(tw_advice_kernel("5.17.1"), TW_KERNEL(5, 17));
	ck_assert_uint_eq(tw_advice_kernel("6.18.44-fc-v782"), TW_KERNEL(6, 18));
	ck_assert_uint_eq(tw_advice_kernel("4000000"), 0);
	ck_assert_uint_eq(tw_advice_kernel("6"), 0);
	ck_assert_uint_eq(tw_advice_kernel("6.x"), 0);
	ck_assert_uint_eq(tw_advice_kernel("6.1000"), 0);
	ck_assert_uint_eq(tw_advice_kernel(""), 0);
	ck_assert_uint_eq(tw_advice_kernel(NULL), 0);
	ck_assert_uint_lt(TW_KERNEL(5, 16), TW_KERNEL(5, 17));
	ck_assert_uint_lt(TW_KERNEL(4, 99), TW_KERNEL(5, 0));
}
END_TEST

START_TEST(test_somaxconn_by_release)
{
	static const struct kv old[] = {
		{ "net.core.somaxconn", "40000" }, { "kernel.osrelease", "3.16.0-4-amd64" }, { 0, 0 },
	};
	static const struct kv k41[] = {
		{ "net.core.somaxconn", "40000" }, { "kernel.osrelease", "4.1.0" }, { 0, 0 },
	};
	const struct tw_advice_rule *r;
	struct tw_suggestion s;

	/* A u16 backlog before 4.1: 65535 is the most it takes. */
	ck_assert_str_eq(knob(TW_SYM_LISTEN_OVERFLOW, TW_OS_LINUX, old, &s),
	    "net.core.somaxconn 40000 -> 65535 (e; capped at its maximum, 65535; "
	    "Documentation/networking/ip-sysctl.rst)");
	ck_assert_str_eq(knob(TW_SYM_LISTEN_OVERFLOW, TW_OS_LINUX, k41, &s),
	    "net.core.somaxconn 40000 -> 80000 (e; Documentation/networking/ip-sysctl.rst)");
	/* Only the accept queue is advised on: tcp_max_syn_backlog is gone. */
	ck_assert_uint_eq(tw_advice_rules(TW_SYM_LISTEN_OVERFLOW, &r), 1);
}
END_TEST

START_TEST(test_freebsd_bounds)
{
	static const struct kv isr[] = {
		{ "net.isr.defaultqlimit", "400" }, { "net.isr.maxqlimit", "512" }, { 0, 0 },
	};
	static const struct kv isr_default[] = { { "net.isr.defaultqlimit", "8000" }, { 0, 0 } };
	static const struct kv burst[] = { { "kern.polling.burst_max", "600" }, { 0, 0 } };
	static const struct kv run[] = {
		{ "vfs.hirunningspace", "16777216" }, { "vfs.lorunningspace", "11206656" }, { 0, 0 },
	};
	struct tw_suggestion s;

	ck_assert_str_eq(knob(TW_SYM_SOFTNET_DROPS, TW_OS_FREEBSD, isr, &s),
	    "net.isr.defaultqlimit 400 -> 512 (e; capped at its maximum, 512; a loader tunable: "
	    "takes effect at the next boot; netisr.c)");
	/* maxqlimit unknown: its default, 10240. */
	ck_assert_str_eq(knob(TW_SYM_SOFTNET_DROPS, TW_OS_FREEBSD, isr_default, &s),
	    "net.isr.defaultqlimit 8000 -> 10240 (e; capped at its maximum, 10240; a loader "
	    "tunable: takes effect at the next boot; netisr.c)");
	ck_assert_str_eq(knob(TW_SYM_SOFTNET_SQUEEZE, TW_OS_FREEBSD, burst, &s),
	    "kern.polling.burst_max 600 -> 1000 (e; capped at its maximum, 1000; polling(4))");
	ck_assert_str_eq(knob(TW_SYM_QUEUE_FULL, TW_OS_FREEBSD, run, &s),
	    "vfs.hirunningspace 16777216 -> 11206656 (e; vfs_bio.c)");
}
END_TEST

START_TEST(test_svr4_automatic_and_tenths)
{
	static const struct kv nbuf3[] = { { "NBUF", "3" }, { 0, 0 } };
	static const struct kv nbuf9[] = { { "NBUF", "9" }, { 0, 0 } };
	static const struct kv nbuf_big[] = { { "NBUF", "300000" }, { 0, 0 } };
	static const struct kv nhbuf0[] = { { "NHBUF", "0" }, { 0, 0 } };
	static const struct kv nhbuf64[] = { { "NHBUF", "64" }, { 0, 0 } };
	const struct tw_advice_rule *r;
	struct tw_suggestion s;
	char line[512];

	ck_assert_uint_eq(tw_advice_rules(TW_SYM_LOW_HIT_REFAULTS, &r), 3);
	/* 3 is 30 % of memory: one tenth more, never 6 (60 %). */
	ck_assert_int_eq(tw_advice_suggest(&r[1], TW_OS_SVR4, lookup, (void *)nbuf3, &s), TW_OK);
	ck_assert_str_eq(s.proposed, "4");
	ck_assert(s.flags & TW_SUG_TENTHS);
	ck_assert_int_eq(tw_advice_suggest(&r[1], TW_OS_SVR4, lookup, (void *)nbuf9, &s), TW_OK);
	ck_assert(s.flags & TW_SUG_AT_LIMIT);
	ck_assert_int_eq(tw_advice_suggest(&r[1], TW_OS_SVR4, lookup, (void *)nbuf_big, &s),
	    TW_OK);
	ck_assert_str_eq(s.proposed, "450000");
	ck_assert(s.flags & TW_SUG_SATURATED);
	/* NHBUF 0 is sized at boot: no 0 * 2 = 1 hash queue. */
	ck_assert_int_eq(tw_advice_suggest(&r[2], TW_OS_SVR4, lookup, (void *)nhbuf0, &s), TW_OK);
	ck_assert_str_eq(s.proposed, "");
	ck_assert(s.flags & TW_SUG_AUTOMATIC);
	/* Nothing to turn: quiet, shown only when no other rule speaks. */
	ck_assert(s.flags & TW_SUG_NO_CHANGE);
	ck_assert_int_eq(tw_advice_format(&s, "e", line, sizeof(line)), TW_OK);
	ck_assert_str_eq(line, "NHBUF 0 is sized automatically (e; needs a kernel relink and a "
	    "reboot; SCO OpenServer Performance Guide)");
	ck_assert_int_eq(tw_advice_suggest(&r[2], TW_OS_SVR4, lookup, (void *)nhbuf64, &s), TW_OK);
	ck_assert_str_eq(s.proposed, "128");
}
END_TEST

/* snmptt removes these from a varbind's value (contrib/snmptt/tunewatch.conf):
 * evidence holding one would reach the NMS changed. */
#define SNMPTT_STRIPS ";[]<>$&*|?"

static size_t producer_texts;

static void
survives_snmptt(const struct tw_verdict *v)
{
	size_t i;

	for (i = 0; i < v->nfound; i++) {
		ck_assert_msg(strpbrk(v->found[i].evidence, SNMPTT_STRIPS) == NULL,
		    "snmptt would change: %s", v->found[i].evidence);
		producer_texts++;
	}
	ck_assert_msg(strpbrk(v->no_tunable, SNMPTT_STRIPS) == NULL, "snmptt would change: %s",
	    v->no_tunable);
	producer_texts += v->no_tunable[0] != '\0';
}

/* Every evidence producer over a grid of figures that reaches each of
 * its branches, unknown figures (NaN) included. */
START_TEST(test_every_evidence_survives_snmptt)
{
	static const double queues[] = { 0.5, 8 }, ops[] = { 0, 10, 500 };
	static const int rots[] = { -1, 0, 1 };
	static const char *const scheds[] = { NULL, "none", "mq-deadline" };
	static const int64_t ahead[] = { -1, 128, 4096 };
	struct tw_verdict v;
	size_t a, b, c, d, e;

	producer_texts = 0;
	for (a = 0; a < 2; a++)
		for (b = 0; b < 3; b++)
			for (c = 0; c < 3; c++)
				for (d = 0; d < 3; d++)
					for (e = 0; e < 3; e++) {
		struct tw_disk_record r;
		struct tw_disk_evidence f = { .rec = &r, .window_s = 60 };

		tw_disk_record_init(&r);
		r.name = "nvme0n1";
		r.r_await_ms = r.w_await_ms = e == 0 ? NAN : 40;
		r.queue_depth = queues[a];
		r.rotational = rots[b];
		r.scheduler = scheds[c];
		r.read_ops_s = ops[d];
		r.write_ops_s = ops[e];
		r.read_bytes_s = ops[d] * 131072;
		r.nr_requests = d == 0 ? -1 : 64;
		r.read_ahead_kb = ahead[e];
		ck_assert_int_eq(tw_evidence_disk_read(&f, &v), TW_OK);
		survives_snmptt(&v);
		ck_assert_int_eq(tw_evidence_disk_write(&f, &v), TW_OK);
		survives_snmptt(&v);
		ck_assert_int_eq(tw_evidence_probe_seek(&f, e != 0, 99, 40, &v), TW_OK);
		survives_snmptt(&v);
	}
	for (a = 0; a < 3; a++)
		for (b = 0; b < 3; b++)
			for (c = 0; c < 3; c++)
				for (d = 0; d < 3; d++) {
		struct cache_case f;

		cache(&f);
		/* Absent, given, and zero. */
		f.rec.hit_ratio_pct = a == 0 ? TW_FIG_NONE : a == 2 ? 0 : 60;
		f.rec.refaults_s = b == 0 ? TW_FIG_NONE : b == 2 ? 5000 : 1;
		f.e.refaults_bad = b == 2;
		if (c == 0)
			f.rec.swap_total_bytes = TW_FIG_NONE;
		else
			f.rec.swap_free_bytes = c == 2 ? f.rec.swap_total_bytes :
			    f.rec.swap_total_bytes / 2;
		f.rec.memory_pressure_pct = d * 20.0;
		f.disk.name = "sda";
		f.e.disk = d == 0 ? NULL : &f.disk;
		f.disk.read_ops_s = d * 100.0;
		f.disk.read_bytes_s = d * 100.0 * 131072;
		f.disk.read_ahead_kb = ahead[d];
		f.e.os = (enum tw_os)(c % 3);
		ck_assert_int_eq(tw_evidence_cache_reads(&f.e, &v), TW_OK);
		survives_snmptt(&v);
		ck_assert_int_eq(tw_evidence_cache_pressure(&f.e, &v), TW_OK);
		survives_snmptt(&v);
	}
	for (a = 0; a < 2; a++)
		for (b = 0; b < 3; b++)
			for (c = 0; c < 3; c++) {
		struct tw_highorder_figures h;
		struct tw_udp_rcvbuf_figures u;

		memset(&h, 0, sizeof(h));
		h.failures = 12;
		h.have_free = a;
		h.free_blocks = b * 20;
		h.have_psi = c > 0;
		h.psi = c == 2 ? 30 : 0;
		h.window_s = 60;
		ck_assert_int_eq(tw_evidence_highorder(&h, &v), TW_OK);
		survives_snmptt(&v);
		memset(&u, 0, sizeof(u));
		u.failures = 10;
		u.window_s = 60;
		u.sockets = a + b;
		u.at_max = c == 1;
		u.unknown = c == 2;
		ck_assert_int_eq(tw_evidence_udp_rcvbuf(&u, &v), TW_OK);
		survives_snmptt(&v);
		{
			struct tw_tcp_prune_figures t = { 10 + b, c, 60, a, 1500u * b };

			ck_assert_int_eq(tw_evidence_tcp_prune(&t, &v), TW_OK);
			survives_snmptt(&v);
		}
	}
	/* Each branch gave some text: the grid reached them. */
	ck_assert_uint_gt(producer_texts, 400);
}
END_TEST

static Suite *
evidence_suite(void)
{
	Suite *s = suite_create("evidence");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_swappiness_up_with_swap_in_use);
	tcase_add_test(tc, test_no_tunable_no_swap);
	tcase_add_test(tc, test_no_tunable_swap_unused);
	tcase_add_test(tc, test_no_tunable_swap_unknown);
	tcase_add_test(tc, test_refaults_other_systems);
	tcase_add_test(tc, test_readahead_up_only_when_reads_fill_the_window);
	tcase_add_test(tc, test_no_tunable_read_once_no_disk);
	tcase_add_test(tc, test_readahead_small_window);
	tcase_add_test(tc, test_host_refaults_and_cgroups);
	tcase_add_test(tc, test_dirty_limited);
	tcase_add_test(tc, test_pressure_in_reclaim_watermarks);
	tcase_add_test(tc, test_no_tunable_pressure_thrashing);
	tcase_add_test(tc, test_highorder_needs_blocks_gone_and_stalls);
	tcase_add_test(tc, test_no_tunable_highorder_blocks_left);
	tcase_add_test(tc, test_no_tunable_highorder_no_stalls);
	tcase_add_test(tc, test_no_tunable_highorder_no_figures);
	tcase_add_test(tc, test_tcp_prune_under_pressure);
	tcase_add_test(tc, test_kernel_release);
	tcase_add_test(tc, test_somaxconn_by_release);
	tcase_add_test(tc, test_freebsd_bounds);
	tcase_add_test(tc, test_svr4_automatic_and_tenths);
	tcase_add_test(tc, test_every_evidence_survives_snmptt);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(evidence_suite());
}
