/* SPDX-License-Identifier: ISC */
/* lib/change/: the map from a tunable to its figure, the bounded history,
 * the figures before and after a change, and the watch between samples.
 * Views and samples are built by hand; every figure is worked out here. */
#include "config.h"

#include <stdint.h>

#include "change/figure.h"
#include "change/history.h"
#include "change/watch.h"
#include "advice/ticket.h"
#include "tw_check.h"
#include "tw_sample_fixture.h"
#include "util/error.h"
#include "view/build.h"
#include "view/columns.h"
#include "view/record_change.h"
#include "view/mibview.h"
#include "view/notice.h"

#define SEC 1000u

/* A view with a window span, pools of softnet's backlog on CPUs 0 and 1
 * with recent failures f0 and f1, and sda (8:0) with r_await ms. */
/* The history put into v's twChangeTable, as the monitor's build puts
 * it. */
static void
publish(const struct tw_change_history *h, struct tw_view *v)
{
	struct tw_change_record in[TW_CHANGE_MAX];
	size_t n = tw_change_history_list(h, in);

	ck_assert_int_eq(tw_view_build(v, &(struct tw_view_sources){ .changes = in,
	    .nchanges = &n }), TW_OK);
}

static void
fx_view(struct tw_view *v, uint64_t span_ms, uint64_t f0, uint64_t f1, double r_await_ms)
{
	size_t i;

	tw_view_init(v);
	TW_PUT_CELL(v->agent, TW_OID_AGENT_WINDOW_SPAN, span_ms);
	TW_PUT_CELL(v->agent, TW_OID_AGENT_WINDOW, 60);
	ck_assert_int_eq(tw_view_reserve_pools(v, 2), TW_OK);
	for (i = 0; i < 2; i++) {
		memset(&v->pools[i], 0, sizeof(v->pools[i]));
		v->pools[i].cls = TW_DBLOCK_SOFTNET_BACKLOG;
		v->pools[i].instance = (uint32_t)i;
		snprintf(v->pools[i].name, sizeof(v->pools[i].name), "cpu%zu backlog", i);
		TW_PUT_CELL(v->pools[i], TW_OID_DBLOCK_RECENT_FAILURES, i == 0 ? f0 : f1);
	}
	v->npools = 2;
	ck_assert_int_eq(tw_view_reserve_disks(v, 1), TW_OK);
	memset(&v->disks[0], 0, sizeof(v->disks[0]));
	v->disks[0].major = 8;
	strcpy(v->disks[0].name, "sda");
	TW_PUT_CELL(v->disks[0], TW_OID_DISK_READ_LATENCY, (uint64_t)(r_await_ms * 1000.0 + 0.5));
	v->ndisks = 1;
}

/* ---- The map ----------------------------------------------------------- */

