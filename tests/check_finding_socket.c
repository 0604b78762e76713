/* Unit tests for the findings on a UDP socket that drops: judged as
 * check_dblock judges it (lib/finding/judge_socket.c), raised by the
 * tracker after raise_after samples, with the socket as the subject and
 * the id check_dblock prints for the same socket. */
#include "config.h"

#include <stdint.h>

#include "advice/ticket.h"
#include "finding/judge.h"
#include "finding/observe.h"
#include "finding/tracker.h"
#include "tw_check.h"
#include "util/error.h"
#include "view/view.h"

/* syslogd's udp 0.0.0.0:514 dropping drops datagrams in the window, its
 * buffer rcvbuf bytes, rmem_max 212992 on its row and in the tunables. */
static void
make_view(struct tw_view *v, unsigned drops, uint64_t rcvbuf)
{
	struct tw_view_sock *s;

	tw_view_init(v);
	v->agent.has = TW_VIEW_BIT(TW_OID_AGENT_SYSTEM);
	strcpy(v->agent.system, "Linux 6.1.0-18-amd64");
	ck_assert_int_eq(tw_view_reserve_socks(v, 1), TW_OK);
	s = &v->socks[0];
	memset(s, 0, sizeof(*s));
	s->proto = 1;
	s->inode = 4242;
	strcpy(s->proto_name, "udp");
	strcpy(s->address, "0.0.0.0");
	strcpy(s->command, "syslogd");
	s->has = TW_VIEW_BIT(TW_OID_SOCKDROP_LOCAL_PORT) |
	    TW_VIEW_BIT(TW_OID_SOCKDROP_RECENT_DROPS) | TW_VIEW_BIT(TW_OID_SOCKDROP_OWNER_COMMAND) |
	    TW_VIEW_BIT(TW_OID_SOCKDROP_OWNER_PID) | TW_VIEW_BIT(TW_OID_SOCKDROP_RCVBUF) |
	    TW_VIEW_BIT(TW_OID_SOCKDROP_RMEM_MAX);
	s->col[TW_OID_SOCKDROP_LOCAL_PORT] = 514;
	s->col[TW_OID_SOCKDROP_RECENT_DROPS] = drops;
	s->col[TW_OID_SOCKDROP_OWNER_PID] = 321;
	s->col[TW_OID_SOCKDROP_RCVBUF] = rcvbuf;
	s->col[TW_OID_SOCKDROP_RMEM_MAX] = 212992;
	v->nsocks = 1;
	ck_assert_int_eq(tw_view_reserve_tunables(v, 1), TW_OK);
	v->tunables[0].index = 3;
	strcpy(v->tunables[0].name, "net.core.rmem_max");
	strcpy(v->tunables[0].value, "212992");
	v->ntunables = 1;
}

struct seen {
	struct tw_observation o[4];
	size_t n;
};

static int
collect(void *ctx, const struct tw_observation *o)
{
	struct seen *s = ctx;

	if (s->n < 4)
		s->o[s->n++] = *o;
	return 0;
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
	ck_assert_int_eq(tw_judge_socket(&c.sock_warn, &c.sock_crit, &v.socks[0], &st, &recent),
	    1);
	ck_assert_int_eq(st, TW_STATE_WARNING);
	ck_assert_uint_eq(recent, 152);
	tw_judge_socket_subject(&v.socks[0], subject, sizeof(subject));
	ck_assert_str_eq(subject, "udp 0.0.0.0:514");
	/* No drop count: not judged; no drops: OK. */
	v.socks[0].has &= ~TW_VIEW_BIT(TW_OID_SOCKDROP_RECENT_DROPS);
	ck_assert_int_eq(tw_judge_socket(&c.sock_warn, &c.sock_crit, &v.socks[0], &st, &recent),
	    0);
	ck_assert_int_eq(st, TW_STATE_OK);
	tw_view_free(&v);
	make_view(&v, 0, 212992);
	tw_judge_socket(&c.sock_warn, &c.sock_crit, &v.socks[0], &st, &recent);
	ck_assert_int_eq(st, TW_STATE_OK);
	tw_view_free(&v);
}
END_TEST

