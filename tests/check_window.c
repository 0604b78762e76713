/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/window/counter.c, track.c, window.c and procreads.c:
 * increases over the window through wraps, resets and devices that come
 * and go, with every expected figure worked out by hand. */
#include "config.h"

#include <stdint.h>

#include "window/counter.h"
#include "window/track.h"
#include "tw_check.h"
#include "util/error.h"
#include "tw_sample_fixture.h"
#include "window/window.h"

START_TEST(test_counter_steps)
{
	uint64_t d;

	ck_assert_int_eq(tw_counter_step(10, 15, 64, &d), TW_STEP_OK);
	ck_assert_uint_eq(d, 5);
	ck_assert_int_eq(tw_counter_step(UINT64_MAX - 1, UINT64_MAX, 64, &d), TW_STEP_OK);
	ck_assert_uint_eq(d, 1);
	/* A 64-bit counter never wraps in practice: going back is a reset. */
	ck_assert_int_eq(tw_counter_step(UINT64_MAX, 3, 64, &d), TW_STEP_RESET);
	ck_assert_uint_eq(d, 0);
	/* 4294967000 -> 704 across 2^32: 296 + 704 = 1000. */
	ck_assert_int_eq(tw_counter_step(4294967000u, 704, 32, &d), TW_STEP_WRAPPED);
	ck_assert_uint_eq(d, 1000);
	/* 1000 -> 10 would be an increase of 2^32 - 990: a reset, not a wrap. */
	ck_assert_int_eq(tw_counter_step(1000, 10, 32, &d), TW_STEP_RESET);
	/* A "32-bit" reading above 2^32 cannot have wrapped at 2^32. */
	ck_assert_int_eq(tw_counter_step(UINT64_C(1) << 33, 5, 32, &d), TW_STEP_RESET);
}
END_TEST

START_TEST(test_track_set_basics)
{
	static const uint8_t bits[2] = { 64, 32 };
	struct tw_track_set ts;
	uint64_t keys[3] = { 1, 5, 9 }, raw[6] = { 10, 100, 20, 200, 30, 300 };
	uint64_t d[2], cov;
	const struct tw_track *t;

	ck_assert_int_eq(tw_track_set_init(&ts, 2, 3, bits), TW_OK);
	ck_assert_int_eq(tw_track_set_update(&ts, 0, 0, keys, raw, 3), TW_OK);
	ck_assert_uint_eq(ts.count, 3);
	t = tw_track_set_find(&ts, 5);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(tw_track_delta(&ts, t, 0, 0, d, &cov), 0);

	/* Key 1 leaves, key 7 arrives; key 5 advances by 5 and 50 in 1000 ms. */
	{
		uint64_t k2[3] = { 5, 7, 9 }, r2[6] = { 25, 250, 70, 700, 30, 300 };

		ck_assert_int_eq(tw_track_set_update(&ts, 1, 1000, k2, r2, 3), TW_OK);
	}
	ck_assert_ptr_null(tw_track_set_find(&ts, 1));
	t = tw_track_set_find(&ts, 5);
	ck_assert_int_eq(tw_track_delta(&ts, t, 0, 1, d, &cov), 1);
	ck_assert_uint_eq(d[0], 5);
	ck_assert_uint_eq(d[1], 50);
	ck_assert_uint_eq(cov, 1000);
	t = tw_track_set_find(&ts, 7);
	ck_assert_int_eq(tw_track_delta(&ts, t, 0, 1, d, &cov), 0);
	ck_assert_uint_eq(tw_track_total(&ts, t, 0), 70);

	/* Unsorted keys are refused and change nothing. */
	{
		uint64_t bad[2] = { 9, 5 }, r3[4] = { 0, 0, 0, 0 };

		ck_assert_int_eq(tw_track_set_update(&ts, 2, 1000, bad, r3, 2), TW_E_INVAL);
		ck_assert_uint_eq(ts.count, 3);
	}
	tw_track_set_free(&ts);
}
END_TEST