START_TEST(map_follows_the_rules)
{
	static const struct {
		const char *tunable;
		enum tw_change_family family;
		enum tw_change_figure_kind kind;
		uint32_t cls;
	} want[] = {
		{ "net.core.netdev_max_backlog", TW_CHANGE_FAMILY_POOLS,
		    TW_CHANGE_FIG_POOL_FAILURES, TW_DBLOCK_SOFTNET_BACKLOG },
		{ "net.core.netdev_budget", TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
		    TW_DBLOCK_SOFTNET_BUDGET },
		{ "net.core.netdev_budget_usecs", TW_CHANGE_FAMILY_POOLS,
		    TW_CHANGE_FIG_POOL_FAILURES, TW_DBLOCK_SOFTNET_BUDGET },
		{ "net.core.rmem_default", TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
		    TW_DBLOCK_UDP_RCVBUF },
		{ "net.core.wmem_max", TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
		    TW_DBLOCK_UDP_SNDBUF },
		{ "net.ipv4.tcp_mem", TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_PRESSURE,
		    TW_DBLOCK_TCP_MEMORY },
		{ "net.ipv4.tcp_rmem", TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
		    TW_DBLOCK_TCP_RCVBUF },
		{ "net.core.somaxconn", TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
		    TW_DBLOCK_TCP_LISTEN },
		/* Its first rule is the high-order one, before memory pressure. */
		{ "vm.min_free_kbytes", TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
		    TW_DBLOCK_HIGH_ORDER },
		{ "vm.swappiness", TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_REFAULT_RATE, 0 },
		{ "vm.vfs_cache_pressure", TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_NONE, 0 },
		/* The dirty limits' first rules are DIRTY_LIMITED's, the ratios
		 * as their twins: the share of time writers were throttled. */
		{ "vm.dirty_background_ratio", TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_DIRTY_LIMITED, 0 },
		{ "vm.dirty_ratio", TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_DIRTY_LIMITED, 0 },
		{ "vm.dirty_bytes", TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_DIRTY_LIMITED, 0 },
		{ "vm.dirty_background_bytes", TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_DIRTY_LIMITED,
		    0 },
		{ "queue/scheduler", TW_CHANGE_FAMILY_DISKS, TW_CHANGE_FIG_DISK_R_AWAIT, 0 },
		/* A larger window makes each read slower: reads per MiB. */
		{ "queue/read_ahead_kb", TW_CHANGE_FAMILY_DISKS, TW_CHANGE_FIG_DISK_READS_PER_MIB, 0 },
		{ "queue/nr_requests", TW_CHANGE_FAMILY_DISKS, TW_CHANGE_FIG_DISK_R_AWAIT, 0 },
		{ "queue/wbt_lat_usec", TW_CHANGE_FAMILY_DISKS, TW_CHANGE_FIG_DISK_R_AWAIT, 0 },
		/* A cgroup's limit, as its ticket names it: the cgroup's refaults. */
		{ "MemoryLimit", TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_CGROUP_REFAULTS, 0 },
		{ "MemoryHigh", TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_CGROUP_REFAULTS, 0 },
		{ "MemoryMax", TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_CGROUP_REFAULTS, 0 },
		{ "memory.high", TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_CGROUP_REFAULTS, 0 },
		{ "memory.max", TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_CGROUP_REFAULTS, 0 },
		{ "memory.limit_in_bytes", TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_CGROUP_REFAULTS,
		    0 },
		{ "memory.low", TW_CHANGE_FAMILY_NONE, TW_CHANGE_FIG_NONE, 0 },
		/* No rule names these. */
		{ "net.core.busy_poll", TW_CHANGE_FAMILY_NONE, TW_CHANGE_FIG_NONE, 0 },
		{ "net.ipv4.tcp_max_syn_backlog", TW_CHANGE_FAMILY_NONE, TW_CHANGE_FIG_NONE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct tw_change_map m = tw_change_map(want[i].tunable);

		ck_assert_msg(m.family == want[i].family && m.kind == want[i].kind &&
		    m.pool_class == want[i].cls, "%s: family %d kind %d class %u", want[i].tunable,
		    m.family, m.kind, m.pool_class);
		ck_assert_int_eq(tw_change_family_of(want[i].tunable), want[i].family);
	}
}
END_TEST

/* ---- The history ------------------------------------------------------- */

START_TEST(history_keeps_the_newest_32)
{
	struct tw_change_history h;
	struct tw_view v;
	char old[16], new[16];
	unsigned i;

	tw_view_init(&v);
	tw_change_history_init(&h);
	for (i = 0; i < 40; i++) {
		snprintf(old, sizeof(old), "%u", i);
		snprintf(new, sizeof(new), "%u", i + 1);
		tw_change_history_add(&h, &v, "net.core.busy_poll", NULL, 0, 0, old, new,
		    1000 + i, 1700000000 + i);
	}
	ck_assert_uint_eq(h.count, TW_CHANGE_MAX);
	ck_assert_uint_eq(TW_CHANGE_MAX, 32);
	ck_assert_uint_eq(h.seen_total, 40);
	/* Newest first, indexes counting down from the top. */
	ck_assert_str_eq(tw_change_history_at(&h, 0)->old_value, "39");
	ck_assert_str_eq(tw_change_history_at(&h, 0)->new_value, "40");
	ck_assert_uint_eq(tw_change_history_at(&h, 0)->index, UINT32_MAX - 39);
	ck_assert_str_eq(tw_change_history_at(&h, 31)->old_value, "8");
	ck_assert_uint_eq(tw_change_history_at(&h, 31)->index, UINT32_MAX - 8);
	ck_assert_str_eq(tw_change_history_at(&h, 31)->subject, "host");

	publish(&h, &v);
	ck_assert_uint_eq(v.nchanges, 32);
	for (i = 1; i < v.nchanges; i++)
		ck_assert_uint_lt(v.changes[i - 1].index, v.changes[i].index);
	ck_assert_str_eq(v.changes[0].new_value, "40");
	ck_assert_uint_eq(v.changes[0].col[TW_OID_CHANGE_TIME], 1700000039);
	tw_view_free(&v);
}
END_TEST

START_TEST(history_figures_before_and_after)
{
	struct tw_change_history h;
	struct tw_view before, during, after;
	const struct tw_change *c;
	struct tw_change_record cf;

	/* 76 drops on cpu1 in a 30 s span: 152 a minute; cpu0 had 3. */
	fx_view(&before, 30 * SEC, 3, 76, 48.5);
	tw_change_history_init(&h);
	tw_change_history_begin(&h);
	tw_change_history_add(&h, &before, "net.core.netdev_max_backlog", NULL, 0, 0, "1000",
	    "2000", 100 * SEC, 1700000000);
	tw_change_history_add(&h, &before, "queue/nr_requests", "sda", 8, 0, "64", "32",
	    100 * SEC, 1700000000);
	c = tw_change_history_at(&h, 1);
	ck_assert_str_eq(c->fig.name, "cpu1 backlog");
	ck_assert_str_eq(c->fig.unit, "failures/min");
	ck_assert(c->has_before);
	ck_assert_double_eq_tol(c->before, 152.0, 1e-9);
	c = tw_change_history_at(&h, 0);
	ck_assert_str_eq(c->fig.name, "sda r_await");
	ck_assert_str_eq(c->subject, "sda");
	ck_assert_double_eq_tol(c->before, 48.5, 1e-9);

	/* A window is 60 s: at 159 s the window after is not complete. */
	fx_view(&during, 60 * SEC, 0, 9, 20);
	tw_change_history_begin(&h);
	tw_change_history_evaluate(&h, &during, 159 * SEC, 60 * SEC);
	ck_assert(!tw_change_history_at(&h, 1)->evaluated);
	ck_assert_uint_eq(tw_change_history_at(&h, 1)->events, 0);

	/* At 160 s it is: cpu1 dropped 2 in 40 s, 3 a minute; cpu0's 400
	 * are not this change's pool. sda is gone: no figure after. */
	fx_view(&after, 40 * SEC, 400, 2, 0);
	after.ndisks = 0;
	tw_change_history_begin(&h);
	tw_change_history_evaluate(&h, &after, 160 * SEC, 60 * SEC);
	c = tw_change_history_at(&h, 1);
	ck_assert(c->evaluated && c->has_after);
	ck_assert_uint_eq(c->events, TW_CHANGE_EV_EVALUATED);
	ck_assert_double_eq_tol(c->after, 3.0, 1e-9);
	c = tw_change_history_at(&h, 0);
	ck_assert(c->evaluated && !c->has_after);

	/* Evaluated once only. */
	tw_change_history_begin(&h);
	tw_change_history_evaluate(&h, &after, 200 * SEC, 60 * SEC);
	ck_assert_uint_eq(tw_change_history_at(&h, 1)->events, 0);

	/* In the MIB: hundredths, and the state as a TruthValue. */
	publish(&h, &after);
	ck_assert_uint_eq(after.changes[1].col[TW_OID_CHANGE_BEFORE], 15200);
	ck_assert_uint_eq(after.changes[1].col[TW_OID_CHANGE_AFTER], 300);
	ck_assert_uint_eq(after.changes[1].col[TW_OID_CHANGE_EVALUATED], 1);
	tw_view_change_record(&after.changes[1], &cf);
	ck_assert_double_eq_tol(cf.before, 152.0, 1e-9);
	ck_assert(!tw_view_has(&after.changes[0], TW_OID_CHANGE_AFTER));
	ck_assert(tw_view_has(&after.changes[0], TW_OID_CHANGE_BEFORE));
	tw_view_free(&before);
	tw_view_free(&during);
	tw_view_free(&after);
}
END_TEST

/* read_ahead_kb on sda's reads per MiB (16000 reads/s of 64 MB/s: 256 a
 * MiB; none when it read nothing); a dirty limit on the share of time
 * writers were throttled. */
START_TEST(history_readahead_and_dirty)
{
	const struct tw_column *ops = tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_READ_OPS);
	const struct tw_column *rate = tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_READ_RATE);
	const struct tw_column *lim = tw_column(TW_OID_BUFCACHE, TW_OID_BC_DIRTY_LIMITED);
	struct tw_change_history h;
	struct tw_view v;
	const struct tw_change *c;

	fx_view(&v, 10 * SEC, 0, 0, 5);
	TW_PUT_CELL(v.disks[0], TW_OID_DISK_READ_OPS, tw_column_encode(ops, 16000));
	TW_PUT_CELL(v.disks[0], TW_OID_DISK_READ_RATE, tw_column_encode(rate, 16000 * 4096));
	TW_PUT_CELL(v.bc, TW_OID_BC_DIRTY_LIMITED, tw_column_encode(lim, 87.5));
	tw_change_history_init(&h);
	tw_change_history_add(&h, &v, "queue/read_ahead_kb", "sda", 8, 0, "4", "128", 0, 1);
	tw_change_history_add(&h, &v, "vm.dirty_bytes", NULL, 0, 0, "8388608", "134217728", 0, 1);
	c = tw_change_history_at(&h, 1);
	ck_assert_str_eq(c->fig.name, "sda reads per MiB");
	ck_assert_str_eq(c->fig.unit, "reads/MiB");
	ck_assert(c->has_before);
	ck_assert_double_eq_tol(c->before, 256, 1e-6);
	c = tw_change_history_at(&h, 0);
	ck_assert_str_eq(c->fig.name, "writers throttled at the dirty limit");
	ck_assert_str_eq(c->fig.unit, "%");
	ck_assert_double_eq_tol(c->before, 87.5, 1e-9);
	/* An idle disk gives no figure after, not 0. */
	v.disks[0].col[TW_OID_DISK_READ_OPS] = 0;
	v.disks[0].col[TW_OID_DISK_READ_RATE] = 0;
	v.bc.col[TW_OID_BC_DIRTY_LIMITED] = 0;
	tw_change_history_evaluate(&h, &v, 10 * SEC, 10 * SEC);
	ck_assert(tw_change_history_at(&h, 1)->evaluated && !tw_change_history_at(&h, 1)->has_after);
	ck_assert(tw_change_history_at(&h, 0)->has_after);
	ck_assert_double_eq_tol(tw_change_history_at(&h, 0)->after, 0, 1e-9);
	tw_view_free(&v);
}
END_TEST

