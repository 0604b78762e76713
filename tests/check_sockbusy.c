/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/sockets/sockbusy.c, a dropping socket's owner's CPU
 * over the window and the intervals its queue was full, on proc roots made
 * by the test (tw_fakeproc.h) and a clock it sets; and the figures as the
 * view's row of the socket has them (lib/derive/socket.c). */
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "sockets/sockbusy.h"
#include "sockets/sockwatch.h"
#include "tw_check.h"
#include "tw_fakeproc.h"
#include "util/error.h"
#include "view/record_socket.h"
#include "view/sockview.h"

#define S 1000000000ull

/* Thread tid of pid with run and wait ns so far. */
static void
thread(struct tw_fakeproc *fp, int pid, int tid, uint64_t run, uint64_t wait)
{
	char path[64], text[96];

	snprintf(path, sizeof(path), "%d/task", pid);
	(void)mkdirat(fp->fd, path, 0755);
	snprintf(path, sizeof(path), "%d/task/%d", pid, tid);
	(void)mkdirat(fp->fd, path, 0755);
	snprintf(path, sizeof(path), "%d/task/%d/schedstat", pid, tid);
	snprintf(text, sizeof(text), "%llu %llu 42\n", (unsigned long long)run,
	    (unsigned long long)wait);
	tw_fakeproc_file(fp, path, text);
}

/* What the watcher does: read pid (0: not) and step. */
static void
busy_step(struct tw_sock_busy *b, unsigned slot, uint64_t drops, int full,
    struct tw_fakeproc *fp, int pid, uint64_t now)
{
	struct tw_busy_reading rd = { .pid = pid };

	if (pid > 0)
		ck_assert_int_eq(tw_sockbusy_read(fp->fd, pid, &rd.run_ns, &rd.wait_ns), TW_OK);
	tw_sockbusy_step(b, slot, drops, full, pid > 0 ? &rd : NULL, now);
}

/* Every thread's time, summed; what is not a process's is said so. */
START_TEST(test_read)
{
	static const unsigned none[] = { 0 };
	struct tw_fakeproc fp;
	uint64_t run, wait;
	int tid;

	tw_fakeproc_open(&fp);
	tw_fakeproc_process(&fp, 10, "syslogd", none, 1);
	thread(&fp, 10, 10, 3 * S, 1 * S);
	thread(&fp, 10, 11, 1 * S, 0);
	ck_assert_int_eq(tw_sockbusy_read(fp.fd, 10, &run, &wait), TW_OK);
	ck_assert_uint_eq(run, 4 * S);
	ck_assert_uint_eq(wait, 1 * S);
	ck_assert_int_eq(tw_sockbusy_read(fp.fd, 11, &run, &wait), TW_E_ABSENT);

	/* Past TW_SOCK_BUSY_THREADS threads: not read. */
	tw_fakeproc_process(&fp, 20, "busy", none, 1);
	for (tid = 0; tid <= TW_SOCK_BUSY_THREADS; tid++)
		thread(&fp, 20, 1000 + tid, 1, 1);
	ck_assert_int_eq(tw_sockbusy_read(fp.fd, 20, &run, &wait), TW_E_TOOBIG);

	/* A line that is not two numbers. */
	tw_fakeproc_process(&fp, 30, "odd", none, 1);
	thread(&fp, 30, 30, 0, 0);
	tw_fakeproc_file(&fp, "30/task/30/schedstat", "x y z\n");
	ck_assert_int_eq(tw_sockbusy_read(fp.fd, 30, &run, &wait), TW_E_INVAL);
	tw_fakeproc_close(&fp);
}
END_TEST

/* Over a window of 4 intervals, those in which the socket dropped,
 * weighted by their drops: the share of the drops in intervals that began
 * or ended full, from two such intervals, and of one CPU over those read,
 * from one, but for one that began full and ended drained (the receiver
 * caught up in it). An interval without drops counts for nothing
 * (the receiver caught up and slept); one without its owner read, or
 * after the pid changed, adds no time. Once too few are left, the
 * episode's last whole figures are kept until the window has no drops. */
