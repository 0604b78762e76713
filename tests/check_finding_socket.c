/* SPDX-License-Identifier: ISC */
/* Unit tests for the findings on a UDP socket that drops: judged as
 * check_dblock judges it (lib/finding/judge_socket.c), raised by the
 * tracker after raise_after samples, with the socket as the subject and
 * the id check_dblock prints for the same socket. */
#include "config.h"

#include <stdint.h>

#include "advice/ticket.h"
#include "finding/judge.h"
#include "finding/lookup.h"
#include "finding/observe.h"
#include "finding/tracker.h"
#include "tw_check.h"
#include "tw_findings.h"
#include "tw_sockview.h"
#include "util/error.h"
#include "sample/poolclass.h"
#include "view/build_priv.h"
#include "view/record_socket.h"
#include "view/view.h"

/* syslogd's udp 0.0.0.0:514 dropping drops datagrams in the window, its
 * buffer rcvbuf bytes, rmem_max 212992 on its row and in the tunables. */
static void
make_view(struct tw_view *v, unsigned drops, uint64_t rcvbuf)
{
	udp_sock_view(v, "syslogd", "0.0.0.0", 514, drops, rcvbuf);
}

/* Row s's record, as check_dblock and tunewatchd judge it. */
static const struct tw_socket_record *
record(const struct tw_view_sock *s)
{
	static struct tw_socket_record f;

	tw_view_socket_record(s, &f);
	return &f;
}

START_TEST(test_judge)
{
	struct tw_judge_config c;
	struct tw_view v;
	enum tw_state st;
	unsigned long long recent;
	char subject[TW_VIEW_STR];

	tw_judge_defaults(&c);
	make_view(&v, 152, 212992);
	ck_assert_int_eq(tw_judge_socket(&c.sock_warn, &c.sock_crit, record(&v.socks[0]), &st, &recent),
	    1);
	ck_assert_int_eq(st, TW_STATE_WARNING);
	ck_assert_uint_eq(recent, 152);
	tw_judge_socket_subject(record(&v.socks[0]), subject, sizeof(subject));
	ck_assert_str_eq(subject, "udp 0.0.0.0:514 inode 4242");
	/* No drop count: not judged; no drops: OK. */
	v.socks[0].has &= ~TW_VIEW_BIT(TW_OID_SOCKDROP_RECENT_DROPS);
	ck_assert_int_eq(tw_judge_socket(&c.sock_warn, &c.sock_crit, record(&v.socks[0]), &st, &recent),
	    0);
	ck_assert_int_eq(st, TW_STATE_OK);
	tw_view_free(&v);
	make_view(&v, 0, 212992);
	tw_judge_socket(&c.sock_warn, &c.sock_crit, record(&v.socks[0]), &st, &recent);
	ck_assert_int_eq(st, TW_STATE_OK);
	tw_view_free(&v);
}
END_TEST

START_TEST(test_observe_at_max)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s;
	const struct tw_finding *o;

	tw_judge_defaults(&c);
	tw_threshold_parse(&c.sock_crit, "100");
	make_view(&v, 152, 212992);
	o = observe_one(&s, &c, &v, TW_SYM_SOCKET_RCVBUF, TW_STATE_CRITICAL, "udp 0.0.0.0:514 inode 4242",
	    "net.core.rmem_max");
	ck_assert_str_eq(o->tunable, "net.core.rmem_max");
	ck_assert_str_eq(o->current, "212992");
	ck_assert_ptr_nonnull(strstr(o->evidence, "(critical range 100, drops in the window)"));
	tw_view_free(&v);
}
END_TEST

/* A buffer below rmem_max: the application's SO_RCVBUF is the knob, a
 * finding with no tunable, still about the socket. */
START_TEST(test_observe_below_max)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s;

	tw_judge_defaults(&c);
	make_view(&v, 152, 4608);
	/* The symptom looked for, not the table's first (softnet-drops). */
	ck_assert_str_eq(observe_one(&s, &c, &v, TW_SYM_SOCKET_RCVBUF, TW_STATE_WARNING,
	    "udp 0.0.0.0:514 inode 4242", "")->tunable, "");
	tw_view_free(&v);
}
END_TEST

/* A buffer of rmem_default, as the agent's tunable table gives it: the
 * finding names rmem_default, the knob that reaches a socket that sets no
 * SO_RCVBUF, with the value and the line that applies it. */