/* A view whose tcp memory pool entered pressure `entries` times and
 * spent pressure_ms in it (has_time 0: the kernel says nothing of it). */
static void
fx_tcp_view(struct tw_view *v, uint64_t span_ms, uint64_t entries, uint64_t pressure_ms,
    int has_time)
{
	tw_view_init(v);
	TW_PUT_CELL(v->agent, TW_OID_AGENT_WINDOW_SPAN, span_ms);
	TW_PUT_CELL(v->agent, TW_OID_AGENT_WINDOW, 10);
	ck_assert_int_eq(tw_view_reserve_pools(v, 1), TW_OK);
	memset(&v->pools[0], 0, sizeof(v->pools[0]));
	v->pools[0].cls = TW_DBLOCK_TCP_MEMORY;
	strcpy(v->pools[0].name, "tcp memory");
	TW_PUT_CELL(v->pools[0], TW_OID_DBLOCK_RECENT_FAILURES, entries);
	if (has_time)
		TW_PUT_CELL(v->pools[0], TW_OID_DBLOCK_RECENT_PRESSURE_TIME, pressure_ms);
	v->npools = 1;
}

/* tcp_mem is judged on the share of the window TCP spent in pressure: a
 * pressure that never ends enters none in the window, yet was 98 % of it
 * before the change and 0 after; without the time, the entries a minute. */