START_TEST(test_observe_at_max)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	char id[TW_TICKET_ID_LEN];

	tw_judge_defaults(&c);
	tw_threshold_parse(&c.sock_crit, "100");
	make_view(&v, 152, 212992);
	ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_int_eq(s.o[0].sym, TW_SYM_SOCKET_RCVBUF);
	ck_assert_int_eq(s.o[0].severity, TW_STATE_CRITICAL);
	ck_assert_str_eq(s.o[0].subject, "udp 0.0.0.0:514");
	ck_assert_str_eq(s.o[0].tunable, "net.core.rmem_max");
	ck_assert_str_eq(s.o[0].current, "212992");
	ck_assert_ptr_nonnull(strstr(s.o[0].evidence, "(critical range 100, drops in the window)"));
	tw_ticket_id(id, TW_SYM_SOCKET_RCVBUF, "udp 0.0.0.0:514", "net.core.rmem_max");
	ck_assert_str_eq(s.o[0].id, id);
	tw_view_free(&v);
}
END_TEST

/* A buffer below rmem_max: the application's SO_RCVBUF is the knob, a
 * finding with no tunable, still about the socket. */
START_TEST(test_observe_below_max)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	char id[TW_TICKET_ID_LEN];

	tw_judge_defaults(&c);
	make_view(&v, 152, 4608);
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_int_eq(s.o[0].severity, TW_STATE_WARNING);
	ck_assert_str_eq(s.o[0].subject, "udp 0.0.0.0:514");
	ck_assert_str_eq(s.o[0].tunable, "");
	ck_assert_int_eq(s.o[0].sym, TW_SYM_SOCKET_RCVBUF);
	tw_ticket_id(id, s.o[0].sym, "udp 0.0.0.0:514", "");
	ck_assert_str_eq(s.o[0].id, id);
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
	tw_view_init(&out);
	ck_assert_int_eq(tw_tracker_init(&t, 3, 3), TW_OK);
	for (i = 0; i < 3; i++) {
		tw_tracker_begin(&t);
		ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, tw_tracker_observe, &t), 0);
		tw_tracker_end(&t, now++);
		ck_assert_uint_eq(t.nevents, i < 2 ? 0 : 1);
	}
	ck_assert_int_eq(t.events[0].kind, TW_FINDING_EVENT_RAISED);
	ck_assert_str_eq(t.events[0].row.subject, "udp 0.0.0.0:514");
	tw_ticket_id(id, TW_SYM_SOCKET_RCVBUF, "udp 0.0.0.0:514", "net.core.rmem_max");
	ck_assert_str_eq(t.events[0].row.id, id);
	ck_assert_int_eq(tw_tracker_publish(&t, &out), TW_OK);
	ck_assert_uint_eq(out.nfindings, 1);
	ck_assert_str_eq(out.findings[0].subject, "udp 0.0.0.0:514");
	ck_assert_str_eq(out.findings[0].id, id);
	ck_assert_str_eq(out.findings[0].symptom, "socket-rcvbuf");
	for (i = 0; i < 3; i++) {
		tw_tracker_begin(&t);
		tw_observe(&c, &quiet, 60, TW_OS_LINUX, tw_tracker_observe, &t);
		tw_tracker_end(&t, now++);
	}
	ck_assert_uint_eq(t.nevents, 1);
	ck_assert_int_eq(t.events[0].kind, TW_FINDING_EVENT_CLEARED);
	ck_assert_str_eq(t.events[0].row.id, id);
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
	tcase_add_test(tc, test_observe_at_max);
	tcase_add_test(tc, test_observe_below_max);
	tcase_add_test(tc, test_tracked);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