START_TEST(test_window)
{
	static const unsigned none[] = { 0 };
	struct tw_fakeproc fp;
	struct tw_sock_busy b;
	struct tw_busy_window bw;
	unsigned k;

	tw_fakeproc_open(&fp);
	tw_fakeproc_process(&fp, 10, "rx", none, 1);
	tw_fakeproc_process(&fp, 20, "rx2", none, 1);
	thread(&fp, 20, 20, 0, 0);
	ck_assert_int_eq(tw_sockbusy_init(&b, 4), TW_OK);

	thread(&fp, 10, 10, 0, 0);
	busy_step(&b, 0, 100, 1, &fp, 10, 100 * S);		/* the first reading */
	tw_sockbusy_window(&b, &bw);
	ck_assert_uint_eq(bw.dropped, 1);
	ck_assert_int_eq(bw.have_full, 0);
	ck_assert_int_eq(bw.have_cpu, 0);

	/* Drained at its end, but begun full: counted full; its CPU is not
	 * (the receiver caught up in it and may have slept). */
	thread(&fp, 10, 10, S / 2, S / 2 - S / 10);		/* 50 % + 40 % */
	busy_step(&b, 1, 100, 0, &fp, 10, 101 * S);
	tw_sockbusy_window(&b, &bw);
	ck_assert_int_eq(bw.have_full, 1);
	ck_assert_double_eq_tol(bw.full_share, 1.0, 1e-9);
	ck_assert_int_eq(bw.have_cpu, 0);

	/* Ended full: one interval read gives the CPU. (Had it ended
	 * drained, not begun full, it would count too.) */
	thread(&fp, 10, 10, S / 2 + 2 * S / 10, S - S / 10);	/* 20 % + 50 % */
	busy_step(&b, 2, 200, 1, &fp, 10, 102 * S);
	tw_sockbusy_window(&b, &bw);
	ck_assert_uint_eq(bw.dropped, 3);
	ck_assert_double_eq_tol(bw.full_share, 1.0, 1e-9);
	ck_assert_int_eq(bw.have_cpu, 1);
	ck_assert_double_eq_tol(bw.run_share, 0.2, 1e-9);
	ck_assert_double_eq_tol(bw.wait_share, 0.5, 1e-9);

	/* No drop, the receiver idle: read, and left out. A queue "full"
	 * without a drop is not counted either. */
	busy_step(&b, 3, 0, 1, &fp, 10, 103 * S);
	tw_sockbusy_window(&b, &bw);
	ck_assert_uint_eq(bw.dropped, 3);
	ck_assert_double_eq_tol(bw.full_share, 1.0, 1e-9);
	ck_assert_double_eq_tol(bw.run_share, 0.2, 1e-9);

	/* Another pid (the owner changed): no time for this interval, which
	 * takes the slot of the first. */
	busy_step(&b, 0, 100, 1, &fp, 20, 104 * S);
	tw_sockbusy_window(&b, &bw);
	ck_assert_double_eq_tol(bw.full_share, 1.0, 1e-9);
	ck_assert_double_eq_tol(bw.run_share, 0.2, 1e-9);

	/* The drops stop: with one interval of them left, the figures of
	 * the last window that had enough; with none, nothing. */
	busy_step(&b, 1, 0, 0, &fp, 0, 105 * S);
	busy_step(&b, 2, 0, 0, &fp, 0, 106 * S);
	tw_sockbusy_window(&b, &bw);
	ck_assert_uint_eq(bw.dropped, 1);
	ck_assert_int_eq(bw.have_full, 1);
	ck_assert_int_eq(bw.have_cpu, 1);
	/* Those of the window at 105: slots 0 (100, full, not read) and 2
	 * (200, full, 20 % + 50 %). */
	ck_assert_double_eq_tol(bw.full_share, 1.0, 1e-9);
	ck_assert_double_eq_tol(bw.run_share, 0.2, 1e-9);
	ck_assert_double_eq_tol(bw.wait_share, 0.5, 1e-9);
	busy_step(&b, 3, 0, 0, &fp, 0, 107 * S);
	busy_step(&b, 0, 0, 0, &fp, 0, 108 * S);
	tw_sockbusy_window(&b, &bw);
	ck_assert_uint_eq(bw.dropped, 0);
	ck_assert_int_eq(bw.have_full, 0);
	ck_assert_int_eq(bw.have_cpu, 0);

	/* A new episode, the whole window dropping and read, all of one CPU
	 * running or waiting: nothing of the last one kept. */
	for (k = 1; k <= 5; k++) {
		thread(&fp, 20, 20, k * 6 * S / 10, k * 4 * S / 10);
		busy_step(&b, k % 4, 50, 1, &fp, 20, (108 + k) * S);
	}
	tw_sockbusy_window(&b, &bw);
	ck_assert_int_eq(bw.have_cpu, 1);
	ck_assert_double_eq_tol(bw.run_share, 0.6, 1e-9);
	ck_assert_double_eq_tol(bw.wait_share, 0.4, 1e-9);
	ck_assert_uint_eq(bw.dropped, 4);
	ck_assert_double_eq_tol(bw.full_share, 1.0, 1e-9);
	tw_sockbusy_free(&b);
	tw_fakeproc_close(&fp);
}
END_TEST