START_TEST(test_track_reset_covers_no_time)
{
	static const uint8_t bits[1] = { 64 };
	struct tw_track_set ts;
	uint64_t key = 42, v, d, cov;
	const struct tw_track *t;

	ck_assert_int_eq(tw_track_set_init(&ts, 1, 5, bits), TW_OK);
	v = 1000;
	tw_track_set_update(&ts, 0, 0, &key, &v, 1);
	v = 1100;	/* +100 in 1 s */
	tw_track_set_update(&ts, 1, 1000, &key, &v, 1);
	v = 7;		/* reset: this interval counts neither increase nor time */
	tw_track_set_update(&ts, 2, 1000, &key, &v, 1);
	v = 57;		/* +50 in 1 s */
	tw_track_set_update(&ts, 3, 1000, &key, &v, 1);
	t = tw_track_set_find(&ts, key);
	ck_assert_int_eq(tw_track_delta(&ts, t, 0, 3, &d, &cov), 1);
	ck_assert_uint_eq(d, 150);
	ck_assert_uint_eq(cov, 2000);
	/* The published total never goes backwards: 1000 + 100 + 50. */
	ck_assert_uint_eq(tw_track_total(&ts, t, 0), 1150);
	tw_track_set_free(&ts);
}
END_TEST

/* sda's two samples five seconds apart; the increases are
 * reads +500, sectors read +8000, read ticks +1000,
 * writes +100, sectors written +1600, write ticks +500,
 * io ticks +2500, weighted ticks +7500. */
static const struct fx_disk sda_a = {
	8, 0, "sda", 100, 800, 50, 10, 80, 30, 0, 100, 200
};
static const struct fx_disk sda_b = {
	8, 0, "sda", 600, 8800, 1050, 110, 1680, 530, 2, 2600, 7700
};

START_TEST(test_window_disk_increases)
{
	struct tw_window w;
	struct tw_sample s;
	struct tw_pool_set none;
	uint64_t d[TW_WDISK_K], cov;

	tw_sample_init(&s);
	tw_pool_set_init(&none);
	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	fx_sample_disks(&s, 1000, &sda_a, 1);
	ck_assert_int_eq(tw_window_push(&w, &s, &none), TW_OK);
	ck_assert_uint_eq(tw_window_samples(&w), 1);
	ck_assert_uint_eq(tw_window_span_ms(&w), 0);
	ck_assert_int_eq(tw_window_delta(&w, &w.disks, tw_disk_key(8, 0), d, &cov), 0);

	fx_sample_disks(&s, 6000, &sda_b, 1);
	ck_assert_int_eq(tw_window_push(&w, &s, &none), TW_OK);
	ck_assert_uint_eq(tw_window_samples(&w), 2);
	ck_assert_uint_eq(tw_window_span_ms(&w), 5000);
	ck_assert_int_eq(tw_window_delta(&w, &w.disks, tw_disk_key(8, 0), d, &cov), 1);
	ck_assert_uint_eq(cov, 5000);
	ck_assert_uint_eq(d[TW_WDISK_READS], 500);
	ck_assert_uint_eq(d[TW_WDISK_SECTORS_READ], 8000);
	ck_assert_uint_eq(d[TW_WDISK_READ_TICKS], 1000);
	ck_assert_uint_eq(d[TW_WDISK_WRITES], 100);
	ck_assert_uint_eq(d[TW_WDISK_SECTORS_WRITTEN], 1600);
	ck_assert_uint_eq(d[TW_WDISK_WRITE_TICKS], 500);
	ck_assert_uint_eq(d[TW_WDISK_IO_TICKS], 2500);
	ck_assert_uint_eq(d[TW_WDISK_WEIGHTED_TICKS], 7500);

	/* A sample not after the newest is refused. */
	fx_sample_disks(&s, 6000, &sda_b, 1);
	ck_assert_int_eq(tw_window_push(&w, &s, &none), TW_E_INVAL);
	ck_assert_uint_eq(w.nsamples, 2);

	tw_window_free(&w);
	tw_sample_free(&s);
}
END_TEST

