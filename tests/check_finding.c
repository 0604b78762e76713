/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/finding: the judgement shared with the checks, the
 * observations of a view, the hysteresis of the tracker and its bound,
 * and the findings walked through the MIB view. */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "advice/ticket.h"
#include "finding/judge.h"
#include "finding/lookup.h"
#include "finding/observe.h"
#include "finding/tracker.h"
#include "tw_check.h"
#include "util/error.h"
#include "view/build.h"
#include "view/columns.h"
#include "view/record_cache.h"
#include "view/record_pool.h"
#include "finding/ratchet.h"
#include "view/build_priv.h"
#include "view/mibview.h"
#include "view/notice.h"
#include "view/view.h"

/* The figures of a pool row, as the judges read them. */
static const struct tw_pool_record *
pool_record(const struct tw_view_pool *p)
{
	static struct tw_pool_record f;

	tw_view_pool_record(p, &f);
	return &f;
}

/* The judges read records: a view's row decoded as tunewatchd does. */
static int
judge_disk(const struct tw_judge_config *c, const struct tw_view_disk *d,
    struct tw_disk_judgement *j)
{
	struct tw_disk_record f;

	tw_view_disk_record(d, &f);
	/* No twBcDirtyLimited in these views: every write is judged. */
	return tw_judge_disk(c, &f, INFINITY, j);
}

static const char *
queue_value(const struct tw_view_disk *d, const char *name, char *buf, size_t len)
{
	struct tw_disk_record f;

	if (d == NULL)
		return tw_view_queue_value(NULL, name, buf, len);
	tw_view_disk_record(d, &f);
	return tw_view_queue_value(&f, name, buf, len);
}

/* A view with one disk, sda, and cpu1's input queue: r_await in ms,
 * aqu-sz, and the drops of cpu1 in the window. */
static void
make_view(struct tw_view *v, double r_await, double queue, unsigned drops)
{
	struct tw_view_disk *d;
	struct tw_view_pool *p;

	tw_view_init(v);
	v->agent.has = TW_VIEW_BIT(TW_OID_AGENT_SYSTEM);
	strcpy(v->agent.system, "Linux 6.1.0-18-amd64");
	tw_view_reserve_disks(v, 1);
	d = &v->disks[0];
	memset(d, 0, sizeof(*d));
	d->major = 8;
	strcpy(d->name, "sda");
	d->has = TW_VIEW_BIT(TW_OID_DISK_NAME) | TW_VIEW_BIT(TW_OID_DISK_SCHEDULER);
	TW_PUT_CELL(*d, TW_OID_DISK_READ_LATENCY, (uint64_t)(r_await * 1000));
	TW_PUT_CELL(*d, TW_OID_DISK_WRITE_LATENCY, 0);
	TW_PUT_CELL(*d, TW_OID_DISK_QUEUE_DEPTH, (uint64_t)(queue * 100));
	TW_PUT_CELL(*d, TW_OID_DISK_UTIL, 0);
	TW_PUT_CELL(*d, TW_OID_DISK_READ_OPS, 20000);
	TW_PUT_CELL(*d, TW_OID_DISK_WRITE_OPS, 0);
	TW_PUT_CELL(*d, TW_OID_DISK_NR_REQUESTS, 64);
	TW_PUT_CELL(*d, TW_OID_DISK_ROTATIONAL, 1);
	strcpy(d->scheduler, "mq-deadline");
	v->ndisks = 1;
	tw_view_reserve_pools(v, 1);
	p = &v->pools[0];
	memset(p, 0, sizeof(*p));
	p->cls = TW_DBLOCK_SOFTNET_BACKLOG;
	p->instance = 1;
	strcpy(p->name, "cpu1 backlog");
	TW_PUT_CELL(*p, TW_OID_DBLOCK_RECENT_FAILURES, drops);
	v->npools = 1;
	tw_view_reserve_tunables(v, 1);
	v->tunables[0].index = 9;
	strcpy(v->tunables[0].name, "net.core.netdev_max_backlog");
	strcpy(v->tunables[0].value, "1000");
	v->ntunables = 1;
}

struct seen {
	struct tw_finding o[8];
	size_t n;
};

static int
collect(void *ctx, const struct tw_finding *o)
{
	struct seen *s = ctx;

	if (s->n < 8)
		s->o[s->n++] = *o;
	return 0;
}

static const struct tw_finding *
find_sym(const struct seen *s, enum tw_symptom sym)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->o[i].sym == sym)
			return &s->o[i];
	return NULL;
}

START_TEST(test_observe_pool)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	const struct tw_finding *o;
	char id[TW_TICKET_ID_LEN];

	tw_judge_defaults(&c);
	make_view(&v, 1, 0, 152);
	ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s), 0);
	ck_assert_uint_eq(s.n, 1);
	o = find_sym(&s, TW_SYM_SOFTNET_DROPS);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(o->severity, TW_STATE_WARNING);
	ck_assert_str_eq(o->subject, "softnet backlog");
	ck_assert_str_eq(o->evidence, "cpu1 dropped 152 packets in the last 60 s (warning "
	    "range 0, failures in the window)");
	ck_assert_str_eq(o->tunable, "net.core.netdev_max_backlog");
	ck_assert_str_eq(o->current, "1000");
	ck_assert_str_eq(o->suggested, "2000");
	ck_assert_str_eq(o->apply, "sysctl -w net.core.netdev_max_backlog=2000");
	tw_ticket_id(id, TW_SYM_SOFTNET_DROPS, "softnet backlog", "net.core.netdev_max_backlog");
	ck_assert_str_eq(o->id, id);
	/* A critical range the figure passes makes it critical; a warning
	 * range it stays within, nothing. */
	tw_threshold_parse(&c.pool_crit, "100");
	s.n = 0;
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_int_eq(s.o[0].severity, TW_STATE_CRITICAL);
	ck_assert_str_eq(s.o[0].evidence, "cpu1 dropped 152 packets in the last 60 s (critical "
	    "range 100, failures in the window)");
	tw_judge_defaults(&c);
	tw_threshold_parse(&c.pool_warn, "200");
	s.n = 0;
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_uint_eq(s.n, 0);
	tw_view_free(&v);
}
END_TEST

/* The view's change history holds one change of netdev_max_backlog,
 * 1000 -> new_value, evaluated or not, its figure before and after. */
static void
one_change(struct tw_view *v, const char *new_value, int evaluated, double before,
    double after)
{
	struct tw_change_record c;

	tw_change_record_init(&c);
	c.index = UINT32_MAX;
	c.tunable = "net.core.netdev_max_backlog";
	c.subject = "host";
	c.old_value = "1000";
	c.new_value = new_value;
	c.time_s = 1700000000;
	c.evaluated = evaluated;
	c.figure = "cpu1 backlog";
	c.unit = "failures/min";
	c.before = before;
	if (evaluated)
		c.after = after;
	tw_view_build_change_row(&c, &v->changes[0]);
	v->nchanges = 1;
}