/* A flood's tail (the lab's neg-udp-cpu): three intervals of 6,000 drops
 * ended full with the receiver on or waiting for a CPU 98 % of the time,
 * then the one the flood stopped in, begun full, 3,500 drops, ended
 * drained with the receiver 32 % busy (it caught up and slept). Its CPU
 * is not counted: 98 % through the tail and in the figures kept once one
 * interval of drops is left; counted, it took them to 83 % and 74 %,
 * under TW_SHORT_CPU_BUSY, and the check named rmem_default. Drops in
 * intervals neither begun nor ended full (a burst, or a queue not known):
 * not full, their CPU counted. */
START_TEST(test_tail)
{
	static const unsigned none[] = { 0 };
	struct tw_fakeproc fp;
	struct tw_sock_busy b;
	struct tw_busy_window bw;

	tw_fakeproc_open(&fp);
	tw_fakeproc_process(&fp, 30, "rx", none, 1);
	ck_assert_int_eq(tw_sockbusy_init(&b, 4), TW_OK);
	thread(&fp, 30, 30, 0, 0);
	busy_step(&b, 0, 6000, 1, &fp, 30, 200 * S);
	thread(&fp, 30, 30, 7 * S / 10, 28 * S / 100);
	busy_step(&b, 1, 6000, 1, &fp, 30, 201 * S);
	thread(&fp, 30, 30, 14 * S / 10, 56 * S / 100);
	busy_step(&b, 2, 6000, 1, &fp, 30, 202 * S);
	thread(&fp, 30, 30, 17 * S / 10, 58 * S / 100);		/* 30 % + 2 % */
	busy_step(&b, 3, 3500, 0, &fp, 30, 203 * S);
	tw_sockbusy_window(&b, &bw);
	ck_assert_uint_eq(bw.dropped, 4);
	ck_assert_double_eq_tol(bw.full_share, 1.0, 1e-9);
	ck_assert_int_eq(bw.have_cpu, 1);
	ck_assert_double_eq_tol(bw.run_share, 0.7, 1e-9);
	ck_assert_double_eq_tol(bw.wait_share, 0.28, 1e-9);
	/* The receiver idle after it: the last window with two intervals
	 * of drops is kept. */
	busy_step(&b, 0, 0, 0, &fp, 30, 204 * S);
	busy_step(&b, 1, 0, 0, &fp, 30, 205 * S);
	busy_step(&b, 2, 0, 0, &fp, 30, 206 * S);
	tw_sockbusy_window(&b, &bw);
	ck_assert_uint_eq(bw.dropped, 1);
	ck_assert_int_eq(bw.have_cpu, 1);
	ck_assert_double_eq_tol(bw.run_share + bw.wait_share, 0.98, 1e-9);
	ck_assert_double_eq_tol(bw.full_share, 1.0, 1e-9);

	busy_step(&b, 3, 0, 0, &fp, 30, 207 * S);
	busy_step(&b, 0, 500, 0, &fp, 30, 208 * S);
	thread(&fp, 30, 30, 18 * S / 10, 58 * S / 100);		/* 10 % */
	busy_step(&b, 1, 500, 0, &fp, 30, 209 * S);
	tw_sockbusy_window(&b, &bw);
	ck_assert_int_eq(bw.have_full, 1);
	ck_assert_double_eq_tol(bw.full_share, 0.0, 1e-9);
	ck_assert_int_eq(bw.have_cpu, 1);
	ck_assert_double_eq_tol(bw.run_share, 0.05, 1e-9);	/* 0 and 10 %, 500 each */
	tw_sockbusy_free(&b);
	tw_fakeproc_close(&fp);
}
END_TEST