START_TEST(test_window_slides)
{
	struct tw_window w;
	struct tw_sample s;
	struct tw_pool_set none;
	struct fx_disk d0 = sda_a;
	uint64_t d[TW_WDISK_K], cov, key = tw_disk_key(8, 0);
	int i;

	tw_sample_init(&s);
	tw_pool_set_init(&none);
	/* Two intervals: three samples. Reads go 0, 10, 30, 60, 100 at 5 s. */
	ck_assert_int_eq(tw_window_init(&w, 2), TW_OK);
	for (i = 0; i < 5; i++) {
		d0.reads = (uint64_t)(5 * i * (i + 1));
		fx_sample_disks(&s, 5000 * (uint64_t)i, &d0, 1);
		ck_assert_int_eq(tw_window_push(&w, &s, &none), TW_OK);
	}
	ck_assert_uint_eq(tw_window_samples(&w), 3);
	ck_assert_uint_eq(tw_window_span_ms(&w), 10000);
	ck_assert_int_eq(tw_window_delta(&w, &w.disks, key, d, &cov), 1);
	ck_assert_uint_eq(d[TW_WDISK_READS], 100 - 30);
	ck_assert_uint_eq(cov, 10000);
	tw_window_free(&w);
	tw_sample_free(&s);
}
END_TEST

START_TEST(test_window_wrap_reset_hotplug)
{
	struct tw_window w;
	struct tw_sample s;
	struct tw_pool_set none;
	struct fx_disk two[2];
	uint64_t d[TW_WDISK_K], cov, sda = tw_disk_key(8, 0),
	    sdb = tw_disk_key(8, 16);
	const struct tw_track *t;

	tw_sample_init(&s);
	tw_pool_set_init(&none);
	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	/* Counter widths are diskstats' own: ticks 32 bits, counts 64. */
	ck_assert_uint_eq(w.disks.bits[TW_WDISK_READS], 64);
	ck_assert_uint_eq(w.disks.bits[TW_WDISK_SECTORS_WRITTEN], 64);
	ck_assert_uint_eq(w.disks.bits[TW_WDISK_READ_TICKS], 32);
	ck_assert_uint_eq(w.disks.bits[TW_WDISK_WEIGHTED_TICKS], 32);

	/* read ticks wrap: 4294967000 -> 704 is +1000 with reads +500. */
	two[0] = sda_a;
	two[0].read_ticks = 4294967000u;
	fx_sample_disks(&s, 0, two, 1);
	ck_assert_int_eq(tw_window_push(&w, &s, &none), TW_OK);
	two[0] = sda_b;
	two[0].read_ticks = 704;
	/* sdb appears in the second sample. */
	two[1] = (struct fx_disk){ 8, 16, "sdb", 5, 40, 5, 0, 0, 0, 0, 5, 5 };
	fx_sample_disks(&s, 5000, two, 2);
	ck_assert_int_eq(tw_window_push(&w, &s, &none), TW_OK);
	ck_assert_int_eq(tw_window_delta(&w, &w.disks, sda, d, &cov), 1);
	ck_assert_uint_eq(d[TW_WDISK_READ_TICKS], 1000);
	ck_assert_uint_eq(d[TW_WDISK_READS], 500);
	t = tw_track_set_find(&w.disks, sda);
	ck_assert_uint_eq(tw_track_total(&w.disks, t, TW_WDISK_READ_TICKS),
	    UINT64_C(4294967000) + 1000);
	/* sdb has one sample: no figures yet, and sda's are untouched. */
	ck_assert_int_eq(tw_window_delta(&w, &w.disks, sdb, d, &cov), 0);

	/* sda resets (reads fall to 3): that interval adds nothing; sdb
	 * advances normally. */
	two[0] = (struct fx_disk){ 8, 0, "sda", 3, 24, 6, 1, 8, 3, 0, 9, 9 };
	two[1].reads = 15;
	fx_sample_disks(&s, 10000, two, 2);
	ck_assert_int_eq(tw_window_push(&w, &s, &none), TW_OK);
	ck_assert_int_eq(tw_window_delta(&w, &w.disks, sda, d, &cov), 1);
	ck_assert_uint_eq(d[TW_WDISK_READS], 500);
	ck_assert_uint_eq(cov, 5000);
	ck_assert_int_eq(tw_window_delta(&w, &w.disks, sdb, d, &cov), 1);
	ck_assert_uint_eq(d[TW_WDISK_READS], 10);
	ck_assert_uint_eq(cov, 5000);

	/* sda disappears: its history is gone, sdb's is whole. */
	fx_sample_disks(&s, 15000, &two[1], 1);
	ck_assert_int_eq(tw_window_push(&w, &s, &none), TW_OK);
	ck_assert_int_eq(tw_window_delta(&w, &w.disks, sda, d, &cov), 0);
	ck_assert_int_eq(tw_window_delta(&w, &w.disks, sdb, d, &cov), 1);
	ck_assert_uint_eq(d[TW_WDISK_READS], 10);
	ck_assert_uint_eq(cov, 10000);

	/* sda comes back with small counters: a new history, no spike. */
	two[0] = (struct fx_disk){ 8, 0, "sda", 1, 8, 1, 0, 0, 0, 0, 1, 1 };
	fx_sample_disks(&s, 20000, two, 2);
	ck_assert_int_eq(tw_window_push(&w, &s, &none), TW_OK);
	ck_assert_int_eq(tw_window_delta(&w, &w.disks, sda, d, &cov), 0);

	tw_window_free(&w);
	tw_sample_free(&s);
}
END_TEST