/* No ratchet (finding/ratchet.h): netdev_max_backlog at 2000, which a
 * change from 1000 set. While that change waits for its window after, or
 * once it shows no gain (152 failures/min before, 160 after), the drops
 * that remain keep their finding (its id, its ticket) with no value to
 * apply, and say why; a change that helped in part,
 * or one that set another value, leaves the doubling to 4000 as it was.
 * Before (6900ab4) every sample's finding proposed 4000. */
START_TEST(test_ratchet)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	char id[TW_TICKET_ID_LEN];

	tw_judge_defaults(&c);
	make_view(&v, 1, 0, 152);
	strcpy(v.tunables[0].value, "2000");
	one_change(&v, "2000", 0, 152, 0);
	ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s), 0);
	ck_assert_uint_eq(s.n, 1);
	/* The same finding (its ticket's id), no value, no apply line. */
	tw_ticket_id(id, TW_SYM_SOFTNET_DROPS, "softnet backlog", "net.core.netdev_max_backlog");
	ck_assert_str_eq(s.o[0].id, id);
	ck_assert_str_eq(s.o[0].tunable, "net.core.netdev_max_backlog");
	ck_assert_str_eq(s.o[0].current, "2000");
	ck_assert_str_eq(s.o[0].suggested, "");
	ck_assert_str_eq(s.o[0].apply, "");
	ck_assert_str_eq(s.o[0].no_apply, TW_RATCHET_NO_APPLY);
	ck_assert_msg(strstr(s.o[0].evidence, "net.core.netdev_max_backlog was raised to 2000 "
	    "(from 1000) and the window after the change has not closed") != NULL, "%s",
	    s.o[0].evidence);
	one_change(&v, "2000", 1, 152, 160);
	s.n = 0;
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_str_eq(s.o[0].suggested, "");
	ck_assert_str_eq(s.o[0].id, id);
	ck_assert_msg(strstr(s.o[0].evidence, "cpu1 backlog did not get better (152 before, 160 "
	    "after): not raised again without new evidence") != NULL, "%s", s.o[0].evidence);
	one_change(&v, "2000", 1, 152, 40);
	s.n = 0;
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_str_eq(s.o[0].tunable, "net.core.netdev_max_backlog");
	ck_assert_str_eq(s.o[0].suggested, "4000");
	one_change(&v, "1500", 0, 152, 0);
	s.n = 0;
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_str_eq(s.o[0].suggested, "4000");
	tw_view_free(&v);
}
END_TEST

/* Pool i of v, of class cls, name and failures in the window. */
static void
set_pool(struct tw_view *v, size_t i, uint32_t cls, uint32_t instance, const char *name,
    unsigned failures)
{
	struct tw_view_pool *p;

	ck_assert_int_eq(tw_view_reserve_pools(v, i + 1), TW_OK);
	p = &v->pools[i];
	memset(p, 0, sizeof(*p));
	p->cls = cls;
	p->instance = instance;
	strcpy(p->name, name);
	TW_PUT_CELL(*p, TW_OID_DBLOCK_RECENT_FAILURES, failures);
	if (v->npools < i + 1)
		v->npools = i + 1;
}

/* tcp_mem doubled from 3072 6144 12288 to 6144 12288 24576 and TCP in
 * memory pressure 100 % of the window before and after: TCP leaves
 * pressure only below the first value, which the doubling put at the old
 * second, so while it holds at least 6144 pages the share could not fall,
 * and the next doubling is offered (the lab's net-tcp-mem, on 56709ce:
 * "not raised again" after the first round, the pressure gone only at the
 * third). Holding less than that and still no better: held back. */
START_TEST(test_ratchet_tcp_mem)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct tw_change_record ch;
	struct seen s = { .n = 0 };
	const struct tw_finding *o;

	tw_judge_defaults(&c);
	make_view(&v, 1, 0, 0);
	set_pool(&v, 0, TW_DBLOCK_TCP_MEMORY, 0, "tcp memory", 0);
	TW_PUT_CELL(v.pools[0], TW_OID_DBLOCK_RECENT_PRESSURE_TIME, 10000);
	TW_PUT_CELL(v.pools[0], TW_OID_DBLOCK_IN_USE, 13000);
	strcpy(v.tunables[0].name, "net.ipv4.tcp_mem");
	strcpy(v.tunables[0].value, "6144 12288 24576");
	tw_change_record_init(&ch);
	ch.index = UINT32_MAX;
	ch.tunable = "net.ipv4.tcp_mem";
	ch.subject = "host";
	ch.old_value = "3072 6144 12288";
	ch.new_value = "6144 12288 24576";
	ch.time_s = 1700000000;
	ch.evaluated = 1;
	ch.figure = "tcp memory pressure";
	ch.unit = "%";
	ch.before = 100;
	ch.after = 100;
	tw_view_build_change_row(&ch, &v.changes[0]);
	v.nchanges = 1;
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	o = find_sym(&s, TW_SYM_TCP_MEM);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->current, "6144 12288 24576");
	ck_assert_str_eq(o->suggested, "12288 24576 49152");
	ck_assert_str_eq(o->apply, "sysctl -w net.ipv4.tcp_mem='12288 24576 49152'");
	/* Under the new first value and no better: the raise did not help. */
	v.pools[0].col[TW_OID_DBLOCK_IN_USE] = 6000;
	s.n = 0;
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	o = find_sym(&s, TW_SYM_TCP_MEM);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->suggested, "");
	ck_assert_str_eq(o->no_apply, TW_RATCHET_NO_APPLY);
	ck_assert_msg(strstr(o->evidence, "tcp memory pressure did not get better (100 before, "
	    "100 after)") != NULL, "%s", o->evidence);
	/* Memory in use unknown: no evidence either way, held back. */
	v.pools[0].has &= ~TW_VIEW_BIT(TW_OID_DBLOCK_IN_USE);
	s.n = 0;
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	ck_assert_str_eq(find_sym(&s, TW_SYM_TCP_MEM)->suggested, "");
	tw_view_free(&v);
}
END_TEST

/* tunewatchd doubles the backlog whatever its CPUs dropped, as the check
 * does: 2000, not 1000 + 5000 (the worst CPU's drops in the window, many
 * bursts', which the suggestion followed to the 16x cap before issue 32). */
START_TEST(test_observe_backlog_doubled)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	const struct tw_finding *o;

	tw_judge_defaults(&c);
	make_view(&v, 1, 0, 5000);
	set_pool(&v, 1, TW_DBLOCK_SOFTNET_BACKLOG, 0, "cpu0 backlog", 3000);
	ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s), 0);
	o = find_sym(&s, TW_SYM_SOFTNET_DROPS);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->suggested, "2000");
	ck_assert_str_eq(o->apply, "sysctl -w net.core.netdev_max_backlog=2000");
	tw_view_free(&v);
}
END_TEST

