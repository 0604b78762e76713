/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for the arithmetic of lib/advice/advice.c's suggestions:
 * doubling and its saturation, vector tunables, halving within bounds,
 * set values, words, unknown and too-long current values, byte ratios,
 * 0 meaning off, the queues doubled whatever they dropped and the dirty
 * limit sized from the disk's writes (see check_advice.c
 * for the table itself). */
#include "tw_advice_fake.h"

/* ---- Exact suggestion texts */

START_TEST(test_double)
{
	static const struct kv kv[] = {
		{ "net.core.netdev_max_backlog", "1000" }, { NULL, NULL },
	};
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_SOFTNET_DROPS, 0, TW_OS_LINUX, kv,
	    "cpu1 dropped 152 packets in the last 60 s", &s),
	    "net.core.netdev_max_backlog 1000 -> 2000 (cpu1 dropped 152 packets in the last "
	    "60 s; Documentation/admin-guide/sysctl/net.rst)");
	ck_assert_str_eq(s.current, "1000");
	ck_assert_str_eq(s.proposed, "2000");
	ck_assert_uint_eq(s.flags, 0);
	/* Without a detail, the rule's reason. */
	ck_assert_str_eq(advise(TW_SYM_SOFTNET_DROPS, 0, TW_OS_LINUX, kv, "", &s),
	    "net.core.netdev_max_backlog 1000 -> 2000 (the per-CPU input queue overflowed "
	    "before the stack drained it; Documentation/admin-guide/sysctl/net.rst)");
}
END_TEST

START_TEST(test_double_saturates)
{
	static const struct kv big[] = {
		{ "net.core.netdev_max_backlog", "1500000000" }, { NULL, NULL },
	};
	static const struct kv top[] = {
		{ "net.core.netdev_max_backlog", "2147483647" }, { NULL, NULL },
	};
	static const struct kv huge[] = {
		{ "net.core.netdev_max_backlog", "9223372036854775807" }, { NULL, NULL },
	};
	static const struct kv wsf[] = {
		{ "vm.watermark_scale_factor", "600" }, { NULL, NULL },
	};
	static const struct kv wsf_top[] = {
		{ "vm.watermark_scale_factor", "1000" }, { NULL, NULL },
	};
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_SOFTNET_DROPS, 0, TW_OS_LINUX, big, "d", &s),
	    "net.core.netdev_max_backlog 1500000000 -> 2147483647 (d; capped at its maximum, "
	    "2147483647; Documentation/admin-guide/sysctl/net.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_SATURATED);
	ck_assert_int_eq(s.limit, INT_MAX);

	ck_assert_str_eq(advise(TW_SYM_SOFTNET_DROPS, 0, TW_OS_LINUX, top, "d", &s),
	    "net.core.netdev_max_backlog 2147483647 is already at its maximum (2147483647) "
	    "(d; Documentation/admin-guide/sysctl/net.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_AT_LIMIT);
	ck_assert_str_eq(s.proposed, "");
	/* INT64_MAX: no overflow, simply past the maximum. */
	advise(TW_SYM_SOFTNET_DROPS, 0, TW_OS_LINUX, huge, "d", &s);
	ck_assert_uint_eq(s.flags, TW_SUG_AT_LIMIT);
	ck_assert_str_eq(s.current, "9223372036854775807");

	/* A documented maximum. */
	ck_assert_str_eq(advise(TW_SYM_MEMORY_PRESSURE, 0, TW_OS_LINUX, wsf, "psi", &s),
	    "vm.watermark_scale_factor 600 -> 1000 (psi; capped at its maximum, 1000; "
	    "Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_str_eq(advise(TW_SYM_MEMORY_PRESSURE, 0, TW_OS_LINUX, wsf_top, "psi", &s),
	    "vm.watermark_scale_factor 1000 is already at its maximum (1000) (psi; "
	    "Documentation/admin-guide/sysctl/vm.rst)");
}
END_TEST