START_TEST(history_tcp_pressure_share)
{
	struct tw_change_history h;
	struct tw_view before, after, old;
	const struct tw_change *c;

	fx_tcp_view(&before, 10 * SEC, 0, 9800, 1);
	tw_change_history_init(&h);
	tw_change_history_begin(&h);
	tw_change_history_add(&h, &before, "net.ipv4.tcp_mem", NULL, 0, 0, "3072 6144 12288",
	    "6144 12288 24576", 100 * SEC, 1700000000);
	c = tw_change_history_at(&h, 0);
	ck_assert_str_eq(c->fig.name, "tcp memory pressure");
	ck_assert_str_eq(c->fig.unit, "%");
	ck_assert(c->has_before);
	ck_assert_double_eq_tol(c->before, 98.0, 1e-9);
	fx_tcp_view(&after, 10 * SEC, 0, 0, 1);
	tw_change_history_begin(&h);
	tw_change_history_evaluate(&h, &after, 110 * SEC, 10 * SEC);
	c = tw_change_history_at(&h, 0);
	ck_assert(c->evaluated && c->has_after);
	ck_assert_double_eq_tol(c->after, 0.0, 1e-9);

	/* No time in pressure published: the entries, 2 in 30 s = 4 a minute. */
	fx_tcp_view(&old, 30 * SEC, 2, 0, 0);
	tw_change_history_init(&h);
	tw_change_history_begin(&h);
	tw_change_history_add(&h, &old, "net.ipv4.tcp_mem", NULL, 0, 0, "3072 6144 12288",
	    "6144 12288 24576", 100 * SEC, 1700000000);
	c = tw_change_history_at(&h, 0);
	ck_assert_str_eq(c->fig.name, "tcp memory");
	ck_assert_str_eq(c->fig.unit, "failures/min");
	ck_assert_double_eq_tol(c->before, 4.0, 1e-9);
	tw_view_free(&before);
	tw_view_free(&after);
	tw_view_free(&old);
}
END_TEST

START_TEST(history_without_a_figure)
{
	struct tw_change_history h;
	struct tw_view v;
	const struct tw_change *c;

	fx_view(&v, 30 * SEC, 3, 76, 10);
	tw_change_history_init(&h);
	tw_change_history_add(&h, &v, "vm.vfs_cache_pressure", NULL, 0, 0, "100", "50", 0,
	    1700000000);
	/* A pool knob while no pool of its class has a window figure. */
	v.pools[0].has = v.pools[1].has = 0;
	tw_change_history_add(&h, &v, "net.core.netdev_max_backlog", NULL, 0, 0, "1000",
	    "2000", 0, 1700000000);
	tw_change_history_evaluate(&h, &v, 60 * SEC, 60 * SEC);
	publish(&h, &v);
	for (size_t i = 0; i < 2; i++) {
		c = tw_change_history_at(&h, i);
		ck_assert(c->evaluated && !c->has_before && !c->has_after);
		ck_assert(!tw_view_has(&v.changes[i], TW_OID_CHANGE_FIGURE));
		ck_assert(!tw_view_has(&v.changes[i], TW_OID_CHANGE_BEFORE));
		ck_assert(!tw_view_has(&v.changes[i], TW_OID_CHANGE_AFTER));
		ck_assert_uint_eq(v.changes[i].col[TW_OID_CHANGE_EVALUATED], 1);
	}
	tw_view_free(&v);
}
END_TEST

/* The rows in the MIB tree, without a master: newest first, and a figure
 * that cannot be given has no instance. */
START_TEST(history_in_the_mib)
{
	struct tw_change_history h;
	struct tw_view v;
	struct tw_ber_value val;
	uint32_t start[] = { TW_OID_CHANGE_TABLE }, next[TW_MV_OID_MAX];
	uint32_t before[] = { TW_OID_CHANGE_TABLE, 1, TW_OID_CHANGE_BEFORE, UINT32_MAX };
	size_t nlen;

	fx_view(&v, 30 * SEC, 0, 0, 5);
	tw_change_history_init(&h);
	tw_change_history_add(&h, &v, "vm.vfs_cache_pressure", NULL, 0, 0, "100", "50", 0, 1);
	tw_change_history_add(&h, &v, "queue/nr_requests", "sda", 8, 0, "64", "32", 0, 1);
	publish(&h, &v);
	ck_assert_int_eq(tw_mv_next(&v, 0, start, 1, 0, next, &nlen, &val), TW_MV_FOUND);
	ck_assert_uint_eq(nlen, 4);
	ck_assert_uint_eq(next[2], TW_OID_CHANGE_TUNABLE);
	ck_assert_uint_eq(next[3], UINT32_MAX - 1);
	ck_assert_int_eq(val.type, TW_BER_OCTET_STRING);
	ck_assert_int_eq(memcmp(val.str, "queue/nr_requests", val.len), 0);
	ck_assert_int_eq(tw_mv_get(&v, 0, before, 4, &val), TW_MV_NO_SUCH_INSTANCE);
	before[3] = UINT32_MAX - 1;
	ck_assert_int_eq(tw_mv_get(&v, 0, before, 4, &val), TW_MV_FOUND);
	ck_assert_uint_eq(val.num, 500);	/* 5 ms, in hundredths */
	tw_view_free(&v);
}
END_TEST

