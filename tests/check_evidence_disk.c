/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/advice/evidence.c together with the rules, for slow
 * disks: a queue knob only where there is a queue, and "no tunable" where
 * the device itself is slow (see check_evidence.c for the rest). */
#include "tw_evidence.h"

START_TEST(test_deadline_needs_a_queue_on_a_disk_that_seeks)
{
	static const struct kv kv[] = { { "queue/scheduler", "[none] mq-deadline bfq" }, { 0, 0 } };
	struct tw_disk_record d = disk(48, 6.2, 1, "none");
	struct tw_suggestion s;
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
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

/* A disk reported slow: 80 ms a read at queue depth 1.4 is the device
 * itself, which no queue knob helps. */
START_TEST(test_no_tunable_slow_device)
{
	struct tw_disk_record d = disk(80, 1.4, 1, "none");
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "sda takes 80 ms per read at queue depth 1.4: the device "
	    "itself is slow (check its health, its controller, or move load)");
	/* Just under "well above 1" too. */
	d.queue_depth = 1.99;
	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
}
END_TEST

START_TEST(test_no_tunable_saturated_ssd)
{
	struct tw_disk_record d = disk(30, 12, 0, "none");
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
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
	struct tw_disk_record d = disk(30, 4, 0, "mq-deadline");
	struct tw_suggestion s;
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
	ck_assert(has(&v, TW_SYM_NONROT_SCHEDULER));
	ck_assert(!has(&v, TW_SYM_READ_LATENCY_QUEUE));
	ck_assert_str_eq(knob(TW_SYM_NONROT_SCHEDULER, TW_OS_LINUX, kv, &s),
	    "queue/scheduler mq-deadline -> none (e; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	/* No queue: the scheduler is not what costs the time. */
	d.queue_depth = 1;
	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	/* Already none: nothing is said of schedulers at all. */
	d = disk(30, 4, 0, "none");
	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
	ck_assert(!has(&v, TW_SYM_NONROT_SCHEDULER) && !has(&v, TW_SYM_READ_LATENCY_QUEUE));
	/* Unknown kind: neither scheduler rule. */
	d = disk(30, 4, -1, "mq-deadline");
	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_ptr_nonnull(strstr(v.no_tunable, "a device of unknown kind"));
}
END_TEST

START_TEST(test_queue_full_needs_the_queue_near_nr_requests)
{
	static const struct kv q64[] = { { "queue/nr_requests", "64" }, { 0, 0 } };
	static const struct kv q6[] = { { "queue/nr_requests", "6" }, { 0, 0 } };
	static const struct kv q4[] = { { "queue/nr_requests", "4" }, { 0, 0 } };
	struct tw_disk_record d = disk(48, 40, 1, "mq-deadline");
	struct tw_suggestion s;
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
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
	d.queue_depth = 20;
	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
	ck_assert(!has(&v, TW_SYM_QUEUE_FULL));
	ck_assert(has(&v, TW_SYM_READ_LATENCY_QUEUE));
	/* nr_requests unknown: not named. */
	d.queue_depth = 40;
	d.nr_requests = -1;
	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
	ck_assert(!has(&v, TW_SYM_QUEUE_FULL));
}
END_TEST

START_TEST(test_writeback_crowding_reads)
{
	static const struct kv kv[] = { { "queue/wbt_lat_usec", "75000" }, { 0, 0 } };
	struct tw_disk_record d = disk(48, 3, -1, NULL);
	struct tw_suggestion s;
	struct tw_verdict v;

	d.write_ops_s = 400;
	d.read_ops_s = 50;
	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_READ_LATENCY_WRITEBACK);
	ck_assert_str_eq(v.found[0].evidence, "sda r_await 48 ms behind 400 writes/s (against 50 "
	    "reads/s) at queue depth 3, in the last 60 s");
	ck_assert_str_eq(knob(TW_SYM_READ_LATENCY_WRITEBACK, TW_OS_LINUX, kv, &s),
	    "queue/wbt_lat_usec 75000 -> 37500 (e; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	/* Writes outnumbering reads without a queue: they wait for nothing. */
	d.queue_depth = 0.8;
	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
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
	struct tw_disk_record d = disk(5, 9, 1, "mq-deadline");
	struct tw_suggestion s;
	struct tw_verdict v;

	d.w_await_ms = 200;
	d.write_ops_s = 300;
	d.read_ops_s = 10;
	ck_assert_int_eq(tw_evidence_disk_write(EV(&d), &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_WRITE_LATENCY);
	ck_assert_str_eq(knob(TW_SYM_WRITE_LATENCY, TW_OS_LINUX, kv, &s),
	    "vm.dirty_background_ratio 10 -> 5 (e; Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_int_eq(s.dir, TW_ADV_DOWN);
}
END_TEST

START_TEST(test_no_tunable_slow_writes)
{
	struct tw_disk_record d = disk(5, 1.2, 1, "mq-deadline");
	struct tw_verdict v;

	d.w_await_ms = 200;
	d.write_ops_s = 300;
	ck_assert_int_eq(tw_evidence_disk_write(EV(&d), &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "sda takes 200 ms per write at queue depth 1.2: the device "
	    "itself is slow (check its health, its controller and its write cache, or move load)");
}
END_TEST

/* A writer faster than the device: writes queue deep on a device busy
 * through the window. No dirty limit makes it faster, and a shorter queue
 * only moves the wait: no tunable, and no queue-full of one stream. */
START_TEST(test_no_tunable_writes_at_throughput)
{
	struct tw_disk_record d = disk(5, 120, 0, "none");
	struct tw_verdict v;

	d.w_await_ms = 900;
	d.write_ops_s = 130;
	d.read_ops_s = 0;
	d.write_bytes_s = 130 * 512 * 1024;
	d.util_pct = 99.6;
	d.nr_requests = 128;
	ck_assert_int_eq(tw_evidence_disk_write(EV(&d), &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "sda w_await 900 ms at queue depth 120, mostly writes "
	    "(65 MiB/s), busy 99.6 % of the window: the device writes at its throughput, and no "
	    "writeback knob makes a writer faster than it (spread the I/O or add devices)");
	/* In bursts (busy 40 %): earlier flushing spreads them. */
	d.util_pct = 40;
	ck_assert_int_eq(tw_evidence_disk_write(EV(&d), &v), TW_OK);
	ck_assert(has(&v, TW_SYM_WRITE_LATENCY));
	ck_assert(!has(&v, TW_SYM_QUEUE_FULL));
	/* The same queue while writers were held at the dirty limit: the
	 * flusher wrote all along, and a lower background threshold starts
	 * nothing sooner (the lab's neg-writer-faster, loop1 at 59 % busy). */
	ck_assert_int_eq(tw_evidence_disk_write(EV(&d, .writers_held = 1), &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "sda w_await 900 ms at queue depth 120, mostly writes "
	    "(65 MiB/s), while writers were held at the dirty limit: the flusher wrote all along, "
	    "so that is the device's throughput for these writes, and no writeback knob makes a "
	    "writer faster than it (spread the I/O or add devices)");
	/* Reads beside the writes (10 %): they wait behind them, and a
	 * shorter queue bounds that. */
	d.read_ops_s = 15;
	ck_assert_int_eq(tw_evidence_disk_write(EV(&d), &v), TW_OK);
	ck_assert(has(&v, TW_SYM_QUEUE_FULL));
}
END_TEST

/* A single reader's deep queue at its device's throughput: no shorter
 * queue helps it. */
START_TEST(test_queue_full_needs_two_kinds)
{
	struct tw_disk_record d = disk(40, 120, 0, "none");
	struct tw_verdict v;

	d.write_ops_s = 0;
	d.nr_requests = 128;
	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
	ck_assert(!has(&v, TW_SYM_QUEUE_FULL));
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_ptr_nonnull(strstr(v.no_tunable, "the device is saturated"));
	/* Writes 4 % of the requests: still one kind. */
	d.write_ops_s = 4;
	d.read_ops_s = 96;
	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_OK);
	ck_assert(!has(&v, TW_SYM_QUEUE_FULL));
}
END_TEST

START_TEST(test_no_tunable_writes_behind_reads)
{
	struct tw_disk_record d = disk(5, 9, 1, "mq-deadline");
	struct tw_verdict v;

	d.w_await_ms = 30;
	d.write_ops_s = 10;
	d.read_ops_s = 300;
	ck_assert_int_eq(tw_evidence_disk_write(EV(&d), &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "sda w_await 30 ms at queue depth 9, mostly reads: no "
	    "writeback knob applies, the device is saturated (spread the I/O or add devices)");
}
END_TEST

/* ---- Buffer cache */

START_TEST(test_bad_arguments)
{
	struct tw_disk_record d = disk(1, 1, 1, NULL);
	struct cache_case c;
	struct tw_verdict v;

	cache(&c);
	ck_assert_int_eq(tw_evidence_disk_read(NULL, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), NULL), TW_E_INVAL);
	ck_assert_int_eq(tw_evidence_disk_write(NULL, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_evidence_cache_reads(NULL, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_evidence_cache_pressure(&c.e, NULL), TW_E_INVAL);
	ck_assert_int_eq(tw_evidence_highorder(NULL, &v), TW_E_INVAL);
	d.name = NULL;
	ck_assert_int_eq(tw_evidence_disk_read(EV(&d), &v), TW_E_INVAL);
}
END_TEST

static Suite *
evidence_disk_suite(void)
{
	Suite *s = suite_create("evidence_disk");
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
	tcase_add_test(tc, test_no_tunable_writes_at_throughput);
	tcase_add_test(tc, test_queue_full_needs_two_kinds);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(evidence_disk_suite());
}