/* Receive queues pruned while TCP was under memory pressure are tcp_mem's:
 * the prune finding names no tunable then, and tcp_rmem otherwise. */
START_TEST(test_observe_prune_under_pressure)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	const struct tw_finding *o;

	tw_judge_defaults(&c);
	make_view(&v, 1, 0, 0);
	set_pool(&v, 0, TW_DBLOCK_TCP_RCVBUF, 0, "tcp receive buffer", 157);
	set_pool(&v, 1, TW_DBLOCK_TCP_MEMORY, 0, "tcp memory", 2);
	ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s), 0);
	ck_assert_uint_eq(s.n, 2);
	o = find_sym(&s, TW_SYM_TCP_PRUNE);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->tunable, "");
	ck_assert_ptr_nonnull(strstr(o->evidence, "while TCP entered memory pressure 2 times"));
	ck_assert_str_eq(find_sym(&s, TW_SYM_TCP_MEM)->tunable, "net.ipv4.tcp_mem");
	/* No pressure in the window: the socket's own limit, tcp_rmem. */
	v.pools[1].col[TW_OID_DBLOCK_RECENT_FAILURES] = 0;
	s.n = 0;
	ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_str_eq(find_sym(&s, TW_SYM_TCP_PRUNE)->tunable, "net.ipv4.tcp_rmem");
	tw_view_free(&v);
}
END_TEST

/* TCP in memory pressure through the window without entering it there
 * (senders that never rest): the tcp memory pool still fails, judged as
 * one failure, its finding naming tcp_mem with the time in pressure; the
 * receive queues pruned then are tcp_mem's too. Out of pressure, and with
 * no entry, the pool is OK. */
START_TEST(test_observe_pressure_held)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	const struct tw_finding *o;
	unsigned long long failures;
	enum tw_state st;

	tw_judge_defaults(&c);
	make_view(&v, 1, 0, 0);
	set_pool(&v, 0, TW_DBLOCK_TCP_MEMORY, 0, "tcp memory", 0);
	TW_PUT_CELL(v.pools[0], TW_OID_DBLOCK_RECENT_PRESSURE_TIME, 9800);
	set_pool(&v, 1, TW_DBLOCK_TCP_RCVBUF, 0, "tcp receive buffer", 157);
	ck_assert_int_eq(tw_judge_pool(&c, pool_record(&v.pools[0]), &st, &failures), 1);
	ck_assert_int_eq(st, TW_STATE_WARNING);
	ck_assert_uint_eq(failures, 0);
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	o = find_sym(&s, TW_SYM_TCP_MEM);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->tunable, "net.ipv4.tcp_mem");
	ck_assert_ptr_eq(strstr(o->evidence, "TCP was in memory pressure 9.8 s of the last 10 s, "
	    "since before them"), o->evidence);
	o = find_sym(&s, TW_SYM_TCP_PRUNE);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->tunable, "");
	ck_assert_ptr_nonnull(strstr(o->evidence, "while TCP was in memory pressure 9.8 s"));
	/* Entries too: both said. */
	v.pools[0].col[TW_OID_DBLOCK_RECENT_FAILURES] = 2;
	s.n = 0;
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	o = find_sym(&s, TW_SYM_TCP_MEM);
	ck_assert_ptr_nonnull(o);
	ck_assert_ptr_eq(strstr(o->evidence, "TCP entered memory pressure 2 times and was in it "
	    "9.8 s of the last 10 s"), o->evidence);
	/* Out of pressure, no entry: nothing of tcp memory. */
	v.pools[0].col[TW_OID_DBLOCK_RECENT_FAILURES] = 0;
	v.pools[0].col[TW_OID_DBLOCK_RECENT_PRESSURE_TIME] = 0;
	ck_assert_int_eq(tw_judge_pool(&c, pool_record(&v.pools[0]), &st, &failures), 1);
	ck_assert_int_eq(st, TW_STATE_OK);
	s.n = 0;
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	ck_assert_ptr_null(find_sym(&s, TW_SYM_TCP_MEM));
	ck_assert_str_eq(find_sym(&s, TW_SYM_TCP_PRUNE)->tunable, "net.ipv4.tcp_rmem");
	tw_view_free(&v);
}
END_TEST

/* Send-buffer errors: wmem_default, and wmem_max beside it, each a
 * finding, and the evidence says the sender must make its socket again,
 * since a socket takes its buffer when it is made (the lab applied the
 * value and saw nothing change until it did). */
START_TEST(test_observe_sndbuf_restart)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	size_t i, n = 0;

	tw_judge_defaults(&c);
	make_view(&v, 1, 0, 0);
	set_pool(&v, 0, TW_DBLOCK_UDP_SNDBUF, 0, "udp send buffer", 1719);
	ck_assert_int_eq(tw_view_reserve_tunables(&v, 2), TW_OK);
	strcpy(v.tunables[0].name, "net.core.wmem_default");
	strcpy(v.tunables[0].value, "212992");
	strcpy(v.tunables[1].name, "net.core.wmem_max");
	strcpy(v.tunables[1].value, "212992");
	v.ntunables = 2;
	ck_assert_int_eq(tw_observe(&c, &v, 6, TW_OS_LINUX, collect, &s), 0);
	for (i = 0; i < s.n; i++) {
		if (s.o[i].sym != TW_SYM_UDP_SNDBUF)
			continue;
		ck_assert_str_eq(s.o[i].tunable, n == 0 ? "net.core.wmem_default" :
		    "net.core.wmem_max");
		ck_assert_ptr_eq(strstr(s.o[i].evidence, "1719 datagrams were not sent on full send "
		    "buffers in the last 6 s, and a socket takes its buffer when it is made: restart "
		    "the sender after"), s.o[i].evidence);
		n++;
	}
	ck_assert_uint_eq(n, 2);
	tw_view_free(&v);
}
END_TEST

/* A CPU that ran out of budget lost nothing to it unless its backlog
 * dropped in the window: the lab squeezed one 197 times a second with no
 * datagram lost. Squeezes alone are OK; squeezes on a CPU whose backlog
 * dropped name netdev_budget, beside the backlog's own finding. */