/* ---- The watch ---------------------------------------------------------- */

/* sda (8:0) with nr_requests and the scheduler, and optionally sdb. */
static void
fx_sample(struct tw_sample *s, uint64_t ms, const char *backlog, int64_t nr, const char *sched,
    int with_sdb)
{
	static const struct fx_disk disks[] = {
		{ .major = 8, .minor = 0, .name = "sda" },
		{ .major = 8, .minor = 16, .name = "sdb" },
	};

	fx_sample_disks(s, ms, disks, with_sdb ? 2 : 1);
	s->queues[0].nr_requests = nr;
	snprintf(s->queues[0].scheduler, sizeof(s->queues[0].scheduler), "%s", sched);
	if (with_sdb)
		s->queues[1].nr_requests = 128;
	s->have |= TW_SRC_BIT(TW_SRC_SYSCTL);
	for (size_t i = 0; i < TW_SYSCTL_COUNT; i++)
		s->sysctl.v[i].rc = TW_E_ABSENT;
	s->sysctl.v[TW_SYSCTL_NET_CORE_NETDEV_MAX_BACKLOG].rc = backlog != NULL ? TW_OK :
	    TW_E_ABSENT;
	snprintf(s->sysctl.v[TW_SYSCTL_NET_CORE_NETDEV_MAX_BACKLOG].text, TW_SYSCTL_VALUE_LEN,
	    "%s", backlog != NULL ? backlog : "");
}

START_TEST(watch_compares_with_the_previous_sample)
{
	struct tw_change_watch w;
	struct tw_sample s;
	struct tw_view v;
	const struct tw_change *c;

	tw_sample_init(&s);
	fx_view(&v, 30 * SEC, 0, 0, 5);
	tw_change_watch_init(&w, 60);

	/* The first sample records nothing, whatever it holds. */
	fx_sample(&s, 0, "1000", 64, "mq-deadline", 0);
	ck_assert_int_eq(tw_change_watch_step(&w, &s, &v, 1700000000), TW_OK);
	ck_assert_uint_eq(w.history.count, 0);

	/* The same values: nothing. sdb appearing is no change. */
	fx_sample(&s, 5 * SEC, "1000", 64, "mq-deadline", 1);
	ck_assert_int_eq(tw_change_watch_step(&w, &s, &v, 1700000005), TW_OK);
	ck_assert_uint_eq(w.history.count, 0);

	/* The backlog, sda's nr_requests and its scheduler change. */
	fx_sample(&s, 10 * SEC, "2000", 32, "none", 1);
	ck_assert_int_eq(tw_change_watch_step(&w, &s, &v, 1700000010), TW_OK);
	ck_assert_uint_eq(w.history.count, 3);
	c = tw_change_history_at(&w.history, 2);
	ck_assert_str_eq(c->tunable, "net.core.netdev_max_backlog");
	ck_assert_str_eq(c->subject, "host");
	ck_assert_str_eq(c->old_value, "1000");
	ck_assert_str_eq(c->new_value, "2000");
	ck_assert_int_eq(c->when_s, 1700000010);
	ck_assert_uint_eq(c->events, TW_CHANGE_EV_SEEN);
	c = tw_change_history_at(&w.history, 1);
	ck_assert_str_eq(c->tunable, "queue/scheduler");
	ck_assert_str_eq(c->subject, "sda");
	ck_assert_str_eq(c->old_value, "mq-deadline");
	ck_assert_str_eq(c->new_value, "none");
	c = tw_change_history_at(&w.history, 0);
	ck_assert_str_eq(c->tunable, "queue/nr_requests");
	ck_assert_str_eq(c->old_value, "64");
	ck_assert_str_eq(c->new_value, "32");

	/* Values that cannot be read (the tunable gone, nr_requests
	 * unknown, sdb gone) are no change either; the old events go. */
	fx_sample(&s, 15 * SEC, NULL, -1, "none", 0);
	ck_assert_int_eq(tw_change_watch_step(&w, &s, &v, 1700000015), TW_OK);
	fx_sample(&s, 20 * SEC, "4000", 32, "none", 1);
	ck_assert_int_eq(tw_change_watch_step(&w, &s, &v, 1700000020), TW_OK);
	ck_assert_uint_eq(w.history.count, 3);
	ck_assert_uint_eq(tw_change_history_at(&w.history, 0)->events, 0);

	/* A window after the changes, they are evaluated. */
	fx_sample(&s, 70 * SEC, "4000", 32, "none", 1);
	ck_assert_int_eq(tw_change_watch_step(&w, &s, &v, 1700000070), TW_OK);
	ck_assert_uint_eq(w.history.count, 3);
	for (size_t i = 0; i < 3; i++) {
		ck_assert(tw_change_history_at(&w.history, i)->evaluated);
		ck_assert_uint_eq(tw_change_history_at(&w.history, i)->events,
		    TW_CHANGE_EV_EVALUATED);
	}
	tw_change_watch_free(&w);
	tw_sample_free(&s);
	tw_view_free(&v);
}
END_TEST

/* ---- Cgroup limits ------------------------------------------------------ */

/* One published cgroup of the sample: index, limits (0: none). */
struct fx_cg {
	uint32_t index;
	const char *path, *unit;
	uint64_t high, max;
	double refaults;	/* pages/s in the view */
};