/* The queues whose overflows are counted are doubled whatever the count:
 * the window's drops are many bursts', so a suggestion sized from them
 * followed the window's length (issue 32: somaxconn 4096 under bursts of
 * 6,000 connections every 3 s dropped 3,806 in the lab's 10 s window and
 * would drop some 38,000 in the default 60 s one; sized, 4096 + 38,000
 * went to the 16x cap, 65536, where 8192 is what the sweep found enough). */
START_TEST(test_queues_double)
{
	static const struct kv lab[] = {
		{ "net.core.somaxconn", "4096" }, { TW_ADVICE_SHORTFALL, "3806" }, { NULL, NULL },
	};
	static const struct kv whole[] = {
		{ "net.core.somaxconn", "4096" }, { TW_ADVICE_SHORTFALL, "38060" }, { NULL, NULL },
	};
	static const struct kv small[] = {
		{ "net.core.netdev_max_backlog", "16" }, { TW_ADVICE_SHORTFALL, "8134" },
		{ NULL, NULL },
	};
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_LISTEN_OVERFLOW, 0, TW_OS_LINUX, lab, "e", &s),
	    "net.core.somaxconn 4096 -> 8192 (e; Documentation/networking/ip-sysctl.rst)");
	ck_assert_uint_eq(s.flags, 0);
	ck_assert_str_eq(advise(TW_SYM_LISTEN_OVERFLOW, 0, TW_OS_LINUX, whole, "e", &s),
	    "net.core.somaxconn 4096 -> 8192 (e; Documentation/networking/ip-sysctl.rst)");
	ck_assert_uint_eq(s.flags, 0);
	ck_assert_str_eq(advise(TW_SYM_SOFTNET_DROPS, 0, TW_OS_LINUX, small, "d", &s),
	    "net.core.netdev_max_backlog 16 -> 32 (d; Documentation/admin-guide/sysctl/net.rst)");
	ck_assert_uint_eq(s.flags, 0);
}
END_TEST

/* A sized doubling (the dirty limit, TW_ADV_SIZED): the value plus what
 * it lacks where that is more than double, at most 16 times the value,
 * never past the maximum, without overflow. */