/* Hit ratio over processes alive across the interval, keyed by pid and
 * start time. */
START_TEST(test_window_reads)
{
	struct tw_window w;
	struct tw_sample s;
	struct tw_pool_set none;
	struct tw_proc_io a[2] = {
		{ 10, 100, 1000, 0, 1 },
		{ 20, 200, 5000, 5000, 1 },
	};
	struct tw_proc_io b[3] = {
		{ 10, 100, 11000, 1000, 1 },	/* +10000 logical, +1000 physical */
		{ 20, 300, 999999, 999999, 1 },	/* pid 20 reused: not the same process */
		{ 30, 400, 77777, 7777, 1 },	/* new: nothing to compare with */
	};
	uint64_t d[TW_WREADS_K], cov;

	tw_sample_init(&s);
	tw_pool_set_init(&none);
	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	tw_sample_clear(&s);
	s.mono_ms = 1;
	s.have = TW_SRC_BIT(TW_SRC_PROCIO);
	s.procs.procs = a;
	s.procs.count = 2;
	ck_assert_int_eq(tw_window_push(&w, &s, &none), TW_OK);
	s.mono_ms = 5001;
	s.procs.procs = b;
	s.procs.count = 3;
	s.procs.unreadable = 4;
	ck_assert_int_eq(tw_window_push(&w, &s, &none), TW_OK);
	s.procs.procs = NULL;
	s.procs.count = 0;
	ck_assert_int_eq(tw_window_delta(&w, &w.reads, 0, d, &cov), 1);
	ck_assert_uint_eq(d[TW_WREADS_LOGICAL], 10000);
	ck_assert_uint_eq(d[TW_WREADS_PHYSICAL], 1000);
	ck_assert_uint_eq(w.procs_matched, 1);
	ck_assert_uint_eq(w.procs_unreadable, 4);
	tw_window_free(&w);
	tw_sample_free(&s);
}
END_TEST

/* Push one sample of processes (sorted by pid) at time ms; the growth of
 * the logical and physical totals over that interval in *dl, *dp. */
static void
push_procs(struct tw_window *w, uint64_t ms, struct tw_proc_io *procs, size_t n,
    uint64_t *dl, uint64_t *dp)
{
	struct tw_sample s;
	struct tw_pool_set none;
	uint64_t l0 = w->logical_total, p0 = w->physical_total;

	tw_sample_init(&s);
	tw_pool_set_init(&none);
	s.mono_ms = ms;
	s.have = TW_SRC_BIT(TW_SRC_PROCIO);
	s.procs.procs = procs;
	s.procs.count = n;
	ck_assert_int_eq(tw_window_push(w, &s, &none), TW_OK);
	s.procs.procs = NULL;
	s.procs.count = 0;
	tw_sample_free(&s);
	*dl = w->logical_total - l0;
	*dp = w->physical_total - p0;
}

/* Fields: pid, start time, rchar, read_bytes, ppid. */
#define PROC(pid, start, rc, rb, ppid) { (pid), (start), (rc), (rb), (ppid) }