/* Owners and their quota (history.h): root changes a sysctl; a user then
 * rewrites the limits of 40 delegated cgroups every sample, for twenty
 * samples (800 changes). Root's change stays until a window after it has
 * evaluated it, and after; the user holds at most their quota of rows;
 * another user's change and a system unit's are not pushed out either.
 * A history full of root's changes keeps no user's. Before (6900ab4) the
 * 32 newest stayed, whoever's: root's was gone after the first sample. */
START_TEST(history_owner_quota)
{
	struct tw_change_history h;
	struct tw_view v;
	char subject[64], old[16], new[16];
	unsigned i, k, root = 0, other = 0, unit = 0, mine = 0;
	const struct tw_change *c;

	tw_view_init(&v);
	tw_change_history_init(&h);
	tw_change_history_add(&h, &v, "vm.vfs_cache_pressure", NULL, 0, 0, "100", "50", 0,
	    1700000000);
	tw_change_history_add_cgroup(&h, &v, "MemoryMax", "/sys/fs/cgroup/system.slice/db.service",
	    "tw-000000000001", 0, 1, "64M", "128M", 100, 1700000000);
	tw_change_history_add_cgroup(&h, &v, "memory.max", "/sys/fs/cgroup/tw-other/web.service",
	    "tw-000000000002", 1001, 2, "8M", "16M", 200, 1700000000);
	for (k = 0; k < 20; k++) {
		for (i = 0; i < 40; i++) {
			snprintf(subject, sizeof(subject), "/sys/fs/cgroup/tw-nobody/c%u", i);
			snprintf(old, sizeof(old), "%uM", 8 + k);
			snprintf(new, sizeof(new), "%uM", 9 + k);
			ck_assert_ptr_nonnull(tw_change_history_add_cgroup(&h, &v, "memory.max",
			    subject, "tw-000000000003", 65534, 3, old, new, 1000 * (k + 1),
			    1700000001 + k));
		}
		tw_change_history_evaluate(&h, &v, 1000 * (k + 1), 4000);
		ck_assert_uint_le(h.count, TW_CHANGE_MAX);
	}
	for (i = 0; i < h.count; i++) {
		c = tw_change_history_at(&h, i);
		root += strcmp(c->tunable, "vm.vfs_cache_pressure") == 0 && c->evaluated;
		unit += c->owner_uid == 0 && strcmp(c->tunable, "MemoryMax") == 0;
		other += c->owner_uid == 1001;
		mine += c->owner_uid == 65534;
	}
	ck_assert_uint_eq(root, 1);
	ck_assert_uint_eq(unit, 1);
	ck_assert_uint_eq(other, 1);
	ck_assert_uint_eq(mine, TW_CHANGE_OWNER_QUOTA);
	ck_assert_uint_eq(h.seen_total, 803);
	/* The user's newest are the ones kept. */
	ck_assert_str_eq(tw_change_history_at(&h, 0)->new_value, "28M");

	/* A history of root's changes only: a user's is not kept. */
	tw_change_history_init(&h);
	for (i = 0; i < TW_CHANGE_MAX; i++)
		tw_change_history_add(&h, &v, "net.core.busy_poll", NULL, 0, 0, "0", "1", i, i);
	ck_assert_ptr_null(tw_change_history_add_cgroup(&h, &v, "memory.max", "/sys/fs/cgroup/x",
	    "tw-000000000004", 65534, 4, "8M", "16M", 99, 99));
	ck_assert_uint_eq(h.dropped, 1);
	ck_assert_uint_eq(h.count, TW_CHANGE_MAX);
	/* Root's newest takes the place of root's oldest. */
	tw_change_history_add(&h, &v, "net.core.busy_poll", NULL, 0, 0, "1", "2", 100, 100);
	ck_assert_str_eq(tw_change_history_at(&h, 0)->new_value, "2");
	ck_assert_uint_eq(h.count, TW_CHANGE_MAX);
	tw_view_free(&v);
}
END_TEST

static void
fx_cgroups(struct tw_sample *s, struct tw_view *v, enum tw_cg_version ver,
    const struct fx_cg *cg, size_t n)
{
	const struct tw_column *rate = tw_column(TW_OID_CGROUP_TABLE, TW_OID_CGROUP_REFAULT_RATE);
	size_t i;

	s->cgroups.rows = realloc(s->cgroups.rows, (n ? n : 1) * sizeof(*s->cgroups.rows));
	ck_assert_ptr_nonnull(s->cgroups.rows);
	s->cgroups.cap = n ? n : 1;
	s->cgroups.count = n;
	s->cgroups.version = ver;
	s->have |= TW_SRC_BIT(TW_SRC_CGROUPS);
	ck_assert_int_eq(tw_view_reserve_cgroups(v, n), TW_OK);
	v->ncgroups = n;
	for (i = 0; i < n; i++) {
		struct tw_sample_cgroup *r = &s->cgroups.rows[i];
		struct tw_view_cgroup *vc = &v->cgroups[i];

		memset(r, 0, sizeof(*r));
		r->index = cg[i].index;
		snprintf(r->cg.path, sizeof(r->cg.path), "%s", cg[i].path);
		snprintf(r->unit, sizeof(r->unit), "%s", cg[i].unit);
		if (cg[i].high) {
			r->cg.present |= TW_CG_BIT(TW_CG_HIGH);
			r->cg.v[TW_CG_HIGH] = cg[i].high;
		}
		if (cg[i].max) {
			r->cg.present |= TW_CG_BIT(TW_CG_MAX);
			r->cg.v[TW_CG_MAX] = cg[i].max;
		}
		memset(vc, 0, sizeof(*vc));
		vc->index = cg[i].index;
		snprintf(vc->path, sizeof(vc->path), "%s", cg[i].path);
		snprintf(vc->unit, sizeof(vc->unit), "%s", cg[i].unit);
		TW_PUT_CELL(*vc, TW_OID_CGROUP_REFAULT_RATE, tw_column_encode(rate, cg[i].refaults));
	}
}