START_TEST(test_sized_from_shortfall)
{
	static const struct kv small[] = {
		{ "vm.dirty_bytes", "8388608" }, { TW_ADVICE_SHORTFALL, "515899392" },
		{ NULL, NULL },
	};
	static const struct kv some[] = {
		{ "vm.dirty_bytes", "8388608" }, { TW_ADVICE_SHORTFALL, "50331648" }, { NULL, NULL },
	};
	static const struct kv few[] = {
		{ "vm.dirty_bytes", "8388608" }, { TW_ADVICE_SHORTFALL, "1048576" }, { NULL, NULL },
	};
	static const struct kv big[] = {
		{ "vm.dirty_bytes", "200000000" }, { TW_ADVICE_SHORTFALL, "1000000000" },
		{ NULL, NULL },
	};
	static const struct kv past[] = {
		{ "vm.dirty_bytes", "200000000" },
		{ TW_ADVICE_SHORTFALL, "9223372036854775807" }, { NULL, NULL },
	};
	static const struct kv garbage[] = {
		{ "vm.dirty_bytes", "8388608" }, { TW_ADVICE_SHORTFALL, "many" }, { NULL, NULL },
	};
	static const struct kv unsized[] = {
		{ "net.core.rmem_max", "4096" }, { TW_ADVICE_SHORTFALL, "8134" }, { NULL, NULL },
	};
	struct tw_suggestion s;

	/* 8 MiB + 492 MiB; 16 times 8 MiB is the most. */
	advise(TW_SYM_DIRTY_LIMITED, 0, TW_OS_LINUX, small, "d", &s);
	ck_assert_str_eq(s.proposed, "134217728");
	ck_assert_uint_eq(s.flags, TW_SUG_SIZED | TW_SUG_SIZE_CAPPED);
	/* Within the cap: the value plus what it lacks. */
	ck_assert_str_eq(advise(TW_SYM_DIRTY_LIMITED, 0, TW_OS_LINUX, some, "d", &s),
	    "vm.dirty_bytes 8388608 -> 58720256 (d; sized to twice a second of the disk's "
	    "writes, writers being paused from half-way; Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_SIZED);
	/* Lacking less than the value: the doubling. */
	advise(TW_SYM_DIRTY_LIMITED, 0, TW_OS_LINUX, few, "d", &s);
	ck_assert_str_eq(s.proposed, "16777216");
	ck_assert_uint_eq(s.flags, 0);
	/* 16 times would pass INT_MAX: the sum is within it. */
	advise(TW_SYM_DIRTY_LIMITED, 0, TW_OS_LINUX, big, "d", &s);
	ck_assert_str_eq(s.proposed, "1200000000");
	ck_assert_uint_eq(s.flags, TW_SUG_SIZED);
	/* Past INT_MAX: the maximum, without overflow. */
	advise(TW_SYM_DIRTY_LIMITED, 0, TW_OS_LINUX, past, "d", &s);
	ck_assert_str_eq(s.proposed, "2147483647");
	ck_assert_uint_eq(s.flags, TW_SUG_SIZED | TW_SUG_SATURATED);
	/* A figure that does not parse, and a rule that is not sized: doubling. */
	advise(TW_SYM_DIRTY_LIMITED, 0, TW_OS_LINUX, garbage, "d", &s);
	ck_assert_str_eq(s.proposed, "16777216");
	ck_assert_uint_eq(s.flags, 0);
	advise(TW_SYM_UDP_RCVBUF, 0, TW_OS_LINUX, unsized, "d", &s);
	ck_assert_str_eq(s.proposed, "8192");
	ck_assert_uint_eq(s.flags, 0);
}
END_TEST

START_TEST(test_vectors)
{
	static const struct kv rmem[] = {
		{ "net.ipv4.tcp_rmem", "4096\t131072\t6291456" }, { NULL, NULL },
	};
	static const struct kv mem[] = {
		{ "net.ipv4.tcp_mem", "188163\t250884\t376326\n" }, { NULL, NULL },
	};
	static const struct kv udp_top[] = {
		{ "net.ipv4.udp_mem", "2147483647 1073741824 1073741823" }, { NULL, NULL },
	};
	static const struct kv short_rmem[] = {
		{ "net.ipv4.tcp_rmem", "4096 131072" }, { NULL, NULL },
	};
	struct tw_suggestion s;

	/* One field (the 3rd), tabs printed as single spaces. */
	ck_assert_str_eq(advise(TW_SYM_TCP_PRUNE, 0, TW_OS_LINUX, rmem, NULL, &s),
	    "net.ipv4.tcp_rmem 4096 131072 6291456 -> 4096 131072 12582912 (receive queues "
	    "were pruned to free memory: data was dropped and must be resent; "
	    "Documentation/networking/ip-sysctl.rst)");
	/* All fields. */
	ck_assert_str_eq(advise(TW_SYM_TCP_MEM, 0, TW_OS_LINUX, mem, "sockstat TCP mem 260000",
	    &s),
	    "net.ipv4.tcp_mem 188163 250884 376326 -> 376326 501768 752652 (sockstat TCP mem "
	    "260000; Documentation/networking/ip-sysctl.rst)");
	/* Each field saturates on its own; the order min <= pressure <= max holds. */
	advise(TW_SYM_UDP_MEM, 0, TW_OS_LINUX, udp_top, NULL, &s);
	ck_assert_str_eq(s.proposed, "2147483647 2147483647 2147483646");
	ck_assert_uint_eq(s.flags, TW_SUG_SATURATED);
	/* A missing field is not guessed. */
	ck_assert_str_eq(advise(TW_SYM_TCP_PRUNE, 0, TW_OS_LINUX, short_rmem, "x", &s),
	    "raise net.ipv4.tcp_rmem (current value unknown; x; "
	    "Documentation/networking/ip-sysctl.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
}
END_TEST

START_TEST(test_halve_and_bounds)
{
	static const struct kv q256[] = { { "queue/nr_requests", "256" }, { NULL, NULL } };
	static const struct kv q6[] = { { "queue/nr_requests", "6" }, { NULL, NULL } };
	static const struct kv q4[] = { { "queue/nr_requests", "4" }, { NULL, NULL } };
	static const struct kv sw1[] = { { "vm.swappiness", "1" }, { NULL, NULL } };
	static const struct kv sw0[] = { { "vm.swappiness", "0" }, { NULL, NULL } };
	static const struct kv vcp[] = { { "vm.vfs_cache_pressure", "100" }, { NULL, NULL } };
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_QUEUE_FULL, 0, TW_OS_LINUX, q256,
	    "sda: r_await 48 ms, aqu-sz 9.1", &s),
	    "queue/nr_requests 256 -> 128 (sda: r_await 48 ms, aqu-sz 9.1; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_PER_DEVICE);
	/* Not below the kernel's minimum of 4. */
	ck_assert_str_eq(advise(TW_SYM_QUEUE_FULL, 0, TW_OS_LINUX, q6, "sda", &s),
	    "queue/nr_requests 6 -> 4 (sda; per device; Documentation/block/queue-sysfs.rst)");
	ck_assert_str_eq(advise(TW_SYM_QUEUE_FULL, 0, TW_OS_LINUX, q4, "sda", &s),
	    "queue/nr_requests 4 is already at its minimum (4) (sda; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_AT_LIMIT | TW_SUG_PER_DEVICE);
	ck_assert_int_eq(s.limit, 4);
	ck_assert_str_eq(s.proposed, "");

	/* swappiness goes up (vm.rst: higher values mean cheaper swap); from 0
	 * it starts at 1. */
	advise(TW_SYM_LOW_HIT_REFAULTS, 0, TW_OS_LINUX, sw1, NULL, &s);
	ck_assert_str_eq(s.proposed, "2");
	ck_assert_int_eq(s.dir, TW_ADV_UP);
	advise(TW_SYM_LOW_HIT_REFAULTS, 0, TW_OS_LINUX, sw0, "r", &s);
	ck_assert_str_eq(s.proposed, "1");
	ck_assert_str_eq(advise(TW_SYM_METADATA_CHURN, 0, TW_OS_LINUX, vcp, "dentries", &s),
	    "vm.vfs_cache_pressure 100 -> 50 (dentries; Documentation/admin-guide/sysctl/vm.rst)");
}
END_TEST

START_TEST(test_set)
{
	static const struct kv ra4096[] = { { "queue/read_ahead_kb", "4096" }, { NULL, NULL } };
	static const struct kv ra128[] = { { "queue/read_ahead_kb", "128" }, { NULL, NULL } };
	static const struct kv ra64[] = { { "queue/read_ahead_kb", "64" }, { NULL, NULL } };
	static const struct kv hz100[] = { { "kern.hz", "100" }, { NULL, NULL } };
	static const struct kv hz1000[] = { { "kern.hz", "1000" }, { NULL, NULL } };
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_RANDOM_READAHEAD, 0, TW_OS_LINUX, ra4096, "sdb", &s),
	    "queue/read_ahead_kb 4096 -> 128 (sdb; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	/* Only a change in the rule's direction. */
	ck_assert_str_eq(advise(TW_SYM_RANDOM_READAHEAD, 0, TW_OS_LINUX, ra128, "sdb", &s),
	    "queue/read_ahead_kb 128 is already at most 128 (sdb; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_NO_CHANGE | TW_SUG_PER_DEVICE);
	advise(TW_SYM_RANDOM_READAHEAD, 0, TW_OS_LINUX, ra64, "sdb", &s);
	ck_assert_uint_eq(s.flags, TW_SUG_NO_CHANGE | TW_SUG_PER_DEVICE);
	ck_assert_str_eq(s.proposed, "");
	/* Unknown: the target is known, the current value is not. */
	ck_assert_str_eq(advise(TW_SYM_RANDOM_READAHEAD, 0, TW_OS_LINUX, NULL, "sdb", &s),
	    "lower queue/read_ahead_kb to 128 (current value unknown; sdb; per device; "
	    "Documentation/block/queue-sysfs.rst)");

	/* polling(4): not below 1000 Hz; Linux has no sysctl for this. */
	ck_assert_str_eq(advise(TW_SYM_INTERRUPT_LOAD, 0, TW_OS_FREEBSD, hz100, "irq", &s),
	    "kern.hz 100 -> 1000 (irq; a loader tunable: takes effect at the next boot; "
	    "polling(4))");
	ck_assert_str_eq(advise(TW_SYM_INTERRUPT_LOAD, 0, TW_OS_FREEBSD, hz1000, "irq", &s),
	    "kern.hz 1000 is already at least 1000 (irq; a loader tunable: takes effect at "
	    "the next boot; polling(4))");
	ck_assert_int_eq(tw_advice_suggest(rule(TW_SYM_INTERRUPT_LOAD, 0), TW_OS_LINUX,
	    fake_lookup, NULL, &s), TW_E_ABSENT);
}
END_TEST

START_TEST(test_scheduler)
{
	static const struct kv none[] = {
		{ "queue/scheduler", "[none] mq-deadline kyber bfq" }, { NULL, NULL },
	};
	static const struct kv bfq[] = {
		{ "queue/scheduler", "mq-deadline kyber [bfq] none\n" }, { NULL, NULL },
	};
	static const struct kv plain[] = { { "queue/scheduler", "mq-deadline" }, { NULL, NULL } };
	static const struct kv list[] = {
		{ "queue/scheduler", "mq-deadline kyber" }, { NULL, NULL },
	};
	static const struct kv nvme[] = {
		{ "queue/scheduler", "[mq-deadline] none" }, { NULL, NULL },
	};
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_QUEUE, 0, TW_OS_LINUX, none, "sda", &s),
	    "queue/scheduler none -> mq-deadline (sda; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	/* bfq is acceptable: no change. */
	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_QUEUE, 0, TW_OS_LINUX, bfq, "sda", &s),
	    "queue/scheduler is already bfq (sda; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_NO_CHANGE | TW_SUG_PER_DEVICE);
	advise(TW_SYM_READ_LATENCY_QUEUE, 0, TW_OS_LINUX, plain, "sda", &s);
	ck_assert_uint_eq(s.flags, TW_SUG_NO_CHANGE | TW_SUG_PER_DEVICE);
	ck_assert_str_eq(s.current, "mq-deadline");
	/* A list without the active one marked says nothing. */
	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_QUEUE, 0, TW_OS_LINUX, list, "sda", &s),
	    "set queue/scheduler to mq-deadline (current value unknown; sda; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	ck_assert_str_eq(advise(TW_SYM_NONROT_SCHEDULER, 0, TW_OS_LINUX, nvme, "nvme0n1", &s),
	    "queue/scheduler mq-deadline -> none (nvme0n1; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	advise(TW_SYM_NONROT_SCHEDULER, 0, TW_OS_LINUX, none, "nvme0n1", &s);
	ck_assert_uint_eq(s.flags, TW_SUG_NO_CHANGE | TW_SUG_PER_DEVICE);
}
END_TEST