/* A child seen for several samples, then reaped: its parent's counters
 * grow by the child's whole life, and only what the child read after its
 * last sample, and the parent's own reads, count in that interval. */
START_TEST(test_window_reaped_child)
{
	struct tw_window w;
	struct tw_proc_io s0[] = { PROC(100, 1, 1000, 0, 1), PROC(200, 5, 0, 0, 100) };
	struct tw_proc_io s1[] = { PROC(100, 1, 1000, 0, 1), PROC(200, 5, 10000, 8000, 100) };
	struct tw_proc_io s2[] = { PROC(100, 1, 1000, 0, 1), PROC(200, 5, 20000, 16000, 100) };
	/* Reaped: the child's 20000 + 500 after its last sample, and 300 of
	 * the parent's own (physical: 16000 + 400 + 100). */
	struct tw_proc_io s3[] = { PROC(100, 1, 21800, 16500, 1) };
	struct tw_proc_io s4[] = { PROC(100, 1, 21800, 16500, 1) };
	uint64_t dl, dp;

	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	push_procs(&w, 1000, s0, 2, &dl, &dp);
	push_procs(&w, 2000, s1, 2, &dl, &dp);
	ck_assert_uint_eq(dl, 10000);
	ck_assert_uint_eq(dp, 8000);
	push_procs(&w, 3000, s2, 2, &dl, &dp);
	ck_assert_uint_eq(dl, 10000);
	ck_assert_uint_eq(dp, 8000);
	push_procs(&w, 4000, s3, 1, &dl, &dp);
	ck_assert_uint_eq(dl, 800);
	ck_assert_uint_eq(dp, 500);
	push_procs(&w, 5000, s4, 1, &dl, &dp);
	ck_assert_uint_eq(dl, 0);
	ck_assert_uint_eq(dp, 0);
	/* Over the run, every byte once: 20500 + 300, 16400 + 100. */
	ck_assert_uint_eq(w.logical_total, 20800);
	ck_assert_uint_eq(w.physical_total, 16500);
	tw_window_free(&w);
}
END_TEST

/* A child born and reaped between two samples is never seen: its reads
 * are counted once, through its parent. */
START_TEST(test_window_unseen_child)
{
	struct tw_window w;
	struct tw_proc_io s0[] = { PROC(100, 1, 1000, 0, 1) };
	struct tw_proc_io s1[] = { PROC(100, 1, 6000, 4000, 1) };
	uint64_t dl, dp;

	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	push_procs(&w, 1000, s0, 1, &dl, &dp);
	push_procs(&w, 2000, s1, 1, &dl, &dp);
	ck_assert_uint_eq(dl, 5000);
	ck_assert_uint_eq(dp, 4000);
	tw_window_free(&w);
}
END_TEST

/* A parent and its child both vanish in one interval: the grandparent
 * reaped the parent, whose counters held the child's (or the child was
 * reparented and reaped by the grandparent as subreaper). Both lives come
 * out of the grandparent's growth. A vanished process whose ancestors
 * are out of view takes nothing from anyone. */
START_TEST(test_window_reparented)
{
	struct tw_window w;
	struct tw_proc_io s0[] = {
		PROC(50, 1, 0, 0, 1),		/* grandparent (subreaper) */
		PROC(100, 2, 3000, 1000, 50),	/* parent */
		PROC(200, 3, 7000, 6000, 100),	/* child */
		PROC(300, 4, 9000, 9000, 77),	/* parent 77 not in view */
		PROC(400, 5, 0, 0, 1),		/* bystander */
	};
	/* The grandparent grew by both lives, 100 + 200 more after their
	 * last samples, and 10 of its own; the bystander read 1000 cold. */
	struct tw_proc_io s1[] = {
		PROC(50, 1, 10310, 7310, 1),
		PROC(400, 5, 1000, 1000, 1),
	};
	uint64_t dl, dp;

	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	push_procs(&w, 1000, s0, 5, &dl, &dp);
	push_procs(&w, 2000, s1, 2, &dl, &dp);
	ck_assert_uint_eq(dl, 310 + 1000);
	ck_assert_uint_eq(dp, 310 + 1000);
	ck_assert_uint_eq(w.procs_matched, 2);
	tw_window_free(&w);
}
END_TEST