/* A published cgroup's limit is a tunable: a change is recorded under the
 * name and in the size its ticket uses, with the cgroup's refaults before
 * and, a window later, after. */
START_TEST(watch_cgroup_limits)
{
	static const char deep[] = "/machine.slice/libpod-0123456789abcdef0123456789abcdef0123"
	    "456789abcdef0123456789abcdef.scope/container/payload";
	struct fx_cg v1a[] = {
		{ 3, "/tw-job.service", "tw-job.service", 0, 64 << 20, 72000.5 },
		{ 4, "/other", "", 0, 0, 0 },
	};
	struct fx_cg v1b[] = {
		{ 3, "/tw-job.service", "tw-job.service", 0, 272 << 20, 72000.5 },
		{ 4, "/other", "", 0, 512 << 20, 0 },
		/* Published now only: no change. */
		{ 9, "/new", "", 0, 1 << 20, 0 },
	};
	struct fx_cg v1c[] = {
		{ 3, "/tw-job.service", "tw-job.service", 0, 272 << 20, 0 },
		{ 4, "/other", "", 0, 512 << 20, 0 },
	};
	struct tw_change_watch w;
	struct tw_sample s;
	struct tw_view v;
	const struct tw_change *c;
	char id[TW_TICKET_ID_LEN], want[TW_VIEW_SUBJECT];

	tw_sample_init(&s);
	fx_view(&v, 10 * SEC, 0, 0, 5);
	tw_change_watch_init(&w, 10);
	fx_sample(&s, 0, "1000", 64, "none", 0);
	fx_cgroups(&s, &v, TW_CG_V1, v1a, 2);
	ck_assert_int_eq(tw_change_watch_step(&w, &s, &v, 1700000000), TW_OK);
	ck_assert_uint_eq(w.history.count, 0);

	fx_sample(&s, 1 * SEC, "1000", 64, "none", 0);
	fx_cgroups(&s, &v, TW_CG_V1, v1b, 3);
	ck_assert_int_eq(tw_change_watch_step(&w, &s, &v, 1700000001), TW_OK);
	ck_assert_uint_eq(w.history.count, 2);
	c = tw_change_history_at(&w.history, 1);
	ck_assert_str_eq(c->tunable, "MemoryLimit");
	/* The cgroup's directory, its finding's subject, and that finding's
	 * id: never the unit's name, which a user's unit may share. */
	ck_assert_str_eq(c->subject, "/sys/fs/cgroup/memory/tw-job.service");
	tw_ticket_id(id, TW_SYM_CGROUP_CACHE_BOUNDED, "/sys/fs/cgroup/memory/tw-job.service",
	    "MemoryLimit");
	ck_assert_str_eq(c->finding_id, id);
	ck_assert_str_eq(c->old_value, "64M");
	ck_assert_str_eq(c->new_value, "272M");
	ck_assert_str_eq(c->fig.name, "cgroup refaults");
	ck_assert_str_eq(c->fig.unit, "pages/s");
	ck_assert(c->has_before);
	ck_assert_double_eq_tol(c->before, 72000.5, 0.01);
	/* Not a unit's own: the file, and v1's word for no limit. */
	c = tw_change_history_at(&w.history, 0);
	ck_assert_str_eq(c->tunable, "memory.limit_in_bytes");
	ck_assert_str_eq(c->subject, "/sys/fs/cgroup/memory/other");
	ck_assert_str_eq(c->old_value, "-1");
	ck_assert_str_eq(c->new_value, "512M");
	ck_assert_int_eq(tw_change_family_of(c->tunable), TW_CHANGE_FAMILY_CACHE);

	/* A window after the change: the refaults went. */
	fx_sample(&s, 11 * SEC, "1000", 64, "none", 0);
	fx_cgroups(&s, &v, TW_CG_V1, v1c, 2);
	ck_assert_int_eq(tw_change_watch_step(&w, &s, &v, 1700000011), TW_OK);
	ck_assert_uint_eq(w.history.count, 2);
	c = tw_change_history_at(&w.history, 1);
	ck_assert(c->evaluated && c->has_after);
	ck_assert_double_eq_tol(c->after, 0, 1e-9);
	publish(&w.history, &v);
	ck_assert_str_eq(v.changes[1].subject, "/sys/fs/cgroup/memory/tw-job.service");
	ck_assert_str_eq(v.changes[1].finding_id, id);
	ck_assert_uint_eq(v.changes[1].col[TW_OID_CHANGE_BEFORE], 7200050);

	/* v2: each file its own tunable; a cgroup gone from the sample, or
	 * the source missing, is no change; a long path is kept whole. */
	{
		struct fx_cg a[] = {
			{ 5, "/system.slice/nginx.service", "nginx.service", 64 << 20, 0, 10 },
			{ 6, deep, "", 0, 0, 1 },
			{ 7, "/gone", "", 0, 1 << 20, 0 },
		};
		struct fx_cg b[] = {
			{ 5, "/system.slice/nginx.service", "nginx.service", 128 << 20, 256 << 20, 0 },
			{ 6, deep, "", 1536 << 10, 0, 0 },
		};

		fx_sample(&s, 20 * SEC, "1000", 64, "none", 0);
		fx_cgroups(&s, &v, TW_CG_V2, a, 3);
		ck_assert_int_eq(tw_change_watch_step(&w, &s, &v, 1700000020), TW_OK);
		ck_assert_uint_eq(w.history.count, 2);
		fx_sample(&s, 21 * SEC, "1000", 64, "none", 0);
		s.have &= ~TW_SRC_BIT(TW_SRC_CGROUPS);
		ck_assert_int_eq(tw_change_watch_step(&w, &s, &v, 1700000021), TW_OK);
		fx_sample(&s, 22 * SEC, "1000", 64, "none", 0);
		fx_cgroups(&s, &v, TW_CG_V2, a, 3);
		ck_assert_int_eq(tw_change_watch_step(&w, &s, &v, 1700000022), TW_OK);
		ck_assert_uint_eq(w.history.count, 2);
		fx_sample(&s, 23 * SEC, "1000", 64, "none", 0);
		fx_cgroups(&s, &v, TW_CG_V2, b, 2);
		ck_assert_int_eq(tw_change_watch_step(&w, &s, &v, 1700000023), TW_OK);
		ck_assert_uint_eq(w.history.count, 5);
		c = tw_change_history_at(&w.history, 2);
		ck_assert_str_eq(c->tunable, "MemoryHigh");
		ck_assert_str_eq(c->old_value, "64M");
		ck_assert_str_eq(c->new_value, "128M");
		c = tw_change_history_at(&w.history, 1);
		ck_assert_str_eq(c->tunable, "MemoryMax");
		ck_assert_str_eq(c->old_value, "infinity");
		ck_assert_str_eq(c->new_value, "256M");
		c = tw_change_history_at(&w.history, 0);
		ck_assert_str_eq(c->tunable, "memory.high");
		/* Cut to a DisplayString, as the finding's subject is. */
		snprintf(want, sizeof(want), "/sys/fs/cgroup%s", deep);
		ck_assert_str_eq(c->subject, want);
		ck_assert_str_eq(c->old_value, "max");
		ck_assert_str_eq(c->new_value, "1536K");
	}
	tw_change_watch_free(&w);
	tw_sample_free(&s);
	tw_view_free(&v);
}
END_TEST