START_TEST(test_observe_squeeze_needs_drops)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	const struct tw_finding *o;
	unsigned long long failures;
	enum tw_state st;

	tw_judge_defaults(&c);
	make_view(&v, 1, 0, 0);
	set_pool(&v, 0, TW_DBLOCK_SOFTNET_BACKLOG, 0, "cpu0 backlog", 0);
	set_pool(&v, 1, TW_DBLOCK_SOFTNET_BUDGET, 0, "cpu0 budget", 1970);
	ck_assert_int_eq(tw_view_reserve_tunables(&v, 1), TW_OK);
	strcpy(v.tunables[0].name, "net.core.netdev_budget");
	strcpy(v.tunables[0].value, "8");
	v.ntunables = 1;
	ck_assert_int_eq(tw_judge_pool_of(&c, &v, pool_record(&v.pools[1]), &st, &failures), 1);
	ck_assert_int_eq(st, TW_STATE_OK);
	ck_assert_uint_eq(failures, 1970);
	/* tw_judge_pool alone, without the backlog beside it, warns. */
	ck_assert_int_eq(tw_judge_pool(&c, pool_record(&v.pools[1]), &st, &failures), 1);
	ck_assert_int_eq(st, TW_STATE_WARNING);
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	ck_assert_ptr_null(find_sym(&s, TW_SYM_SOFTNET_SQUEEZE));
	/* Another CPU's drops do not make this one's squeezes harmful. */
	set_pool(&v, 2, TW_DBLOCK_SOFTNET_BACKLOG, 1, "cpu1 backlog", 40);
	s.n = 0;
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	ck_assert_ptr_null(find_sym(&s, TW_SYM_SOFTNET_SQUEEZE));
	ck_assert_ptr_nonnull(find_sym(&s, TW_SYM_SOFTNET_DROPS));
	/* Its own backlog dropped: the budget is named. */
	v.pools[0].col[TW_OID_DBLOCK_RECENT_FAILURES] = 12;
	s.n = 0;
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	o = find_sym(&s, TW_SYM_SOFTNET_SQUEEZE);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->tunable, "net.core.netdev_budget");
	ck_assert_str_eq(o->suggested, "16");
	tw_view_free(&v);
}
END_TEST

START_TEST(test_observe_disk)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct tw_disk_judgement j;
	struct seen s = { .n = 0 };

	tw_judge_defaults(&c);
	/* 30 ms is past the check's warning (20), short of critical (50). */
	make_view(&v, 30, 4, 0);
	ck_assert_int_eq(judge_disk(&c, &v.disks[0], &j), 1);
	ck_assert_int_eq(j.read, TW_STATE_WARNING);
	ck_assert_int_eq(j.worst, TW_STATE_WARNING);
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_uint_ge(s.n, 1);
	ck_assert_int_eq(s.o[0].severity, TW_STATE_WARNING);
	ck_assert_str_eq(s.o[0].subject, "sda");
	ck_assert_ptr_nonnull(strstr(s.o[0].evidence, " (warning range 20, r_await, ms)"));
	ck_assert_int_eq(strncmp(s.o[0].id, "tw-", 3), 0);
	tw_view_free(&v);
	/* 60 ms: critical. A disk with no figures yet is not judged. */
	make_view(&v, 60, 4, 0);
	judge_disk(&c, &v.disks[0], &j);
	ck_assert_int_eq(j.read, TW_STATE_CRITICAL);
	v.disks[0].has &= ~TW_VIEW_BIT(TW_OID_DISK_READ_LATENCY);
	ck_assert_int_eq(judge_disk(&c, &v.disks[0], &j), 0);
	s.n = 0;
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_uint_eq(s.n, 0);
	tw_view_free(&v);
}
END_TEST

/* The tracker's findings put into v, as the monitor's build puts them. */
static int
publish_findings(const struct tw_tracker *t, struct tw_view *v)
{
	struct tw_view_findings_in f;

	tw_tracker_findings(t, &f);
	return tw_view_build(v, &(struct tw_view_sources){ .findings = &f });
}

/* An event's finding as its row of twFindingTable shows it. */
static struct tw_view_finding
event_row(const struct tw_finding_event *e)
{
	struct tw_view_finding row;

	tw_view_finding_row(&e->finding, &row);
	return row;
}

static struct tw_finding
obs(const char *id, enum tw_state sev)
{
	struct tw_finding o;

	memset(&o, 0, sizeof(o));
	o.sym = TW_SYM_SOFTNET_DROPS;
	o.severity = sev;
	snprintf(o.id, sizeof(o.id), "%s", id);
	strcpy(o.subject, "softnet backlog");
	tw_finding_owned(&o, -1);
	return o;
}

/* A finding about uid's subject (-1: the host's). */
static struct tw_finding
owned(unsigned n, int64_t uid)
{
	char id[TW_TICKET_ID_LEN];
	struct tw_finding o;

	snprintf(id, sizeof(id), "tw-%06x%06x", (unsigned)(uid & 0xffffff), n);
	o = obs(id, TW_STATE_WARNING);
	tw_finding_owned(&o, uid);
	return o;
}

/* One sample in which the observations os[0..n) are seen. */
static void
sample(struct tw_tracker *t, const struct tw_finding *os, size_t n, uint64_t now)
{
	size_t i;

	tw_tracker_begin(t);
	for (i = 0; i < n; i++)
		tw_tracker_observe(t, &os[i]);
	tw_tracker_end(t, now);
}

START_TEST(test_hysteresis)
{
	struct tw_tracker t;
	struct tw_view v;
	struct tw_finding a = obs("tw-00000000000a", TW_STATE_WARNING);
	uint32_t first;

	tw_view_init(&v);
	ck_assert_int_eq(tw_tracker_init(&t, 0, 3), TW_E_INVAL);
	ck_assert_int_eq(tw_tracker_init(&t, 3, 2), TW_OK);
	/* Two samples, a gap, two more: never three in a row. */
	sample(&t, &a, 1, 100);
	sample(&t, &a, 1, 101);
	sample(&t, NULL, 0, 102);
	sample(&t, &a, 1, 103);
	sample(&t, &a, 1, 104);
	ck_assert_uint_eq(t.nevents, 0);
	publish_findings(&t, &v);
	ck_assert_uint_eq(v.nfindings, 0);
	/* The third in a row raises it, once. */
	sample(&t, &a, 1, 105);
	ck_assert_uint_eq(t.nevents, 1);
	ck_assert_int_eq(t.events[0].kind, TW_FINDING_EVENT_RAISED);
	ck_assert_str_eq(t.events[0].finding.id, a.id);
	ck_assert_uint_eq(event_row(&t.events[0]).col[TW_OID_FINDING_RAISED], 105);
	sample(&t, &a, 1, 106);
	ck_assert_uint_eq(t.nevents, 0);
	publish_findings(&t, &v);
	ck_assert_uint_eq(v.nfindings, 1);
	first = v.findings[0].index;
	ck_assert_uint_eq(v.findsum.col[TW_OID_FINDING_COUNT], 1);
	ck_assert_uint_eq(v.findsum.col[TW_OID_FINDING_LAST_CHANGE], 105);
	ck_assert_str_eq(v.findings[0].symptom, "softnet-drops");
	/* One quiet sample keeps it, in its row; the second clears it. */
	sample(&t, NULL, 0, 107);
	ck_assert_uint_eq(t.nevents, 0);
	sample(&t, &a, 1, 108);
	sample(&t, NULL, 0, 109);
	ck_assert_uint_eq(t.nevents, 0);
	publish_findings(&t, &v);
	ck_assert_uint_eq(v.findings[0].index, first);
	sample(&t, NULL, 0, 110);
	ck_assert_uint_eq(t.nevents, 1);
	ck_assert_int_eq(t.events[0].kind, TW_FINDING_EVENT_CLEARED);
	ck_assert_uint_eq(t.events[0].finding.index, first);
	publish_findings(&t, &v);
	ck_assert_uint_eq(v.nfindings, 0);
	ck_assert_uint_eq(v.findsum.col[TW_OID_FINDING_LAST_CHANGE], 110);
	/* Back again: a new row, a higher index, the same id. */
	sample(&t, &a, 1, 111);
	sample(&t, &a, 1, 112);
	sample(&t, &a, 1, 113);
	publish_findings(&t, &v);
	ck_assert_uint_eq(v.nfindings, 1);
	ck_assert_uint_gt(v.findings[0].index, first);
	ck_assert_str_eq(v.findings[0].id, a.id);
	tw_tracker_free(&t);
	tw_view_free(&v);
}
END_TEST