static uint64_t fake_now;

static uint64_t
fake_clock(void)
{
	return fake_now;
}

/* Through the watcher and the view: the socket's owner, once found, is
 * read every sample while its socket drops, and its row has its CPU; the
 * queue is never full here (no buffer is known without sock_diag). */
START_TEST(test_view_row)
{
	static const unsigned inodes[] = { 1001 }, ports[] = { 5140 }, fd10[] = { 1001 };
	struct tw_sockwatch_config cfg = { .intervals = 4, .owner_procs = 10, .diag = 0,
	    .clock_ns = fake_clock };
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_sockwatch w;
	struct tw_fakeproc fp;
	struct tw_sample s;
	struct tw_view v;
	struct tw_socket_record sf;
	unsigned k, drops;

	tw_fakeproc_open(&fp);
	tw_fakeproc_process(&fp, 10, "syslogd", fd10, 1);
	ck_assert_int_eq(tw_sockwatch_init(&w, &cfg), TW_OK);
	tw_sample_init(&s);
	tw_view_init(&v);
	for (k = 1; k <= 7; k++) {
		fake_now = (200 + k) * S;
		thread(&fp, 10, 10, k * 7 * S / 10, k * 25 * S / 100);
		drops = 100 * k;
		tw_fakeproc_udp(&fp, inodes, ports, &drops, 1);
		ck_assert_int_eq(tw_sockwatch_step(&w, fp.fd, NULL, NULL, &ps), TW_OK);
		ck_assert_int_eq(tw_view_build_socks(&v, &w, &s), TW_OK);
		ck_assert_uint_eq(v.nsocks, 1);
		tw_view_socket_record(&v.socks[0], &sf);
		/* Nothing recent in the first sample; found in the second
		 * (its drops grew) and read from then on: a figure once an
		 * interval has been read. */
		if (k < 3) {
			ck_assert(!tw_view_has(&v.socks[0], TW_OID_SOCKDROP_OWNER_CPU));
			continue;
		}
		ck_assert_int_eq(sf.pid, 10);
		ck_assert_double_eq_tol(sf.owner_cpu, 70, 0.01);
		ck_assert_double_eq_tol(sf.owner_cpu_wait, 25, 0.01);
		ck_assert_double_eq_tol(sf.full_share, 0, 0.01);
	}
	/* It stops dropping and its owner runs flat out at something else:
	 * the intervals it dropped in keep their figures while the window
	 * holds them, then the figures go. */
	for (k = 8; k <= 13; k++) {
		fake_now = (200 + k) * S;
		thread(&fp, 10, 10, k * S, 0);
		ck_assert_int_eq(tw_sockwatch_step(&w, fp.fd, NULL, NULL, &ps), TW_OK);
		if (k == 9) {
			ck_assert_int_eq(tw_view_build_socks(&v, &w, &s), TW_OK);
			tw_view_socket_record(&v.socks[0], &sf);
			ck_assert_double_eq_tol(sf.owner_cpu, 70, 0.01);
			ck_assert_double_eq_tol(sf.owner_cpu_wait, 25, 0.01);
		}
	}
	ck_assert_int_eq(tw_view_build_socks(&v, &w, &s), TW_OK);
	ck_assert(!tw_view_has(&v.socks[0], TW_OID_SOCKDROP_OWNER_CPU));
	tw_view_free(&v);
	tw_sample_free(&s);
	tw_sockwatch_free(&w);
	tw_fakeproc_close(&fp);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sockbusy");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_window);
	tcase_add_test(tc, test_tail);
	tcase_add_test(tc, test_view_row);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
