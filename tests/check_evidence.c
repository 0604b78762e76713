#include "config.h"

/* Unit tests for lib/advice/evidence.c together with the rules: for each
 * rule, its precondition present gives its knob, the right way and within
 * the right bound; absent, no knob; and each "no tunable" case on its own,
 * with its exact words. The knob is what a check prints: the first rule of
 * the symptom that has something to change (plugin.c). */
#include <stdint.h>

#include "advice/advice.h"
#include "advice/evidence.h"
#include "tw_check.h"
#include "util/error.h"

struct kv {
	const char *name;
	const char *value;
};

static const char *
lookup(void *ctx, const char *name)
{
	const struct kv *kv = ctx;
	size_t i;

	for (i = 0; kv != NULL && kv[i].name != NULL; i++)
		if (strcmp(kv[i].name, name) == 0)
			return kv[i].value;
	return NULL;
}

/* The suggestion a check prints for sym: the first rule with a change. */
static const char *
knob(enum tw_symptom sym, enum tw_os os, const struct kv *kv, struct tw_suggestion *s)
{
	static char line[1024];
	const struct tw_advice_rule *r;
	size_t n = tw_advice_rules(sym, &r), i;

	for (i = 0; i < n; i++) {
		if (tw_advice_suggest(&r[i], os, lookup, (void *)kv, s) != TW_OK)
			continue;
		if (s->flags & (TW_SUG_AT_LIMIT | TW_SUG_NO_CHANGE))
			continue;
		ck_assert_int_eq(tw_advice_format(s, "e", line, sizeof(line)), TW_OK);
		return line;
	}
	return NULL;
}

static int
has(const struct tw_verdict *v, enum tw_symptom sym)
{
	size_t i;

	for (i = 0; i < v->nfound; i++)
		if (v->found[i].sym == sym)
			return 1;
	return 0;
}

static struct tw_disk_figures
disk(double r_await, double queue, int rotational, const char *sched)
{
	struct tw_disk_figures d;

	memset(&d, 0, sizeof(d));
	d.name = "sda";
	d.r_await = r_await;
	d.w_await = 5;
	d.queue = queue;
	d.rops = 100;
	d.wops = 10;
	d.read_bytes_s = 100 * 8192;
	d.rotational = rotational;
	d.scheduler = sched;
	d.nr_requests = 64;
	d.read_ahead_kb = 128;
	d.window_s = 60;
	return d;
}

/* ---- Disks: reads */

START_TEST(test_deadline_needs_a_queue_on_a_disk_that_seeks)
{
	static const struct kv kv[] = { { "queue/scheduler", "[none] mq-deadline bfq" }, { 0, 0 } };
	struct tw_disk_figures d = disk(48, 6.2, 1, "none");
	struct tw_suggestion s;
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_READ_LATENCY_QUEUE);
	ck_assert_str_eq(v.found[0].evidence, "sda r_await 48 ms at queue depth 6.2 on a "
	    "rotational disk, in the last 60 s");
	ck_assert_str_eq(knob(TW_SYM_READ_LATENCY_QUEUE, TW_OS_LINUX, kv, &s),
	    "queue/scheduler none -> mq-deadline (e; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	ck_assert_str_eq(v.no_tunable, "");
}
END_TEST

/* The disk: 80 ms a read at queue depth 1.4 is the device. */
START_TEST(test_no_tunable_slow_device)
{
	struct tw_disk_figures d = disk(80, 1.4, 1, "none");
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "sda takes 80 ms per read at queue depth 1.4; the device "
	    "itself is slow (check its health, its controller, or move load)");
	/* Just under "well above 1" too. */
	d.queue = 1.99;
	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
}
END_TEST

START_TEST(test_no_tunable_saturated_ssd)
{
	struct tw_disk_figures d = disk(30, 12, 0, "none");
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "sda r_await 30 ms at queue depth 12, on a solid-state "
	    "device already without a scheduler: no queue knob applies, the device is saturated "
	    "(spread the I/O or add devices)");
}
END_TEST