START_TEST(test_severity)
{
	struct tw_tracker t;
	struct tw_finding w = obs("tw-00000000000b", TW_STATE_WARNING);
	struct tw_finding c = obs("tw-00000000000b", TW_STATE_CRITICAL);
	struct tw_finding both[2] = { w, c };

	ck_assert_int_eq(tw_tracker_init(&t, 2, 2), TW_OK);
	sample(&t, &w, 1, 1);
	sample(&t, &w, 1, 2);
	ck_assert_uint_eq(t.nevents, 1);
	/* Critical once, then warning: no change. Twice: one change. */
	sample(&t, &c, 1, 3);
	sample(&t, &w, 1, 4);
	ck_assert_uint_eq(t.nevents, 0);
	sample(&t, &c, 1, 5);
	ck_assert_uint_eq(t.nevents, 0);
	sample(&t, &c, 1, 6);
	ck_assert_uint_eq(t.nevents, 1);
	ck_assert_int_eq(t.events[0].kind, TW_FINDING_EVENT_SEVERITY);
	ck_assert_uint_eq(event_row(&t.events[0]).col[TW_OID_FINDING_SEVERITY], TW_FINDING_CRITICAL);
	ck_assert_uint_eq(event_row(&t.events[0]).col[TW_OID_FINDING_CHANGED], 6);
	ck_assert_uint_eq(event_row(&t.events[0]).col[TW_OID_FINDING_RAISED], 2);
	/* The same id twice in one sample counts once, the worse. */
	sample(&t, both, 2, 7);
	ck_assert_uint_eq(t.nevents, 0);
	ck_assert_uint_eq(t.n, 1);
	tw_tracker_free(&t);
}
END_TEST

START_TEST(test_capacity)
{
	static struct tw_finding many[TW_TRACKER_CAPACITY + 10];
	struct tw_tracker t;
	struct tw_view v;
	size_t i;

	tw_view_init(&v);
	for (i = 0; i < TW_TRACKER_CAPACITY + 10; i++) {
		char id[TW_TICKET_ID_LEN];

		snprintf(id, sizeof(id), "tw-%012zx", i);
		many[i] = obs(id, TW_STATE_WARNING);
	}
	ck_assert_int_eq(tw_tracker_init(&t, 1, 1), TW_OK);
	sample(&t, many, TW_TRACKER_CAPACITY + 10, 1);
	/* The table holds its bound; the rest is counted, once a sample;
	 * one event a finding. */
	ck_assert_uint_eq(t.nevents, TW_TRACKER_CAPACITY);
	ck_assert_uint_eq(t.overflows, 10);
	sample(&t, many, TW_TRACKER_CAPACITY + 10, 2);
	ck_assert_uint_eq(t.nevents, 0);
	ck_assert_uint_eq(t.overflows, 20);
	publish_findings(&t, &v);
	ck_assert_uint_eq(v.nfindings, TW_TRACKER_CAPACITY);
	ck_assert_uint_eq(v.findsum.col[TW_OID_FINDING_OVERFLOWS], 20);
	for (i = 1; i < v.nfindings; i++)
		ck_assert_uint_lt(v.findings[i - 1].index, v.findings[i].index);
	/* All clear at once: one event each, no more. */
	sample(&t, NULL, 0, 3);
	ck_assert_uint_eq(t.nevents, TW_TRACKER_CAPACITY);
	ck_assert_uint_eq(t.n, 0);
	tw_tracker_free(&t);
	tw_view_free(&v);
}
END_TEST

/* What cannot be crowded out (tracker.h): 20 users' findings fill the
 * table; a service's and the host's still get rows, each raised in the
 * sample it is first seen (raise after 1), taking a user's row, the
 * newest first, counted in overflows; one user follows at most 16; a full
 * table of the host's gives no row to a user's. The MIB shows each
 * finding's class and owner. Before (6900ab4) the first 256 kept the
 * table and every later symptom overflowed. */