START_TEST(test_observe_default_buffer)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s;
	const struct tw_finding *o;

	tw_judge_defaults(&c);
	make_view(&v, 152, 106496);
	ck_assert_int_eq(tw_view_reserve_tunables(&v, 2), TW_OK);
	v.tunables[1].index = 4;
	strcpy(v.tunables[1].name, "net.core.rmem_default");
	strcpy(v.tunables[1].value, "106496");
	v.ntunables = 2;
	o = observe_one(&s, &c, &v, TW_SYM_SOCKET_RCVBUF_DEFAULT, TW_STATE_WARNING,
	    "udp 0.0.0.0:514 inode 4242",
	    "net.core.rmem_default");
	ck_assert_str_eq(o->tunable, "net.core.rmem_default");
	ck_assert_str_eq(o->current, "106496");
	ck_assert_str_eq(o->suggested, "212992");
	ck_assert_str_eq(o->apply, "sysctl -w net.core.rmem_default=212992");
	/* The whole advice, and the threshold note after it: the column holds both. */
	ck_assert_ptr_nonnull(strstr(o->evidence, "buffer rmem_default 106496, given to a socket "
	    "that sets no SO_RCVBUF when it is made: restart it (warning range 0, drops in the "
	    "window)"));
	tw_view_free(&v);
}
END_TEST

/* The pool's finding (tunewatchd) and check_dblock's verdict on it
 * (tw_judge_udp_rcvbuf, what plugins/sockdrops.c prints) on the same
 * view: both say "no tunable" while the only socket that dropped is below
 * rmem_max, and both name rmem_max once it is at it. */
START_TEST(test_pool_agrees_with_check)
{
	static const unsigned buffers[] = { 2304, 212992 * 2 };
	const char *pool = "udp receive buffer";
	struct tw_judge_config c;
	size_t k;

	tw_judge_defaults(&c);
	for (k = 0; k < 2; k++) {
		struct tw_view v;
		struct tw_verdict verdict;
		struct seen s = { .n = 0 };
		const struct tw_finding *o;
		char id[TW_TICKET_ID_LEN];

		make_view(&v, 1204, buffers[k]);
		add_udp_pool(&v, 1204);
		ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s), 0);
		o = find_subject(&s, pool);
		ck_assert_ptr_nonnull(o);
		ck_assert_int_eq(o->sym, TW_SYM_UDP_RCVBUF);
		ck_assert_int_eq(tw_judge_udp_rcvbuf(&v, 1204, 60, &verdict), TW_OK);
		if (k == 0) {
			/* Below rmem_max: no knob, in either. */
			ck_assert_uint_eq(verdict.nfound, 0);
			ck_assert_int_eq(verdict.no_tunable_sym, TW_SYM_UDP_RCVBUF);
			ck_assert_str_eq(o->tunable, "");
			ck_assert_str_eq(o->apply, "");
			ck_assert_ptr_eq(strstr(o->evidence, verdict.no_tunable), o->evidence);
			tw_ticket_id(id, verdict.no_tunable_sym, pool, "");
		} else {
			ck_assert_uint_eq(verdict.nfound, 1);
			ck_assert_int_eq(verdict.found[0].sym, TW_SYM_UDP_RCVBUF);
			ck_assert_str_eq(o->tunable, "net.core.rmem_max");
			tw_ticket_id(id, TW_SYM_UDP_RCVBUF, pool, "net.core.rmem_max");
		}
		ck_assert_str_eq(o->id, id);
		tw_view_free(&v);
	}
}
END_TEST

/* Two sockets bound to one port (SO_REUSEPORT), each dropping: two
 * findings with two ids, told apart by their inodes, and two rows. */
START_TEST(test_same_port_two_findings)
{
	struct tw_judge_config c;
	struct tw_tracker t;
	struct tw_view v, out;
	struct seen s = { .n = 0 };
	char a[TW_TICKET_ID_LEN], b[TW_TICKET_ID_LEN];
	int i;

	tw_judge_defaults(&c);
	make_view(&v, 152, 4608);
	ck_assert_int_eq(tw_view_reserve_socks(&v, 2), TW_OK);
	v.socks[1] = v.socks[0];
	v.socks[1].inode = 4243;
	v.nsocks = 2;
	ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s), 0);
	for (i = 0; i < 2; i++)
		ck_assert_str_eq(s.o[i].subject, i == 0 ? "udp 0.0.0.0:514 inode 4242" :
		    "udp 0.0.0.0:514 inode 4243");
	tw_ticket_id(a, s.o[0].sym, "udp 0.0.0.0:514 inode 4242", s.o[0].tunable);
	tw_ticket_id(b, s.o[1].sym, "udp 0.0.0.0:514 inode 4243", s.o[1].tunable);
	ck_assert_str_eq(s.o[0].id, a);
	ck_assert_str_eq(s.o[1].id, b);
	ck_assert_str_ne(a, b);
	tw_view_init(&out);
	ck_assert_int_eq(tw_tracker_init(&t, 3, 3), TW_OK);
	for (i = 0; i < 3; i++)
		feed_tracker(&t, &c, &v, 100 + (uint64_t)i);
	ck_assert_int_eq(publish_findings(&t, &out), TW_OK);
	/* The pool's own finding (udpReceiveBuffer) and the two sockets'. */
	{
		size_t k, mine = 0;

		for (k = 0; k < out.nfindings; k++)
			mine += strcmp(out.findings[k].id, a) == 0 || strcmp(out.findings[k].id, b) == 0;
		ck_assert_uint_eq(mine, 2);
	}
	tw_tracker_free(&t);
	tw_view_free(&v);
	tw_view_free(&out);
}
END_TEST