START_TEST(test_unknown)
{
	static const struct kv junk[] = { { "net.core.somaxconn", "lots" }, { NULL, NULL } };
	static const struct kv neg[] = { { "net.core.somaxconn", "-5" }, { NULL, NULL } };
	static const struct kv big[] = {
		{ "net.core.somaxconn", "99999999999999999999" }, { NULL, NULL },
	};
	struct tw_suggestion s;
	char line[512];

	ck_assert_str_eq(advise(TW_SYM_LISTEN_OVERFLOW, 0, TW_OS_LINUX, NULL, "4 overflows", &s),
	    "raise net.core.somaxconn (current value unknown; 4 overflows; "
	    "Documentation/networking/ip-sysctl.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
	ck_assert_str_eq(s.current, "");
	ck_assert_str_eq(s.proposed, "");
	advise(TW_SYM_LISTEN_OVERFLOW, 0, TW_OS_LINUX, junk, NULL, &s);
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
	advise(TW_SYM_LISTEN_OVERFLOW, 0, TW_OS_LINUX, neg, NULL, &s);
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
	advise(TW_SYM_LISTEN_OVERFLOW, 0, TW_OS_LINUX, big, NULL, &s);
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
	/* No lookup at all. */
	ck_assert_int_eq(tw_advice_suggest(rule(TW_SYM_LISTEN_OVERFLOW, 0), TW_OS_LINUX, NULL,
	    NULL, &s), TW_OK);
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
	ck_assert_int_eq(tw_advice_format(&s, NULL, line, sizeof(line)), TW_OK);
	ck_assert_str_eq(line, "raise net.core.somaxconn (current value unknown; the accept "
	    "queue was full (the application's listen() backlog must follow); "
	    "Documentation/networking/ip-sysctl.rst)");
}
END_TEST

/* A current value that only just fits current[] can have a proposal one
 * digit longer (500000000 doubles to 1000000000). Found by
 * tests/fuzz/fuzz_advice: tw_advice_suggest returned TW_E_TOOBIG, which
 * it does not document, with half a suggestion in *out. Such a value is
 * no tunable's, so it reads as unusable, like one that does not fit. */

START_TEST(test_proposal_too_long)
{
	static const struct kv tight[] = {
		/* 127 characters: 9 + 5 * 20 + 18. */
		{ "net.ipv4.tcp_mem", "500000000 9000000000000000000 9000000000000000000 "
		    "9000000000000000000 9000000000000000000 9000000000000000000 "
		    "90000000000000000" },
		{ NULL, NULL },
	};
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_TCP_MEM, 0, TW_OS_LINUX, tight, NULL, &s),
	    "raise net.ipv4.tcp_mem (current value unknown; TCP entered memory pressure "
	    "and shrank its socket buffers; Documentation/networking/ip-sysctl.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
	ck_assert_str_eq(s.current, "");
	ck_assert_str_eq(s.proposed, "");
}
END_TEST