/* What a reaper owes is never more than it grew: a parent that lets its
 * children be reaped without adding their counters (SIGCHLD ignored) adds
 * nothing that interval, and no total goes back. */
START_TEST(test_window_reaper_clamped)
{
	struct tw_window w;
	struct tw_proc_io s0[] = { PROC(100, 1, 1000, 0, 1), PROC(200, 5, 50000, 40000, 100) };
	struct tw_proc_io s1[] = { PROC(100, 1, 1700, 300, 1) };
	uint64_t l0, p0, dl, dp;

	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	push_procs(&w, 1000, s0, 2, &dl, &dp);
	l0 = w.logical_total;
	p0 = w.physical_total;
	push_procs(&w, 2000, s1, 1, &dl, &dp);
	ck_assert_uint_eq(dl, 0);
	ck_assert_uint_eq(dp, 0);
	ck_assert_uint_ge(w.logical_total, l0);
	ck_assert_uint_ge(w.physical_total, p0);
	tw_window_free(&w);
}
END_TEST

/* A reused pid: the child that had pid 200 was reaped and a new process
 * took the pid within the interval. The old one's counters come out of the
 * parent's growth; the new one has nothing to compare with yet. The
 * parent's own pid being reused does not make a stranger its reaper. */
START_TEST(test_window_reaped_pid_reuse)
{
	struct tw_window w;
	struct tw_proc_io s0[] = { PROC(100, 1, 0, 0, 1), PROC(200, 5, 8000, 8000, 100) };
	struct tw_proc_io s1[] = { PROC(100, 1, 8200, 8100, 1), PROC(200, 9, 777, 777, 100) };
	/* Parent 100 exits; a new process takes pid 100; old child 200 (start
	 * 9), orphaned, is reaped by init out of view: the new 100's growth
	 * is its own and all of it counts. */
	struct tw_proc_io s2[] = { PROC(100, 20, 0, 0, 1), PROC(200, 9, 777, 777, 1) };
	struct tw_proc_io s3[] = { PROC(100, 20, 500, 500, 1) };
	uint64_t dl, dp;

	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	push_procs(&w, 1000, s0, 2, &dl, &dp);
	push_procs(&w, 2000, s1, 2, &dl, &dp);
	ck_assert_uint_eq(dl, 200);
	ck_assert_uint_eq(dp, 100);
	push_procs(&w, 3000, s2, 2, &dl, &dp);
	ck_assert_uint_eq(dl, 0);
	ck_assert_uint_eq(dp, 0);
	push_procs(&w, 4000, s3, 1, &dl, &dp);
	ck_assert_uint_eq(dl, 500);
	ck_assert_uint_eq(dp, 500);
	tw_window_free(&w);
}
END_TEST

/* Push procs as sampled with /proc/uptime at up (clock ticks). */
static void
push_procs_at(struct tw_window *w, uint64_t ms, uint64_t up, struct tw_proc_io *procs,
    size_t n, uint64_t *dl, uint64_t *dp)
{
	struct tw_sample s;
	struct tw_pool_set none;
	uint64_t l0 = w->logical_total, p0 = w->physical_total;

	tw_sample_init(&s);
	tw_pool_set_init(&none);
	s.mono_ms = ms;
	s.have = TW_SRC_BIT(TW_SRC_PROCIO);
	s.procs.procs = procs;
	s.procs.count = n;
	s.procs.have_uptime = 1;
	s.procs.uptime_ticks = up;
	ck_assert_int_eq(tw_window_push(w, &s, &none), TW_OK);
	s.procs.procs = NULL;
	s.procs.count = 0;
	tw_sample_free(&s);
	*dl = w->logical_total - l0;
	*dp = w->physical_total - p0;
}

/* A process first seen whose start time is at or after the previous
 * sample's scan was born in the interval: all it read counts there. A
 * short-lived child reads a file three times over several
 * samples and is reaped: counted once, whole. One that started before the
 * previous scan (it was there but unreadable, or missed) counts only from
 * the next interval, and so does everything at the first sample. */