/* An SSD is told "none" and never "mq-deadline": the loop is gone. */
START_TEST(test_solid_state_scheduler_no_loop)
{
	static const struct kv kv[] = {
		{ "queue/scheduler", "[mq-deadline] kyber none" }, { 0, 0 },
	};
	struct tw_disk_figures d = disk(30, 4, 0, "mq-deadline");
	struct tw_suggestion s;
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_OK);
	ck_assert(has(&v, TW_SYM_NONROT_SCHEDULER));
	ck_assert(!has(&v, TW_SYM_READ_LATENCY_QUEUE));
	ck_assert_str_eq(knob(TW_SYM_NONROT_SCHEDULER, TW_OS_LINUX, kv, &s),
	    "queue/scheduler mq-deadline -> none (e; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	/* No queue: the scheduler is not what costs the time. */
	d.queue = 1;
	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	/* Already none: nothing is said of schedulers at all. */
	d = disk(30, 4, 0, "none");
	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_OK);
	ck_assert(!has(&v, TW_SYM_NONROT_SCHEDULER) && !has(&v, TW_SYM_READ_LATENCY_QUEUE));
	/* Unknown kind: neither scheduler rule. */
	d = disk(30, 4, -1, "mq-deadline");
	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_ptr_nonnull(strstr(v.no_tunable, "a device of unknown kind"));
}
END_TEST

START_TEST(test_queue_full_needs_the_queue_near_nr_requests)
{
	static const struct kv q64[] = { { "queue/nr_requests", "64" }, { 0, 0 } };
	static const struct kv q6[] = { { "queue/nr_requests", "6" }, { 0, 0 } };
	static const struct kv q4[] = { { "queue/nr_requests", "4" }, { 0, 0 } };
	struct tw_disk_figures d = disk(48, 40, 1, "mq-deadline");
	struct tw_suggestion s;
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_OK);
	ck_assert(has(&v, TW_SYM_QUEUE_FULL));
	ck_assert_str_eq(v.found[1].evidence, "sda holds 40 requests on average against "
	    "nr_requests 64, in the last 60 s");
	ck_assert_str_eq(knob(TW_SYM_QUEUE_FULL, TW_OS_LINUX, q64, &s),
	    "queue/nr_requests 64 -> 32 (e; per device; Documentation/block/queue-sysfs.rst)");
	ck_assert_int_eq(s.dir, TW_ADV_DOWN);
	/* Not below the kernel's minimum of 4. */
	ck_assert_str_eq(knob(TW_SYM_QUEUE_FULL, TW_OS_LINUX, q6, &s),
	    "queue/nr_requests 6 -> 4 (e; per device; Documentation/block/queue-sysfs.rst)");
	ck_assert_ptr_null(knob(TW_SYM_QUEUE_FULL, TW_OS_LINUX, q4, &s));
	/* A queue of 20 never reaches 32: halving 64 would change nothing. */
	d.queue = 20;
	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_OK);
	ck_assert(!has(&v, TW_SYM_QUEUE_FULL));
	ck_assert(has(&v, TW_SYM_READ_LATENCY_QUEUE));
	/* nr_requests unknown: not named. */
	d.queue = 40;
	d.nr_requests = -1;
	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_OK);
	ck_assert(!has(&v, TW_SYM_QUEUE_FULL));
}
END_TEST