/* Only one of each ratio/bytes pair is in force; the other reads 0. */

START_TEST(test_ratio_bytes)
{
	static const struct kv ratio[] = {
		{ "vm.dirty_background_ratio", "10" }, { "vm.dirty_background_bytes", "0" },
		{ NULL, NULL },
	};
	static const struct kv bytes[] = {
		{ "vm.dirty_background_ratio", "0" },
		{ "vm.dirty_background_bytes", "268435456" }, { NULL, NULL },
	};
	static const struct kv ratio_only[] = {
		{ "vm.dirty_background_ratio", "10" }, { NULL, NULL },
	};
	static const struct kv zero_ratio_only[] = {
		{ "vm.dirty_background_ratio", "0" }, { NULL, NULL },
	};
	static const struct kv dirty[] = {
		{ "vm.dirty_ratio", "0" }, { "vm.dirty_bytes", "400000" }, { NULL, NULL },
	};
	static const struct kv dirty_min[] = {
		{ "vm.dirty_ratio", "0" }, { "vm.dirty_bytes", "131072" }, { NULL, NULL },
	};
	static const struct kv dirty_ratio[] = {
		{ "vm.dirty_ratio", "20" }, { "vm.dirty_bytes", "0" }, { NULL, NULL },
	};
	struct tw_suggestion s;

	/* A rule on the ratio. */
	ck_assert_str_eq(advise(TW_SYM_DIRTY_BURST, 0, TW_OS_LINUX, ratio, "burst", &s),
	    "vm.dirty_background_ratio 10 -> 5 (burst; Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_str_eq(advise(TW_SYM_DIRTY_BURST, 0, TW_OS_LINUX, bytes, "burst", &s),
	    "vm.dirty_background_bytes 268435456 -> 134217728 (burst; "
	    "Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_str_eq(s.name, "vm.dirty_background_bytes");
	/* Bytes unknown: the ratio's own value tells. */
	advise(TW_SYM_DIRTY_BURST, 0, TW_OS_LINUX, ratio_only, "burst", &s);
	ck_assert_str_eq(s.name, "vm.dirty_background_ratio");
	ck_assert_str_eq(s.proposed, "5");
	ck_assert_str_eq(advise(TW_SYM_DIRTY_BURST, 0, TW_OS_LINUX, zero_ratio_only, "b", &s),
	    "lower vm.dirty_background_bytes (current value unknown; b; "
	    "Documentation/admin-guide/sysctl/vm.rst)");

	/* dirty_ratio / dirty_bytes, with the kernel's two-page floor. */
	ck_assert_str_eq(advise(TW_SYM_DIRTY_BURST, 1, TW_OS_LINUX, dirty_ratio, "w", &s),
	    "vm.dirty_ratio 20 -> 10 (w; Documentation/admin-guide/sysctl/vm.rst)");
	/* Two pages are 131072 bytes with 64 KiB pages: the floor that every
	 * page size accepts. */
	ck_assert_str_eq(advise(TW_SYM_DIRTY_BURST, 1, TW_OS_LINUX, dirty, "w", &s),
	    "vm.dirty_bytes 400000 -> 200000 (w; Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_str_eq(advise(TW_SYM_WRITE_LATENCY, 1, TW_OS_LINUX, dirty_min, "w", &s),
	    "vm.dirty_bytes 131072 is already at its minimum (131072) (w; "
	    "Documentation/admin-guide/sysctl/vm.rst)");

	/* A rule on the bytes switches to the ratio when bytes reads 0. */
	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_WRITEBACK, 1, TW_OS_LINUX, ratio, "r", &s),
	    "vm.dirty_background_ratio 10 -> 5 (r; Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_WRITEBACK, 1, TW_OS_LINUX, bytes, "r", &s),
	    "vm.dirty_background_bytes 268435456 -> 134217728 (r; "
	    "Documentation/admin-guide/sysctl/vm.rst)");
}
END_TEST