START_TEST(test_window_newborn)
{
	struct tw_window w;
	/* Uptime 1000 ticks at the first scan, 1100 at the second... */
	struct tw_proc_io s0[] = { PROC(100, 10, 1000, 0, 1), PROC(150, 20, 5000, 5000, 1) };
	/* 200 born at 1050 (after the first scan) has read one pass; 300
	 * started at 990, before it, but was not seen then; 150's pid went
	 * to a new process born at 1000, the very tick of the scan. */
	struct tw_proc_io s1[] = {
		PROC(100, 10, 1000, 0, 1),
		PROC(150, 1000, 700, 70, 1),
		PROC(200, 1050, 128, 128, 100),
		PROC(300, 990, 40000, 40000, 1),
	};
	struct tw_proc_io s2[] = {
		PROC(100, 10, 1000, 0, 1),
		PROC(150, 1000, 700, 70, 1),
		PROC(200, 1050, 256, 256, 100),
		PROC(300, 990, 40010, 40001, 1),
	};
	/* 200 reaped by 100, after a third pass. */
	struct tw_proc_io s3[] = {
		PROC(100, 10, 1384, 384, 1),
		PROC(150, 1000, 700, 70, 1),
		PROC(300, 990, 40010, 40001, 1),
	};
	uint64_t dl, dp;

	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	push_procs_at(&w, 1000, 1000, s0, 2, &dl, &dp);
	ck_assert_uint_eq(dl, 0);
	push_procs_at(&w, 2000, 1100, s1, 4, &dl, &dp);
	ck_assert_uint_eq(dl, 700 + 128);
	ck_assert_uint_eq(dp, 70 + 128);
	ck_assert_uint_eq(w.procs_matched, 3);
	push_procs_at(&w, 3000, 1200, s2, 4, &dl, &dp);
	ck_assert_uint_eq(dl, 128 + 10);
	ck_assert_uint_eq(dp, 128 + 1);
	push_procs_at(&w, 4000, 1300, s3, 3, &dl, &dp);
	ck_assert_uint_eq(dl, 128);
	ck_assert_uint_eq(dp, 128);
	/* The child's three passes, each once, and 300's after it was seen. */
	ck_assert_uint_eq(w.physical_total, 70 + 384 + 1);
	tw_window_free(&w);
}
END_TEST

/* Without the start of the previous scan (no /proc/uptime there) a new
 * process counts from its second sample, as before. */
START_TEST(test_window_newborn_unknown)
{
	struct tw_window w;
	struct tw_proc_io s0[] = { PROC(100, 10, 0, 0, 1) };
	struct tw_proc_io s1[] = { PROC(100, 10, 0, 0, 1), PROC(200, 1050, 128, 128, 100) };
	struct tw_proc_io s2[] = { PROC(100, 10, 0, 0, 1), PROC(200, 1050, 256, 256, 100) };
	uint64_t dl, dp;

	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	push_procs(&w, 1000, s0, 1, &dl, &dp);
	push_procs_at(&w, 2000, 1100, s1, 2, &dl, &dp);
	ck_assert_uint_eq(dp, 0);
	push_procs_at(&w, 3000, 1200, s2, 2, &dl, &dp);
	ck_assert_uint_eq(dp, 128);
	tw_window_free(&w);
}
END_TEST

static Suite *
window_suite(void)
{
	Suite *s = suite_create("window");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_counter_steps);
	tcase_add_test(tc, test_track_set_basics);
	tcase_add_test(tc, test_track_reset_covers_no_time);
	tcase_add_test(tc, test_window_disk_increases);
	tcase_add_test(tc, test_window_slides);
	tcase_add_test(tc, test_window_wrap_reset_hotplug);
	tcase_add_test(tc, test_window_reads);
	tcase_add_test(tc, test_window_reaped_child);
	tcase_add_test(tc, test_window_unseen_child);
	tcase_add_test(tc, test_window_reparented);
	tcase_add_test(tc, test_window_reaper_clamped);
	tcase_add_test(tc, test_window_reaped_pid_reuse);
	tcase_add_test(tc, test_window_newborn);
	tcase_add_test(tc, test_window_newborn_unknown);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(window_suite());
}