START_TEST(test_rank_and_quota)
{
	static struct tw_finding users[20 * 20], mixed[20 * 20 + 2];
	struct tw_tracker t;
	struct tw_view v;
	size_t i, n = 0, mine = 0, svc = 0, host = 0;

	tw_view_init(&v);
	ck_assert_int_eq(tw_tracker_init(&t, 1, 1), TW_OK);
	for (i = 0; i < 20 * 20; i++)
		users[i] = owned((unsigned)i, 1000 + (int64_t)(i % 20));
	sample(&t, users, 20 * 20, 1);
	/* 20 a user, 16 kept of each: 320 > 256; the rest overflow. */
	ck_assert_uint_eq(t.n, TW_TRACKER_CAPACITY);
	publish_findings(&t, &v);
	for (i = 0; i < v.nfindings; i++)
		mine += v.findings[i].col[TW_OID_FINDING_OWNER_UID] == 1000;
	ck_assert_uint_le(mine, TW_TRACKER_OWNER_QUOTA);
	ck_assert_uint_eq(t.overflows, 20 * 20 - TW_TRACKER_CAPACITY);
	ck_assert_uint_eq(t.evicted, 0);

	memcpy(mixed, users, sizeof(users));
	mixed[n = 20 * 20] = owned(1, 0);		/* root's service */
	mixed[n + 1] = owned(2, -1);			/* the host's */
	sample(&t, mixed, n + 2, 2);
	ck_assert_uint_eq(t.evicted, 2);
	ck_assert_uint_eq(t.nevents, 2);
	ck_assert_int_eq(t.events[0].kind, TW_FINDING_EVENT_RAISED);
	ck_assert_int_eq(t.events[1].kind, TW_FINDING_EVENT_RAISED);
	publish_findings(&t, &v);
	ck_assert_uint_eq(v.nfindings, TW_TRACKER_CAPACITY);
	for (i = 0; i < v.nfindings; i++) {
		const struct tw_view_finding *f = &v.findings[i];

		if (f->col[TW_OID_FINDING_CLASS] == TW_FINDING_CLASS_SERVICE) {
			svc++;
			ck_assert_uint_eq(f->col[TW_OID_FINDING_OWNER_UID], 0);
			ck_assert(f->has & TW_VIEW_BIT(TW_OID_FINDING_OWNER_UID));
		} else if (f->col[TW_OID_FINDING_CLASS] == TW_FINDING_CLASS_HOST) {
			host++;
			ck_assert(!(f->has & TW_VIEW_BIT(TW_OID_FINDING_OWNER_UID)));
		} else {
			ck_assert_uint_eq(f->col[TW_OID_FINDING_CLASS], TW_FINDING_CLASS_USER);
			ck_assert_uint_ge(f->col[TW_OID_FINDING_OWNER_UID], 1000);
		}
	}
	ck_assert_uint_eq(svc, 1);
	ck_assert_uint_eq(host, 1);
	/* Again: both keep their rows, and nothing is given up again. */
	sample(&t, mixed, n + 2, 3);
	ck_assert_uint_eq(t.nevents, 0);
	ck_assert_uint_eq(t.evicted, 2);
	tw_tracker_free(&t);

	/* One user's 20: 16 followed, 4 not. */
	ck_assert_int_eq(tw_tracker_init(&t, 1, 1), TW_OK);
	for (i = 0; i < 20; i++)
		mixed[i] = owned((unsigned)i, 65534);
	sample(&t, mixed, 20, 1);
	ck_assert_uint_eq(t.n, TW_TRACKER_OWNER_QUOTA);
	ck_assert_uint_eq(t.overflows, 20 - TW_TRACKER_OWNER_QUOTA);
	tw_tracker_free(&t);

	/* The host's fill it: a user's finds no row. */
	ck_assert_int_eq(tw_tracker_init(&t, 1, 1), TW_OK);
	for (i = 0; i < TW_TRACKER_CAPACITY; i++)
		mixed[i] = owned((unsigned)i, -1);
	mixed[TW_TRACKER_CAPACITY] = owned(7, 65534);
	sample(&t, mixed, TW_TRACKER_CAPACITY + 1, 1);
	ck_assert_uint_eq(t.n, TW_TRACKER_CAPACITY);
	ck_assert_uint_eq(t.overflows, 1);
	ck_assert_uint_eq(t.evicted, 0);
	publish_findings(&t, &v);
	for (i = 0; i < v.nfindings; i++)
		ck_assert_uint_eq(v.findings[i].col[TW_OID_FINDING_CLASS], TW_FINDING_CLASS_HOST);
	tw_tracker_free(&t);
	tw_view_free(&v);
}
END_TEST

/* The findings walked through the MIB view: after twTunableTable come the
 * twFindings scalars {6, n, 0}, then twFindingTable {6, 8, 1, col, idx},
 * then the scalars numbered after it. */
START_TEST(test_mibview)
{
	struct tw_tracker t;
	struct tw_view v;
	struct tw_finding two[2] = { obs("tw-000000000001", TW_STATE_WARNING),
	    obs("tw-000000000002", TW_STATE_CRITICAL) };
	struct tw_ber_value val;
	uint32_t next[TW_MV_OID_MAX], from[5] = { 5, 1, 3, 99, 0 };
	uint32_t get[] = { 6, 8, 1, 5, 2 }, none[] = { 6, 8, 1, 5, 3 };
	size_t nlen;

	tw_view_init(&v);
	ck_assert_int_eq(tw_tracker_init(&t, 1, 1), TW_OK);
	/* A service's: every column has an instance, twFindingOwnerUid last. */
	tw_finding_owned(&two[0], 0);
	tw_finding_owned(&two[1], 0);
	sample(&t, two, 2, 50);
	publish_findings(&t, &v);
	ck_assert_int_eq(tw_mv_next(&v, 0, from, 4, 0, next, &nlen, &val), TW_MV_FOUND);
	ck_assert_uint_eq(nlen, 3);
	ck_assert(next[0] == 6 && next[1] == TW_OID_FINDING_COUNT && next[2] == 0);
	ck_assert_uint_eq(val.num, 2);
	/* After the last scalar: the first column of the first row. */
	from[0] = 6;
	from[1] = TW_OID_FINDING_CLEAR_AFTER;
	from[2] = 0;
	ck_assert_int_eq(tw_mv_next(&v, 0, from, 3, 0, next, &nlen, &val), TW_MV_FOUND);
	ck_assert_uint_eq(nlen, 5);
	ck_assert(next[1] == 8 && next[2] == 1 && next[3] == TW_OID_FINDING_ID && next[4] == 1);
	ck_assert_int_eq((int)val.len, 15);
	ck_assert_int_eq(memcmp(val.str, "tw-000000000001", 15), 0);
	ck_assert_int_eq(tw_mv_get(&v, 0, get, 5, &val), TW_MV_FOUND);
	ck_assert_int_eq(val.type, TW_BER_INTEGER);
	ck_assert_uint_eq(val.num, TW_FINDING_CRITICAL);
	ck_assert_int_eq(tw_mv_get(&v, 0, none, 5, &val), TW_MV_NO_SUCH_INSTANCE);
	/* After the last cell: the end of twObjects. */
	from[0] = 6;
	from[1] = 8;
	from[2] = 1;
	from[3] = TW_VIEW_FINDING_COLS - 1;
	ck_assert_int_eq(tw_mv_next(&v, 0, from, 4, 1, next, &nlen, &val), TW_MV_FOUND);
	ck_assert_uint_eq(next[4], 1);
	from[4] = 2;
	ck_assert_int_eq(tw_mv_next(&v, 0, from, 5, 0, next, &nlen, &val), TW_MV_END);

	/* The notification counters the agent fills in lie after the table,
	 * {6, 9, 0} on: the scalars before the table still lead into it, and
	 * the table's last cell into them. */
	TW_PUT_CELL(v.findsum, TW_OID_FINDING_DROPPED, 7);
	TW_PUT_CELL(v.findsum, TW_OID_FINDING_SENT, 11);
	TW_PUT_CELL(v.findsum, TW_OID_FINDING_LIMIT, 600);
	from[0] = 6;
	from[1] = TW_OID_FINDING_CLEAR_AFTER;
	from[2] = 0;
	ck_assert_int_eq(tw_mv_next(&v, 0, from, 3, 0, next, &nlen, &val), TW_MV_FOUND);
	ck_assert(nlen == 5 && next[1] == TW_OID_FINDING_TABLE);
	from[1] = 8;
	from[2] = 1;
	from[3] = TW_VIEW_FINDING_COLS - 1;
	from[4] = 2;
	ck_assert_int_eq(tw_mv_next(&v, 0, from, 5, 0, next, &nlen, &val), TW_MV_FOUND);
	ck_assert(nlen == 3 && next[0] == 6 && next[1] == TW_OID_FINDING_DROPPED && next[2] == 0);
	ck_assert_uint_eq(val.num, 7);
	ck_assert_int_eq(val.type, TW_BER_COUNTER64);
	memcpy(from, next, sizeof(next[0]) * 3);
	ck_assert_int_eq(tw_mv_next(&v, 0, from, 3, 0, next, &nlen, &val), TW_MV_FOUND);
	ck_assert(next[1] == TW_OID_FINDING_SENT && val.num == 11);
	memcpy(from, next, sizeof(next[0]) * 3);
	ck_assert_int_eq(tw_mv_next(&v, 0, from, 3, 0, next, &nlen, &val), TW_MV_FOUND);
	ck_assert(next[1] == TW_OID_FINDING_LIMIT && val.num == 600);
	ck_assert_int_eq(val.type, TW_BER_GAUGE32);
	memcpy(from, next, sizeof(next[0]) * 3);
	ck_assert_int_eq(tw_mv_next(&v, 0, from, 3, 0, next, &nlen, &val), TW_MV_END);
	from[1] = TW_OID_FINDING_SENT;
	ck_assert_int_eq(tw_mv_get(&v, 0, from, 3, &val), TW_MV_FOUND);
	ck_assert_uint_eq(val.num, 11);
	tw_tracker_free(&t);
	tw_view_free(&v);
}
END_TEST