/* Every rule the check prints for the pool is a finding of tunewatchd:
 * rmem_default beside rmem_max (TW_RULE_WITH_PREV) is a second finding,
 * each with its own id, and tw_observe_picks, which check_dblock's tune:
 * lines come from, gives the same two rules in the same order. */
START_TEST(test_pool_rules_with_prev)
{
	static const char *const want[] = { "net.core.rmem_max", "net.core.rmem_default" };
	const char *pool = "udp receive buffer";
	struct tw_suggestion picks[TW_OBSERVE_PICKS_MAX];
	struct tw_view_lookup lk;
	struct tw_judge_config c;
	struct seen s = { .n = 0 };
	struct tw_view v;
	size_t i, n, mine = 0;

	tw_judge_defaults(&c);
	make_view(&v, 1204, 212992 * 2);
	add_udp_pool(&v, 1204);
	ck_assert_int_eq(tw_view_reserve_tunables(&v, 2), TW_OK);
	v.tunables[1].index = 4;
	strcpy(v.tunables[1].name, "net.core.rmem_default");
	strcpy(v.tunables[1].value, "212992");
	v.ntunables = 2;
	ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s), 0);
	for (i = 0; i < s.n; i++) {
		char id[TW_TICKET_ID_LEN];

		if (strcmp(s.o[i].subject, pool) != 0)
			continue;
		ck_assert_uint_lt(mine, 2);
		ck_assert_int_eq(s.o[i].sym, TW_SYM_UDP_RCVBUF);
		ck_assert_str_eq(s.o[i].tunable, want[mine]);
		ck_assert_str_eq(s.o[i].suggested, "425984");
		tw_ticket_id(id, TW_SYM_UDP_RCVBUF, pool, want[mine]);
		ck_assert_str_eq(s.o[i].id, id);
		mine++;
	}
	ck_assert_uint_eq(mine, 2);
	lk.v = &v;
	lk.d = NULL;
	lk.buf[0] = '\0';
	n = tw_observe_picks(TW_SYM_UDP_RCVBUF, TW_OS_LINUX, tw_view_lookup, &lk, picks);
	ck_assert_uint_eq(n, 2);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(picks[i].name, want[i]);
	tw_view_free(&v);
}
END_TEST

/* The host's pool still counts, for a window, the drops of a socket that
 * was made again to take a raised rmem_default, as its advice asks: no
 * socket open now dropped. While that change waits for its window after,
 * neither tunewatchd nor check_dblock names a knob (the lab's
 * net-udp-default named rmem_max 4194304 -> 8388608, and rmem_default
 * again, in the windows after its raise); once it has closed, drops in
 * the window are the new value's, and the rules name both again. */
START_TEST(test_pool_after_remade_socket)
{
	const char *pool = "udp receive buffer";
	struct tw_change_record ch;
	struct tw_judge_config c;
	struct tw_verdict verdict;
	const struct tw_finding *o;
	struct tw_view v;
	int evaluated;

	tw_judge_defaults(&c);
	make_view(&v, 0, 425984);
	add_udp_pool(&v, 11368);
	ck_assert_int_eq(tw_view_reserve_tunables(&v, 2), TW_OK);
	v.tunables[1].index = 4;
	strcpy(v.tunables[1].name, "net.core.rmem_default");
	strcpy(v.tunables[1].value, "425984");
	v.ntunables = 2;
	tw_change_record_init(&ch);
	ch.index = UINT32_MAX;
	ch.tunable = "net.core.rmem_default";
	ch.subject = "host";
	ch.old_value = "212992";
	ch.new_value = "425984";
	ch.time_s = 1700000000;
	ch.figure = pool;
	ch.unit = "failures/min";
	ch.before = 189569.19;
	for (evaluated = 0; evaluated < 2; evaluated++) {
		struct seen s = { .n = 0 };

		ch.evaluated = evaluated;
		ch.after = evaluated ? 136347.83 : TW_FIG_NONE;
		tw_view_build_change_row(&ch, &v.changes[0]);
		v.nchanges = 1;
		ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
		o = find_subject(&s, pool);
		ck_assert_ptr_nonnull(o);
		ck_assert_int_eq(o->sym, TW_SYM_UDP_RCVBUF);
		ck_assert_int_eq(tw_judge_udp_rcvbuf(&v, 11368, 10, &verdict), TW_OK);
		if (evaluated) {
			ck_assert_uint_eq(verdict.nfound, 1);
			ck_assert_str_eq(o->tunable, "net.core.rmem_max");
			continue;
		}
		ck_assert_uint_eq(verdict.nfound, 0);
		ck_assert_str_eq(o->tunable, "");
		ck_assert_str_eq(o->apply, "");
		ck_assert_str_eq(verdict.no_tunable, "11,368 datagrams were dropped on full receive "
		    "buffers in the last 10 s, by no socket open now: those closed since "
		    "net.core.rmem_default changed; its change history says if that helped");
		ck_assert_ptr_eq(strstr(o->evidence, verdict.no_tunable), o->evidence);
		/* No other finding of the pool names a knob. */
		for (size_t i = 0; i < s.n; i++)
			if (strcmp(s.o[i].subject, pool) == 0)
				ck_assert_str_eq(s.o[i].tunable, "");
	}
	tw_view_free(&v);
}
END_TEST