/* A change's notifications: twTunableChanged without the figure after,
 * twTunableChangeEvaluated with it; a figure that cannot be given is left
 * out, as in the table. */
START_TEST(notice_of_a_change)
{
	struct tw_change_record c;
	struct tw_notice n;

	tw_change_record_init(&c);
	c.index = UINT32_MAX;
	c.tunable = "net.core.somaxconn";
	c.subject = "host";
	c.old_value = "128";
	c.new_value = "4096";
	c.time_s = 1700000000;
	c.figure = "listen overflows";
	c.unit = "/s";
	c.before = 2.5;
	tw_notice_change(&n, 0, &c);
	ck_assert_uint_eq(n.notification, TW_NOTIFY_TUNABLE_CHANGED);
	ck_assert_uint_eq(n.index, UINT32_MAX);
	ck_assert_uint_eq(n.n, 8);
	ck_assert_uint_eq(n.obj[0].col, TW_OID_CHANGE_TUNABLE);
	ck_assert_uint_eq(n.obj[4].col, TW_OID_CHANGE_TIME);
	ck_assert_uint_eq(n.obj[4].val.num, 1700000000);
	ck_assert_uint_eq(n.obj[7].col, TW_OID_CHANGE_BEFORE);
	ck_assert_uint_eq(n.obj[7].val.num, 250);
	c.evaluated = 1;
	tw_notice_change(&n, 1, &c);
	ck_assert_uint_eq(n.notification, TW_NOTIFY_TUNABLE_CHANGE_EVALUATED);
	ck_assert_uint_eq(n.n, 8);	/* no figure after */
	c.after = 0;
	tw_notice_change(&n, 1, &c);
	ck_assert_uint_eq(n.n, 9);
	ck_assert_uint_eq(n.obj[8].col, TW_OID_CHANGE_AFTER);
	c.figure = c.unit = NULL;
	tw_notice_change(&n, 0, &c);
	ck_assert_uint_eq(n.n, 6);
	ck_assert_uint_eq(n.obj[5].col, TW_OID_CHANGE_BEFORE);
}
END_TEST

static Suite *
change_suite(void)
{
	Suite *s = suite_create("change");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, map_follows_the_rules);
	tcase_add_test(tc, history_keeps_the_newest_32);
	tcase_add_test(tc, history_figures_before_and_after);
	tcase_add_test(tc, history_readahead_and_dirty);
	tcase_add_test(tc, history_tcp_pressure_share);
	tcase_add_test(tc, history_without_a_figure);
	tcase_add_test(tc, history_in_the_mib);
	tcase_add_test(tc, watch_compares_with_the_previous_sample);
	tcase_add_test(tc, watch_cgroup_limits);
	tcase_add_test(tc, history_owner_quota);
	tcase_add_test(tc, notice_of_a_change);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(change_suite());
}