/* Column col of the buffer cache or of disk d set to a figure in its own
 * unit, as the view builder stores it. */
static void
put_bc(struct tw_view *v, unsigned col, double figure)
{
	TW_PUT_CELL(v->bc, col, tw_column_encode(tw_column(TW_OID_BUFCACHE, col), figure));
}

static void
put_disk(struct tw_view_disk *d, unsigned col, double figure)
{
	TW_PUT_CELL(*d, col, tw_column_encode(tw_column(TW_OID_DISK_TABLE, col), figure));
}

/* The cache of v judged as check_bufcache and tunewatchd judge it: its
 * record decoded from the view, over a window of 60 s. */
static void
judge_cache(const struct tw_judge_config *c, const struct tw_view *v,
    struct tw_cache_judgement *j)
{
	struct tw_cache_record bc;

	tw_view_cache_record(&v->bc, &bc);
	tw_judge_cache(c, &bc, v, 60, TW_OS_LINUX, j);
}

/* The cache at the defaults: a backup's low hit ratio with no refaults is
 * OK and raises nothing; the host's own refaults are judged, a cgroup's
 * (no host-wide reclaim) are not; a small read-ahead window that a stream
 * fills, and writers at the dirty limit with a disk that has room, are
 * findings without a threshold of their own. */
START_TEST(test_cache_defaults)
{
	struct tw_judge_config c;
	struct tw_cache_judgement j;
	const struct tw_finding *o;
	struct tw_view v;
	struct seen s;

	tw_judge_defaults(&c);
	make_view(&v, 1, 0.5, 0);
	v.pools[0].has = 0;
	put_bc(&v, TW_OID_BC_READ_HIT_RATIO, 36.84);
	put_bc(&v, TW_OID_BC_REFAULT_RATE, 0);
	put_bc(&v, TW_OID_BC_PAGE_IN_RATE, 90000);
	judge_cache(&c, &v, &j);
	ck_assert_int_eq(j.worst, TW_STATE_OK);
	s.n = 0;
	ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s), 0);
	ck_assert_uint_eq(s.n, 0);

	/* 500 refaults/s, all the host's: critical at 1000, warning at 100. */
	put_bc(&v, TW_OID_BC_REFAULT_RATE, 500);
	judge_cache(&c, &v, &j);
	ck_assert_int_eq(j.refaults, TW_STATE_WARNING);
	s.n = 0;
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_ptr_nonnull(o = find_sym(&s, TW_SYM_LOW_HIT_REFAULTS));
	ck_assert_ptr_nonnull(strstr(o->evidence, "(warning range 100, refaults/s)"));
	/* The host reclaimed 20 pages/s: 20 of them can be its own. */
	put_bc(&v, TW_OID_BC_RECLAIM_RATE, 20);
	judge_cache(&c, &v, &j);
	ck_assert_int_eq(j.refaults, TW_STATE_OK);
	ck_assert_double_eq_tol(j.host_refaults, 20, 1e-9);
	s.n = 0;
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_uint_eq(s.n, 0);

	/* A loop device's stream in 4 KiB reads through a 4 KiB window, read
	 * again from sda below it in as many requests: the loop device is
	 * where read-ahead matters, though sda read as much. */
	tw_view_reserve_disks(&v, 2);
	memset(&v.disks[1], 0, sizeof(v.disks[1]));
	v.disks[1].major = 7;
	v.disks[1].minor = 3;
	strcpy(v.disks[1].name, "loop3");
	v.disks[1].has = TW_VIEW_BIT(TW_OID_DISK_NAME);
	v.ndisks = 2;
	put_disk(&v.disks[0], TW_OID_DISK_READ_OPS, 15000);
	put_disk(&v.disks[0], TW_OID_DISK_READ_RATE, 15000 * 4096.0 + 1);
	put_disk(&v.disks[0], TW_OID_DISK_READ_AHEAD_KB, 8192);
	put_disk(&v.disks[1], TW_OID_DISK_READ_OPS, 15000);
	put_disk(&v.disks[1], TW_OID_DISK_READ_RATE, 15000 * 4096.0);
	put_disk(&v.disks[1], TW_OID_DISK_READ_AHEAD_KB, 4);
	judge_cache(&c, &v, &j);
	ck_assert_int_eq(j.readahead, TW_STATE_WARNING);
	ck_assert_ptr_eq(j.disk, &v.disks[1]);
	s.n = 0;
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_int_eq(s.o[0].sym, TW_SYM_LOW_HIT_SEQUENTIAL);
	ck_assert_int_eq(s.o[0].severity, TW_STATE_WARNING);
	ck_assert_str_eq(s.o[0].tunable, "/sys/block/loop3/queue/read_ahead_kb");
	ck_assert_str_eq(s.o[0].current, "4");
	ck_assert_str_eq(s.o[0].suggested, "128");
	ck_assert_str_eq(s.o[0].apply, "echo 128 > /sys/block/loop3/queue/read_ahead_kb");
	ck_assert_ptr_null(strstr(s.o[0].evidence, "range"));
	/* At the kernel's default the stream is the disk's speed: nothing. */
	put_disk(&v.disks[1], TW_OID_DISK_READ_AHEAD_KB, 128);
	put_disk(&v.disks[1], TW_OID_DISK_READ_RATE, 15000 * 131072.0);
	judge_cache(&c, &v, &j);
	ck_assert_int_eq(j.worst, TW_STATE_OK);

	/* Writers at the dirty limit 87 % of the window, sda writing 250 MiB/s
	 * at 52 %: dirty_bytes, sized from a second of sda's writes. */
	tw_view_reserve_tunables(&v, 2);
	v.tunables[1].index = 20;
	strcpy(v.tunables[1].name, "vm.dirty_bytes");
	strcpy(v.tunables[1].value, "8388608");
	v.ntunables = 2;
	put_bc(&v, TW_OID_BC_DIRTY_LIMITED, 87);
	put_bc(&v, TW_OID_BC_DIRTY_THRESHOLD, 8388608);
	put_bc(&v, TW_OID_BC_DIRTY_BG_THRESHOLD, 2097152);
	put_bc(&v, TW_OID_BC_DIRTY, 7 * 1048576.0);
	put_bc(&v, TW_OID_BC_WRITEBACK, 1048576);
	put_disk(&v.disks[0], TW_OID_DISK_WRITE_RATE, 250 * 1048576.0);
	put_disk(&v.disks[0], TW_OID_DISK_UTIL, 52);
	judge_cache(&c, &v, &j);
	ck_assert_int_eq(j.dirty, TW_STATE_WARNING);
	ck_assert_ptr_eq(j.writer, &v.disks[0]);
	s.n = 0;
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_ptr_nonnull(o = find_sym(&s, TW_SYM_DIRTY_LIMITED));
	ck_assert_str_eq(o->tunable, "vm.dirty_bytes");
	ck_assert_str_eq(o->current, "8388608");
	ck_assert_str_eq(o->suggested, "134217728");
	ck_assert_str_eq(o->apply, "sysctl -w vm.dirty_bytes=134217728");
	/* sda busy: the disk holds the writers, not the limit. */
	put_disk(&v.disks[0], TW_OID_DISK_UTIL, 97);
	judge_cache(&c, &v, &j);
	ck_assert_int_eq(j.dirty, TW_STATE_OK);
	tw_view_free(&v);
}
END_TEST