/* Drops at the UDP memory limit (the udp memory pool failing, as Linux
 * 6.18's uncounted socket drops make it): the pool's finding names
 * udp_mem with its value, and the socket at rmem_max, which would name
 * rmem_max otherwise, names none. */
START_TEST(test_udp_memory_pool)
{
	const char *pool = "udp memory";
	struct tw_judge_config c;
	struct seen s = { .n = 0 };
	const struct tw_finding *o;
	struct tw_view v;

	tw_judge_defaults(&c);
	make_view(&v, 1204, 212992 * 2);
	add_udp_pool(&v, 1204);
	v.pools[0].cls = TW_DBLOCK_UDP_MEMORY;
	strcpy(v.pools[0].name, pool);
	ck_assert_int_eq(tw_view_reserve_tunables(&v, 2), TW_OK);
	v.tunables[1].index = 5;
	strcpy(v.tunables[1].name, "net.ipv4.udp_mem");
	strcpy(v.tunables[1].value, "1024\t1536\t2048");
	v.ntunables = 2;
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	o = find_subject(&s, pool);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(o->sym, TW_SYM_UDP_MEM);
	ck_assert_str_eq(o->tunable, "net.ipv4.udp_mem");
	ck_assert_str_eq(o->current, "1024 1536 2048");
	ck_assert_str_eq(o->apply, "sysctl -w net.ipv4.udp_mem='2048 3072 4096'");
	ck_assert_ptr_eq(strstr(o->evidence, "1204 datagrams were dropped at the UDP memory limit "
	    "in the last 10 s"), o->evidence);
	o = find_subject(&s, "udp 0.0.0.0:514 inode 4242");
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->tunable, "");
	ck_assert_ptr_nonnull(strstr(o->evidence, "net.ipv4.udp_mem bounds them"));
	tw_view_free(&v);
}
END_TEST

/* Raised after three samples in a row, published in twFindingTable with
 * the socket as subject; cleared after three without drops. */
START_TEST(test_tracked)
{
	struct tw_judge_config c;
	struct tw_tracker t;
	struct tw_view v, quiet, out;
	char id[TW_TICKET_ID_LEN];
	uint64_t now = 1000;
	int i;

	tw_judge_defaults(&c);
	make_view(&v, 152, 212992);
	make_view(&quiet, 0, 212992);
	tw_ticket_id(id, TW_SYM_SOCKET_RCVBUF, "udp 0.0.0.0:514 inode 4242", "net.core.rmem_max");
	raise_on_third(&t, &c, &v, now, 1, "udp 0.0.0.0:514 inode 4242", id, &out);
	now += 3;
	ck_assert_str_eq(out.findings[0].symptom, "socket-rcvbuf");
	for (i = 0; i < 3; i++)
		ck_assert_uint_eq(feed_tracker(&t, &c, &quiet, now++), i < 2 ? 0 : 1);
	ck_assert_int_eq(t.events[0].kind, TW_FINDING_EVENT_CLEARED);
	ck_assert_str_eq(t.events[0].finding.id, id);
	tw_tracker_free(&t);
	tw_view_free(&v);
	tw_view_free(&quiet);
	tw_view_free(&out);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("finding_socket");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_judge);
	tcase_add_test(tc, test_same_port_two_findings);
	tcase_add_test(tc, test_observe_at_max);
	tcase_add_test(tc, test_observe_below_max);
	tcase_add_test(tc, test_observe_default_buffer);
	tcase_add_test(tc, test_pool_agrees_with_check);
	tcase_add_test(tc, test_pool_rules_with_prev);
	tcase_add_test(tc, test_pool_after_remade_socket);
	tcase_add_test(tc, test_udp_memory_pool);
	tcase_add_test(tc, test_tracked);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