START_TEST(test_writeback_crowding_reads)
{
	static const struct kv kv[] = { { "queue/wbt_lat_usec", "75000" }, { 0, 0 } };
	struct tw_disk_figures d = disk(48, 3, -1, NULL);
	struct tw_suggestion s;
	struct tw_verdict v;

	d.wops = 400;
	d.rops = 50;
	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_READ_LATENCY_WRITEBACK);
	ck_assert_str_eq(v.found[0].evidence, "sda r_await 48 ms behind 400 writes/s (against 50 "
	    "reads/s) at queue depth 3, in the last 60 s");
	ck_assert_str_eq(knob(TW_SYM_READ_LATENCY_WRITEBACK, TW_OS_LINUX, kv, &s),
	    "queue/wbt_lat_usec 75000 -> 37500 (e; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	/* Writes outnumbering reads without a queue: they wait for nothing. */
	d.queue = 0.8;
	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
}
END_TEST

/* ---- Disks: writes */

START_TEST(test_write_latency_needs_a_queue_of_writes)
{
	static const struct kv kv[] = {
		{ "vm.dirty_background_ratio", "10" }, { "vm.dirty_background_bytes", "0" },
		{ 0, 0 },
	};
	struct tw_disk_figures d = disk(5, 9, 1, "mq-deadline");
	struct tw_suggestion s;
	struct tw_verdict v;

	d.w_await = 200;
	d.wops = 300;
	d.rops = 10;
	ck_assert_int_eq(tw_evidence_disk_write(&d, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_WRITE_LATENCY);
	ck_assert_str_eq(knob(TW_SYM_WRITE_LATENCY, TW_OS_LINUX, kv, &s),
	    "vm.dirty_background_ratio 10 -> 5 (e; Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_int_eq(s.dir, TW_ADV_DOWN);
}
END_TEST

START_TEST(test_no_tunable_slow_writes)
{
	struct tw_disk_figures d = disk(5, 1.2, 1, "mq-deadline");
	struct tw_verdict v;

	d.w_await = 200;
	d.wops = 300;
	ck_assert_int_eq(tw_evidence_disk_write(&d, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "sda takes 200 ms per write at queue depth 1.2; the device "
	    "itself is slow (check its health, its controller and its write cache, or move load)");
}
END_TEST

START_TEST(test_no_tunable_writes_behind_reads)
{
	struct tw_disk_figures d = disk(5, 9, 1, "mq-deadline");
	struct tw_verdict v;

	d.w_await = 30;
	d.wops = 10;
	d.rops = 300;
	ck_assert_int_eq(tw_evidence_disk_write(&d, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "sda w_await 30 ms at queue depth 9, mostly reads: no "
	    "writeback knob applies, the device is saturated (spread the I/O or add devices)");
}
END_TEST

/* ---- Buffer cache */

static struct tw_cache_figures
cache(void)
{
	struct tw_cache_figures c;

	memset(&c, 0, sizeof(c));
	c.have_hit = 1;
	c.hit = 75;
	c.have_refaults = 1;
	c.refaults = 999;
	c.pagein_kib = 8000;		/* 999 pages are 3996 KiB: 50 % */
	c.have_swap = 1;
	c.swap_total = UINT64_C(1073741824);
	c.swap_free = UINT64_C(536870912);
	c.disk_read_ahead_kb = -1;
	c.os = TW_OS_LINUX;
	c.window_s = 60;
	return c;
}

/* The host, with swap in use: swappiness up, not down. */
START_TEST(test_swappiness_up_with_swap_in_use)
{
	static const struct kv old[] = { { "vm.swappiness", "60" }, { 0, 0 } };
	static const struct kv k58[] = {
		{ "vm.swappiness", "60" }, { "kernel.osrelease", "5.8.0" }, { 0, 0 },
	};
	static const struct kv k61[] = {
		{ "vm.swappiness", "150" }, { "kernel.osrelease", "6.1.0-18-amd64" }, { 0, 0 },
	};
	struct tw_cache_figures c = cache();
	struct tw_suggestion s;
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_cache_reads(&c, &v), TW_OK);
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
	struct tw_cache_figures c = cache();
	struct tw_verdict v;

	c.swap_total = c.swap_free = 0;
	ck_assert_int_eq(tw_evidence_cache_reads(&c, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "the working set does not fit in memory (hit ratio 75 % "
	    "with 999 refaults/s, no swap); add memory, raise the memory limit of its cgroup if "
	    "the load runs in one, or reduce load");
}
END_TEST

START_TEST(test_no_tunable_swap_unused)
{
	struct tw_cache_figures c = cache();
	struct tw_verdict v;

	c.swap_free = c.swap_total;
	ck_assert_int_eq(tw_evidence_cache_reads(&c, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "the working set does not fit in memory (hit ratio 75 % "
	    "with 999 refaults/s, 1024 MiB of swap, none in use); add memory, raise the memory "
	    "limit of its cgroup if the load runs in one, or reduce load");
}
END_TEST

START_TEST(test_no_tunable_swap_unknown)
{
	struct tw_cache_figures c = cache();
	struct tw_verdict v;

	c.have_swap = 0;
	ck_assert_int_eq(tw_evidence_cache_reads(&c, &v), TW_OK);
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
	struct tw_cache_figures c = cache();
	struct tw_suggestion s;
	struct tw_verdict v;

	ck_assert_uint_eq(tw_advice_rules(TW_SYM_LOW_HIT_REFAULTS, &r), 3);
	c.swap_total = c.swap_free = 0;
	c.os = TW_OS_SVR4;
	ck_assert_int_eq(tw_evidence_cache_reads(&c, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	/* NBUF 0 is 10 % of memory chosen at boot: 2 is 20 %, not 0 * 2. */
	ck_assert_str_eq(knob(TW_SYM_LOW_HIT_REFAULTS, TW_OS_SVR4, sco, &s),
	    "NBUF 0 -> 2 (e; 0 means sized automatically at boot; 1-9 count tenths of memory; "
	    "needs a kernel relink and a reboot; SCO OpenServer Performance Guide)");
	c.os = TW_OS_FREEBSD;
	ck_assert_int_eq(tw_evidence_cache_reads(&c, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_ptr_nonnull(strstr(v.no_tunable, "no swap"));
	ck_assert_ptr_null(tw_advice_name(&r[1], TW_OS_FREEBSD));
}
END_TEST

START_TEST(test_readahead_up_only_when_reads_fill_the_window)
{
	static const struct kv kv[] = { { "queue/read_ahead_kb", "128" }, { 0, 0 } };
	struct tw_cache_figures c = cache();
	struct tw_suggestion s;
	struct tw_verdict v;
	size_t i;

	c.refaults = 10;		/* 40 KiB of 8000: few */
	c.disk = "sdb";
	c.disk_rops = 100;
	c.disk_read_bytes_s = 100 * 128 * 1024.0;
	c.disk_read_ahead_kb = 128;
	ck_assert_int_eq(tw_evidence_cache_reads(&c, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_LOW_HIT_SEQUENTIAL);
	ck_assert_str_eq(v.found[0].evidence, "hit ratio 75 % with few refaults: data read once, "
	    "in reads of 128 KiB that fill sdb's read-ahead window of 128 KiB, in the last 60 s");
	ck_assert_str_eq(knob(TW_SYM_LOW_HIT_SEQUENTIAL, TW_OS_LINUX, kv, &s),
	    "queue/read_ahead_kb 128 -> 256 (e; per device; Documentation/block/queue-sysfs.rst)");

	/* Small reads: read-ahead is not at work; neither way is right. */
	c.disk_read_bytes_s = 100 * 8192.0;
	ck_assert_int_eq(tw_evidence_cache_reads(&c, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "hit ratio 75 % with few refaults: data is read once, in "
	    "device reads of 8 KiB on sdb, under half its read-ahead window (read_ahead_kb 128), "
	    "so a larger window would go unused; more cache would not help");
	/* No verdict ever lowers read-ahead: nothing tells random reads that
	 * it inflates from a stream. */
	for (i = 0; i < v.nfound; i++)
		ck_assert_int_ne(v.found[i].sym, TW_SYM_RANDOM_READAHEAD);
}
END_TEST

START_TEST(test_no_tunable_read_once_no_disk)
{
	struct tw_cache_figures c = cache();
	struct tw_verdict v;

	c.refaults = 10;
	ck_assert_int_eq(tw_evidence_cache_reads(&c, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "hit ratio 75 % with few refaults: data is read once; more "
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
	struct tw_cache_figures c = cache();
	struct tw_suggestion s;
	struct tw_verdict v;

	c.refaults = 10;
	c.psi = 12.5;
	ck_assert_int_eq(tw_evidence_cache_pressure(&c, &v), TW_OK);
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
	struct tw_cache_figures c = cache();
	struct tw_verdict v;

	c.psi = 12.5;
	ck_assert_int_eq(tw_evidence_cache_pressure(&c, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "tasks stall on memory (pressure 12.5 %) while 999 pages/s "
	    "are read back: the working set does not fit (512 of 1024 MiB of swap in use); add "
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
	ck_assert_str_eq(v.no_tunable, "compaction failed 40 times in the last 60 s; the agent "
	    "shows no free-block figures, so an allocation failure is not shown");
}
END_TEST

/* ---- Bounds the kernels enforce */

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

START_TEST(test_bad_arguments)
{
	struct tw_disk_figures d = disk(1, 1, 1, NULL);
	struct tw_cache_figures c = cache();
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_disk_read(NULL, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_evidence_disk_read(&d, NULL), TW_E_INVAL);
	ck_assert_int_eq(tw_evidence_disk_write(NULL, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_evidence_cache_reads(NULL, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_evidence_cache_pressure(&c, NULL), TW_E_INVAL);
	ck_assert_int_eq(tw_evidence_highorder(NULL, &v), TW_E_INVAL);
	d.name = NULL;
	ck_assert_int_eq(tw_evidence_disk_read(&d, &v), TW_E_INVAL);
}
END_TEST

static Suite *
evidence_suite(void)
{
	Suite *s = suite_create("evidence");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_deadline_needs_a_queue_on_a_disk_that_seeks);
	tcase_add_test(tc, test_no_tunable_slow_device);
	tcase_add_test(tc, test_no_tunable_saturated_ssd);
	tcase_add_test(tc, test_solid_state_scheduler_no_loop);
	tcase_add_test(tc, test_queue_full_needs_the_queue_near_nr_requests);
	tcase_add_test(tc, test_writeback_crowding_reads);
	tcase_add_test(tc, test_write_latency_needs_a_queue_of_writes);
	tcase_add_test(tc, test_no_tunable_slow_writes);
	tcase_add_test(tc, test_no_tunable_writes_behind_reads);
	tcase_add_test(tc, test_swappiness_up_with_swap_in_use);
	tcase_add_test(tc, test_no_tunable_no_swap);
	tcase_add_test(tc, test_no_tunable_swap_unused);
	tcase_add_test(tc, test_no_tunable_swap_unknown);
	tcase_add_test(tc, test_refaults_other_systems);
	tcase_add_test(tc, test_readahead_up_only_when_reads_fill_the_window);
	tcase_add_test(tc, test_no_tunable_read_once_no_disk);
	tcase_add_test(tc, test_pressure_in_reclaim_watermarks);
	tcase_add_test(tc, test_no_tunable_pressure_thrashing);
	tcase_add_test(tc, test_highorder_needs_blocks_gone_and_stalls);
	tcase_add_test(tc, test_no_tunable_highorder_blocks_left);
	tcase_add_test(tc, test_no_tunable_highorder_no_stalls);
	tcase_add_test(tc, test_no_tunable_highorder_no_figures);
	tcase_add_test(tc, test_kernel_release);
	tcase_add_test(tc, test_somaxconn_by_release);
	tcase_add_test(tc, test_freebsd_bounds);
	tcase_add_test(tc, test_svr4_automatic_and_tenths);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(evidence_suite());
}