/* A disk's queue values as the checks and tunewatchd look them up: the
 * signed wbt_lat_usec keeps its -1 (the kernel's default), never the
 * unsigned 18446744073709551615 the checks once printed. */
START_TEST(test_queue_values)
{
	struct tw_view v;
	struct tw_view_disk d;
	struct tw_view_lookup lk;
	struct tw_disk_record rec;
	char buf[32];

	memset(&d, 0, sizeof(d));
	TW_PUT_CELL(d, TW_OID_DISK_WBT_LATENCY, (uint64_t)(int64_t)-1);
	TW_PUT_CELL(d, TW_OID_DISK_NR_REQUESTS, 64);
	ck_assert_str_eq(queue_value(&d, "queue/wbt_lat_usec", buf, sizeof(buf)), "-1");
	d.col[TW_OID_DISK_WBT_LATENCY] = 75000;
	ck_assert_str_eq(queue_value(&d, "queue/wbt_lat_usec", buf, sizeof(buf)),
	    "75000");
	ck_assert_str_eq(queue_value(&d, "queue/nr_requests", buf, sizeof(buf)), "64");
	/* Not in the row, or no attribute a row carries: unknown. */
	ck_assert_ptr_null(queue_value(&d, "queue/read_ahead_kb", buf, sizeof(buf)));
	ck_assert_ptr_null(queue_value(&d, "queue/max_sectors_kb", buf, sizeof(buf)));
	ck_assert_ptr_null(queue_value(NULL, "queue/nr_requests", buf, sizeof(buf)));

	/* tunewatchd's lookup reads the same. */
	tw_view_init(&v);
	d.col[TW_OID_DISK_WBT_LATENCY] = (uint64_t)(int64_t)-1;
	lk.v = &v;
	tw_view_disk_record(&d, &rec);
	lk.d = &rec;
	ck_assert_str_eq(tw_view_lookup(&lk, "queue/wbt_lat_usec"), "-1");
	lk.d = NULL;
	ck_assert_ptr_null(tw_view_lookup(&lk, "queue/wbt_lat_usec"));
	tw_view_free(&v);
}
END_TEST

/* A finding's notification carries every object of OBJECTS in order,
 * an empty string for a tunable it has none of, and the changed time in
 * place of the raised one for a severity change. */
START_TEST(test_notice_objects)
{
	static const unsigned want[] = {
		TW_OID_FINDING_ID, TW_OID_FINDING_SYMPTOM, TW_OID_FINDING_SUBJECT,
		TW_OID_FINDING_SEVERITY, TW_OID_FINDING_EVIDENCE, TW_OID_FINDING_TUNABLE,
		TW_OID_FINDING_CURRENT, TW_OID_FINDING_SUGGESTED, TW_OID_FINDING_APPLY,
		TW_OID_FINDING_PERSIST, TW_OID_FINDING_DOCUMENTATION, TW_OID_FINDING_RAISED,
	};
	struct tw_view_finding_in f;
	struct tw_notice n;
	size_t i;

	memset(&f, 0, sizeof(f));
	f.index = 7;
	f.critical = 1;
	f.raised_s = 100;
	f.changed_s = 160;
	strcpy(f.id, "tw-00000000000a");
	strcpy(f.subject, "sda");
	tw_notice_finding(&n, TW_NOTIFY_FINDING_RAISED, &f);
	ck_assert_uint_eq(n.notification, TW_NOTIFY_FINDING_RAISED);
	ck_assert_uint_eq(n.index, 7);
	ck_assert_uint_eq(n.n, 12);
	for (i = 0; i < n.n; i++)
		ck_assert_uint_eq(n.obj[i].col, want[i]);
	ck_assert_uint_eq(n.obj[3].val.type, TW_BER_INTEGER);
	ck_assert_uint_eq(n.obj[3].val.num, TW_FINDING_CRITICAL);
	ck_assert_uint_eq(n.obj[5].val.type, TW_BER_OCTET_STRING);
	ck_assert_uint_eq(n.obj[5].val.len, 0);
	ck_assert_uint_eq(n.obj[2].val.len, 3);
	ck_assert_uint_eq(n.obj[11].val.num, 100);
	tw_notice_finding(&n, TW_NOTIFY_FINDING_SEVERITY, &f);
	ck_assert_uint_eq(n.obj[11].col, TW_OID_FINDING_CHANGED);
	ck_assert_uint_eq(n.obj[11].val.num, 160);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("finding");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_observe_pool);
	tcase_add_test(tc, test_observe_backlog_doubled);
	tcase_add_test(tc, test_observe_prune_under_pressure);
	tcase_add_test(tc, test_observe_pressure_held);
	tcase_add_test(tc, test_observe_sndbuf_restart);
	tcase_add_test(tc, test_observe_squeeze_needs_drops);
	tcase_add_test(tc, test_observe_disk);
	tcase_add_test(tc, test_hysteresis);
	tcase_add_test(tc, test_notice_objects);
	tcase_add_test(tc, test_severity);
	tcase_add_test(tc, test_capacity);
	tcase_add_test(tc, test_ratchet);
	tcase_add_test(tc, test_ratchet_tcp_mem);
	tcase_add_test(tc, test_rank_and_quota);
	tcase_add_test(tc, test_mibview);
	tcase_add_test(tc, test_queue_values);
	tcase_add_test(tc, test_cache_defaults);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