START_TEST(test_zero_means_off)
{
	static const struct kv off[] = { { "queue/wbt_lat_usec", "0" }, { NULL, NULL } };
	static const struct kv on[] = { { "queue/wbt_lat_usec", "75000" }, { NULL, NULL } };
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_WRITEBACK, 0, TW_OS_LINUX, off, "sda", &s),
	    "queue/wbt_lat_usec 0 -> -1 (sda; 0 means off, -1 restores the default; "
	    "per device; Documentation/block/queue-sysfs.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_ENABLE | TW_SUG_PER_DEVICE);
	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_WRITEBACK, 0, TW_OS_LINUX, on, "sda", &s),
	    "queue/wbt_lat_usec 75000 -> 37500 (sda; per device; "
	    "Documentation/block/queue-sysfs.rst)");
}
END_TEST

static Suite *
advice_values_suite(void)
{
	Suite *s = suite_create("advice_values");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_double);
	tcase_add_test(tc, test_double_saturates);
	tcase_add_test(tc, test_queues_double);
	tcase_add_test(tc, test_sized_from_shortfall);
	tcase_add_test(tc, test_vectors);
	tcase_add_test(tc, test_halve_and_bounds);
	tcase_add_test(tc, test_set);
	tcase_add_test(tc, test_scheduler);
	tcase_add_test(tc, test_unknown);
	tcase_add_test(tc, test_proposal_too_long);
	tcase_add_test(tc, test_ratio_bytes);
	tcase_add_test(tc, test_zero_means_off);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(advice_values_suite());
}
