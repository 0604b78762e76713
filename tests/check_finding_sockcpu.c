/* SPDX-License-Identifier: ISC */
/* Unit tests for a dropping socket whose receiver is short of CPU, judged
 * from twSocketDropTable's row as tunewatchd and check_dblock judge it
 * (lib/finding/judge_socket.c): no tunable for the socket nor for the udp
 * receive buffer pool, where its buffer at rmem_max would otherwise name
 * net.core.rmem_max (the lab's neg-udp-cpu: a 16x buffer delivered no
 * more). */
#include "config.h"

#include <stdint.h>

#include "advice/ticket.h"
#include "finding/judge.h"
#include "finding/observe.h"
#include "tw_check.h"
#include "tw_findings.h"
#include "tw_sockview.h"
#include "util/error.h"
#include "view/record_socket.h"
#include "view/view.h"

#define SUBJECT "udp 127.0.0.1:5140 inode 4242"
#define POOL "udp receive buffer"

/* rx's udp 127.0.0.1:5140, its buffer at rmem_max 212992, dropping 5,000
 * datagrams in the window; with `busy` 1, its owner ran `cpu` and waited
 * `wait` percent of a CPU and `full` percent of its drops were in
 * intervals with its queue full (TwHundredths in the cells); with 2, only
 * the last is known. The udp receive buffer pool failed
 * as often. */
static void
make_view(struct tw_view *v, int busy, unsigned cpu, unsigned wait, unsigned full)
{
	struct tw_view_sock *s = udp_sock_view(v, "rx\\x1b[31m", "127.0.0.1", 5140, 5000, 212992);

	TW_PUT_CELL(*s, TW_OID_SOCKDROP_UID, 0);
	if (busy == 1) {
		TW_PUT_CELL(*s, TW_OID_SOCKDROP_OWNER_CPU, cpu * 100);
		TW_PUT_CELL(*s, TW_OID_SOCKDROP_OWNER_CPU_WAIT, wait * 100);
	}
	if (busy)
		TW_PUT_CELL(*s, TW_OID_SOCKDROP_FULL_SHARE, full * 100);
	add_udp_pool(v, 5000);
}

/* Short of CPU: no knob for the socket nor the pool, in tunewatchd's
 * findings and check_dblock's verdicts alike; the owner's name as shown. */
START_TEST(test_short_of_cpu)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	struct tw_socket_record f;
	struct tw_verdict verdict;
	const struct tw_finding *o;

	tw_judge_defaults(&c);
	make_view(&v, 1, 30, 68, 90);
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	o = find_subject(&s, SUBJECT);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(o->sym, TW_SYM_SOCKET_RCVBUF);
	ck_assert_str_eq(o->tunable, "");
	ck_assert_str_eq(o->apply, "");
	ck_assert_msg(strncmp(o->evidence, "rx\\x1b[31m (pid 321) is short of CPU: ran 30% and "
	    "waited 68% of a CPU as it dropped in the last 10 s, queue full: a bigger buffer only "
	    "delays drops", 134) == 0, "%s", o->evidence);
	o = find_subject(&s, POOL);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->tunable, "");
	ck_assert_ptr_nonnull(strstr(o->evidence, "whose receiver cannot keep up"));

	tw_view_socket_record(&v.socks[0], &f);
	ck_assert_int_eq(tw_judge_socket_verdict(&v, &f, 5000, 10, NULL, NULL, &verdict), TW_OK);
	ck_assert_uint_eq(verdict.nfound, 0);
	ck_assert_ptr_nonnull(strstr(verdict.no_tunable, "is short of CPU"));
	ck_assert_int_eq(tw_judge_udp_rcvbuf(&v, 5000, 10, &verdict), TW_OK);
	ck_assert_uint_eq(verdict.nfound, 0);
	ck_assert_ptr_nonnull(strstr(verdict.no_tunable, "whose receiver cannot keep up"));
	tw_view_free(&v);
}
END_TEST

/* Its queue full as it dropped, its owner's CPU not known yet (the owner
 * search or its first two intervals under way): no knob either, and not
 * called short of CPU. */
START_TEST(test_full_cpu_unknown)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	const struct tw_finding *o;

	tw_judge_defaults(&c);
	make_view(&v, 2, 0, 0, 95);
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	o = find_subject(&s, SUBJECT);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->tunable, "");
	ck_assert_msg(strstr(o->evidence, "with its queue full: a bigger buffer only delays them "
	    "(its CPU not known)") != NULL, "%s", o->evidence);
	o = find_subject(&s, POOL);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->tunable, "");
	tw_view_free(&v);
}
END_TEST

/* Not short: its queue full in half the window (a receiver that stalls in
 * bursts), or on a CPU 80 % (it slept for data), or the figures absent (an
 * agent before them): net.core.rmem_max, as before. */
START_TEST(test_not_short)
{
	static const unsigned cases[][4] = {
		{ 1, 30, 68, 50 }, { 1, 50, 30, 100 }, { 0, 0, 0, 0 },
	};
	struct tw_judge_config c;
	size_t k;

	tw_judge_defaults(&c);
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tw_view v;
		struct seen s = { .n = 0 };
		struct tw_verdict verdict;
		const struct tw_finding *o;

		make_view(&v, (int)cases[k][0], cases[k][1], cases[k][2], cases[k][3]);
		ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
		o = find_subject(&s, SUBJECT);
		ck_assert_ptr_nonnull(o);
		ck_assert_str_eq(o->tunable, "net.core.rmem_max");
		o = find_subject(&s, POOL);
		ck_assert_ptr_nonnull(o);
		ck_assert_str_eq(o->tunable, "net.core.rmem_max");
		ck_assert_int_eq(tw_judge_udp_rcvbuf(&v, 5000, 10, &verdict), TW_OK);
		ck_assert_uint_eq(verdict.nfound, 1);
		tw_view_free(&v);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("finding_sockcpu");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_short_of_cpu);
	tcase_add_test(tc, test_full_cpu_unknown);
	tcase_add_test(tc, test_not_short);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
