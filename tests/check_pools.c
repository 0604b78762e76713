/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/sample/poolclass.c and lib/sample/pools.c: the table
 * of pool classes, and every class's pool built from one hand-made sample
 * with each of its sources. */
#include "config.h"

#include <stdint.h>

#include "advice/poolwords.h"
#include "sample/pools.h"
#include "tw_check.h"
#include "util/error.h"

#define TXT(s) (s), sizeof(s) - 1

START_TEST(test_table_covers_the_mib)
{
	uint32_t id;
	size_t k;

	/* One row for each TwDblockClassType value, in order. */
	ck_assert_uint_eq(tw_pool_nclasses, TW_DBLOCK_HIGH_ORDER);
	for (id = TW_DBLOCK_SOFTNET_BACKLOG; id <= TW_DBLOCK_HIGH_ORDER; id++) {
		const struct tw_pool_class *c = tw_pool_class_find(id);

		ck_assert_ptr_nonnull(c);
		ck_assert_ptr_eq(c, &tw_pool_classes[id - 1]);
		ck_assert_uint_eq(c->id, id);
	}
	ck_assert_ptr_null(tw_pool_class_find(0));
	ck_assert_ptr_null(tw_pool_class_find(TW_DBLOCK_HIGH_ORDER + 1));

	for (k = 0; k < tw_pool_nclasses; k++) {
		const struct tw_pool_class *c = &tw_pool_classes[k];

		ck_assert_ptr_nonnull(tw_sysctl_name(c->tunable));
		ck_assert(c->failure_bits == 32 || c->failure_bits == 64);
		ck_assert_ptr_nonnull(c->event);
		ck_assert(c->per == TW_POOL_PER_ZONE || c->name != NULL);
		if (c->proto != NULL)
			ck_assert_ptr_nonnull(c->counters[0]);
		/* A judged class has a failure event and the words for it. */
		if (tw_pool_words_of(c->id)->judged) {
			const struct tw_pool_words *w = tw_pool_words_of(c->id);

			ck_assert_uint_gt(strlen(c->event), 0);
			ck_assert_ptr_nonnull(w->evidence_before);
			ck_assert_ptr_nonnull(w->evidence_after);
			ck_assert((c->per == TW_POOL_PER_CPU) == (w->graph_label != NULL));
		}
	}
	/* Buddy zones count no failure of their own. */
	ck_assert(!tw_pool_words_of(TW_DBLOCK_BUDDY_ZONE)->judged);
}
END_TEST

static void
set_sysctl(struct tw_sample *s, enum tw_sysctl_id id, const char *text)
{
	s->sysctl.v[id].rc = TW_OK;
	snprintf(s->sysctl.v[id].text, sizeof(s->sysctl.v[id].text), "%s", text);
}

/* Every source every class reads from. */
static void
full_sample(struct tw_sample *s)
{
	struct tw_parse_stats ps = { 0, 0 };

	tw_sample_clear(s);
	/* cpu 3 from column 13, backlog 7 in column 12; cpu 1 without one. */
	ck_assert_int_eq(tw_softnet_parse(TXT(
	    "00000010 00000005 00000002 0 0 0 0 0 0 0 0 00000007 00000003\n"
	    "00000010 ffffffff 00000000 0 0 0 0 0 0 0 0\n"), &s->softnet, &ps), TW_OK);
	ck_assert_int_eq(tw_sockstat_parse(TXT(
	    "TCP: inuse 3 orphan 0 tw 0 alloc 4 mem 12\nUDP: inuse 2 mem 40\n"),
	    &s->sock, &ps), TW_OK);
	ck_assert_int_eq(tw_netstat_parse(TXT(
	    "Udp: InDatagrams RcvbufErrors SndbufErrors MemErrors\n"
	    "Udp: 100 7 2 1\n"
	    "TcpExt: RcvPruned OfoPruned TCPMemoryPressures ListenOverflows TCPRcvQDrop "
	    "TCPBacklogDrop\n"
	    "TcpExt: 1 2 9 5 3 4\n"), &s->net, &ps), TW_OK);
	ck_assert_int_eq(tw_buddyinfo_parse(TXT(
	    "Node 0, zone   Normal   1 1 1 2 1 0 0 0 0 0 0\n"), &s->buddy, &ps), TW_OK);
	ck_assert_uint_eq(ps.malformed, 0);
	s->vm.present |= UINT32_C(1) << TW_VM_COMPACT_FAIL;
	s->vm.v[TW_VM_COMPACT_FAIL] = 6;
	set_sysctl(s, TW_SYSCTL_NET_CORE_NETDEV_MAX_BACKLOG, "1000");
	set_sysctl(s, TW_SYSCTL_NET_CORE_NETDEV_BUDGET, "300");
	set_sysctl(s, TW_SYSCTL_NET_IPV4_TCP_MEM, "45000\t60000\t90000");
	set_sysctl(s, TW_SYSCTL_NET_IPV4_UDP_MEM, "30\t35\t38");
	set_sysctl(s, TW_SYSCTL_NET_CORE_RMEM_MAX, "212992");
	set_sysctl(s, TW_SYSCTL_NET_CORE_WMEM_MAX, "212992");
	set_sysctl(s, TW_SYSCTL_NET_IPV4_TCP_RMEM, "4096\t131072\t6291456");
	set_sysctl(s, TW_SYSCTL_NET_CORE_SOMAXCONN, "4096");
	set_sysctl(s, TW_SYSCTL_VM_MIN_FREE_KBYTES, "67584");
}

static const uint32_t ALL = TW_POOL_HAS_SIZE | TW_POOL_HAS_IN_USE | TW_POOL_HAS_FREE |
    TW_POOL_HAS_LIMIT | TW_POOL_HAS_FAILURES;

static void
expect(const struct tw_pool *p, uint32_t cls, uint32_t instance, const char *name,
    const char *tunable, uint32_t has, uint64_t size, uint64_t in_use, uint64_t free,
    uint64_t limit, uint64_t failures, unsigned bits)
{
	ck_assert_uint_eq(p->cls, cls);
	ck_assert_uint_eq(p->instance, instance);
	/* A per-CPU pool carries its CPU, the number in its name; no other
	 * pool has one. */
	if (tw_pool_class_find(cls)->per == TW_POOL_PER_CPU)
		ck_assert_int_eq(p->cpu, (int32_t)instance);
	else
		ck_assert_int_eq(p->cpu, -1);
	ck_assert_str_eq(p->name, name);
	ck_assert_str_eq(p->tunable, tunable);
	ck_assert_str_eq(p->event, tw_pool_class_find(cls)->event);
	ck_assert_uint_eq(p->has, has);
	ck_assert_uint_eq(p->size, size);
	ck_assert_uint_eq(p->in_use, in_use);
	ck_assert_uint_eq(p->free, free);
	ck_assert_uint_eq(p->limit, limit);
	ck_assert_uint_eq(p->failures, failures);
	ck_assert_uint_eq(p->failure_bits, bits);
}

START_TEST(test_every_class_built)
{
	struct tw_sample s;
	struct tw_pool_set ps;
	const struct tw_pool *p;

	tw_sample_init(&s);
	tw_pool_set_init(&ps);
	full_sample(&s);
	ck_assert_int_eq(tw_pools_build(&s, &ps), TW_OK);
	ck_assert_uint_eq(ps.count, 12);
	p = ps.pools;

	/* Sorted by (class, instance): the row-numbered CPU 1 first. */
	expect(p++, TW_DBLOCK_SOFTNET_BACKLOG, 1, "cpu1 backlog", "net.core.netdev_max_backlog",
	    TW_POOL_HAS_LIMIT | TW_POOL_HAS_FAILURES, 0, 0, 0, 1000, UINT32_MAX, 32);
	expect(p++, TW_DBLOCK_SOFTNET_BACKLOG, 3, "cpu3 backlog", "net.core.netdev_max_backlog",
	    ALL & ~TW_POOL_HAS_SIZE, 0, 7, 993, 1000, 5, 32);
	expect(p++, TW_DBLOCK_SOFTNET_BUDGET, 1, "cpu1 budget", "net.core.netdev_budget",
	    TW_POOL_HAS_LIMIT | TW_POOL_HAS_FAILURES, 0, 0, 0, 300, 0, 32);
	expect(p++, TW_DBLOCK_SOFTNET_BUDGET, 3, "cpu3 budget", "net.core.netdev_budget",
	    TW_POOL_HAS_LIMIT | TW_POOL_HAS_FAILURES, 0, 0, 0, 300, 2, 32);
	expect(p++, TW_DBLOCK_TCP_MEMORY, 0, "tcp memory", "net.ipv4.tcp_mem", ALL, 4096, 12,
	    89988, 90000, 9, 64);
	/* In use over the limit, udp_mem's first value (UDP has no pressure
	 * state: the kernel refuses above it): no free count rather than a
	 * wrapped one. */
	expect(p++, TW_DBLOCK_UDP_MEMORY, 0, "udp memory", "net.ipv4.udp_mem",
	    ALL & ~TW_POOL_HAS_FREE, 4096, 40, 0, 30, 1, 64);
	expect(p++, TW_DBLOCK_UDP_RCVBUF, 0, "udp receive buffer", "net.core.rmem_max",
	    TW_POOL_HAS_LIMIT | TW_POOL_HAS_FAILURES, 0, 0, 0, 212992, 7, 64);
	expect(p++, TW_DBLOCK_UDP_SNDBUF, 0, "udp send buffer", "net.core.wmem_max",
	    TW_POOL_HAS_LIMIT | TW_POOL_HAS_FAILURES, 0, 0, 0, 212992, 2, 64);
	/* The sum of RcvPruned, OfoPruned, TCPRcvQDrop and TCPBacklogDrop. */
	expect(p++, TW_DBLOCK_TCP_RCVBUF, 0, "tcp receive buffer", "net.ipv4.tcp_rmem",
	    TW_POOL_HAS_LIMIT | TW_POOL_HAS_FAILURES, 0, 0, 0, 6291456, 10, 64);
	expect(p++, TW_DBLOCK_TCP_LISTEN, 0, "tcp listen queue", "net.core.somaxconn",
	    TW_POOL_HAS_LIMIT | TW_POOL_HAS_FAILURES, 0, 0, 0, 4096, 5, 64);
	/* Order 3 and up in order-3 blocks: 2 + 1*2 = 4. */
	expect(p++, TW_DBLOCK_BUDDY_ZONE, 2, "node0 Normal", "vm.min_free_kbytes",
	    TW_POOL_HAS_SIZE | TW_POOL_HAS_FREE, 32768, 0, 4, 0, 0, 64);
	expect(p++, TW_DBLOCK_HIGH_ORDER, 0, "high-order pages", "vm.min_free_kbytes",
	    TW_POOL_HAS_SIZE | TW_POOL_HAS_FREE | TW_POOL_HAS_FAILURES, 32768, 0, 4, 0, 6, 64);

	tw_pool_set_free(&ps);
	tw_sample_free(&s);
}
END_TEST

/* A socket pool exists when either its counters or its sockstat field do,
 * and a class with neither has no pool at all. */
START_TEST(test_socket_pools_from_either_source)
{
	struct tw_parse_stats st = { 0, 0 };
	struct tw_sample s;
	struct tw_pool_set ps;

	tw_sample_init(&s);
	tw_pool_set_init(&ps);
	tw_sample_clear(&s);
	ck_assert_int_eq(tw_sockstat_parse(TXT("UDP: inuse 2 mem 40\n"), &s.sock, &st), TW_OK);
	ck_assert_int_eq(tw_netstat_parse(TXT("TcpExt: TCPMemoryPressures\nTcpExt: 3\n"),
	    &s.net, &st), TW_OK);
	ck_assert_int_eq(tw_pools_build(&s, &ps), TW_OK);
	ck_assert_uint_eq(ps.count, 2);
	expect(&ps.pools[0], TW_DBLOCK_TCP_MEMORY, 0, "tcp memory", "net.ipv4.tcp_mem",
	    TW_POOL_HAS_SIZE | TW_POOL_HAS_FAILURES, 4096, 0, 0, 0, 3, 64);
	expect(&ps.pools[1], TW_DBLOCK_UDP_MEMORY, 0, "udp memory", "net.ipv4.udp_mem",
	    TW_POOL_HAS_SIZE | TW_POOL_HAS_IN_USE, 4096, 40, 0, 0, 0, 64);

	/* Nothing to build from: no pools, and the set is emptied. */
	tw_sample_clear(&s);
	ck_assert_int_eq(tw_pools_build(&s, &ps), TW_OK);
	ck_assert_uint_eq(ps.count, 0);
	tw_pool_set_free(&ps);
	tw_sample_free(&s);
}
END_TEST

/* TCP's time in memory pressure goes to the tcp memory pool alone, and
 * builds it where nothing else would. */
START_TEST(test_tcp_pressure_time)
{
	struct tw_parse_stats st = { 0, 0 };
	struct tw_sample s;
	struct tw_pool_set ps;
	size_t i;

	tw_sample_init(&s);
	tw_pool_set_init(&ps);
	full_sample(&s);
	s.have_tcp_pressure = 1;
	s.tcp_pressure_ms = 266004;
	ck_assert_int_eq(tw_pools_build(&s, &ps), TW_OK);
	for (i = 0; i < ps.count; i++) {
		const struct tw_pool *p = &ps.pools[i];

		if (p->cls == TW_DBLOCK_TCP_MEMORY) {
			ck_assert(p->has & TW_POOL_HAS_PRESSURE);
			ck_assert_uint_eq(p->pressure_ms, 266004);
		} else {
			ck_assert(!(p->has & TW_POOL_HAS_PRESSURE));
			ck_assert_uint_eq(p->pressure_ms, 0);
		}
	}
	tw_sample_clear(&s);
	ck_assert_int_eq(tw_pools_build(&s, &ps), TW_OK);
	ck_assert_uint_eq(ps.count, 0);
	s.have_tcp_pressure = 1;
	s.tcp_pressure_ms = 5;
	ck_assert_int_eq(tw_sockstat_parse(TXT("UDP: inuse 2\n"), &s.sock, &st), TW_OK);
	ck_assert_int_eq(tw_pools_build(&s, &ps), TW_OK);
	ck_assert_uint_eq(ps.count, 1);
	expect(&ps.pools[0], TW_DBLOCK_TCP_MEMORY, 0, "tcp memory", "net.ipv4.tcp_mem",
	    TW_POOL_HAS_SIZE | TW_POOL_HAS_PRESSURE, 4096, 0, 0, 0, 0, 64);
	ck_assert_uint_eq(ps.pools[0].pressure_ms, 5);
	tw_pool_set_free(&ps);
	tw_sample_free(&s);
}
END_TEST

/* The sockets' drops that no counter counted (Linux 6.18 at udp_mem) are
 * the udp memory pool's failures, with MemErrors; they make the pool where
 * the kernel has no MemErrors at all. */
START_TEST(test_udp_uncounted)
{
	struct tw_parse_stats st = { 0, 0 };
	struct tw_sample s;
	struct tw_pool_set ps;
	size_t i;

	tw_sample_init(&s);
	tw_pool_set_init(&ps);
	full_sample(&s);
	s.have_udp_uncounted = 1;
	s.udp_uncounted = 77938;
	ck_assert_int_eq(tw_pools_build(&s, &ps), TW_OK);
	for (i = 0; i < ps.count; i++)
		if (ps.pools[i].cls == TW_DBLOCK_UDP_MEMORY)
			ck_assert_uint_eq(ps.pools[i].failures, 77938 + 1);
		else if (ps.pools[i].cls == TW_DBLOCK_UDP_RCVBUF)
			ck_assert_uint_eq(ps.pools[i].failures, 7);
	tw_sample_clear(&s);
	s.have_udp_uncounted = 1;
	s.udp_uncounted = 12;
	ck_assert_int_eq(tw_netstat_parse(TXT("Udp: InDatagrams InErrors\nUdp: 10 0\n"), &s.net,
	    &st), TW_OK);
	ck_assert_int_eq(tw_pools_build(&s, &ps), TW_OK);
	ck_assert_uint_eq(ps.count, 1);
	expect(&ps.pools[0], TW_DBLOCK_UDP_MEMORY, 0, "udp memory", "net.ipv4.udp_mem",
	    TW_POOL_HAS_SIZE | TW_POOL_HAS_FAILURES, 4096, 0, 0, 0, 12, 64);
	tw_pool_set_free(&ps);
	tw_sample_free(&s);
}
END_TEST

static Suite *
pools_suite(void)
{
	Suite *s = suite_create("pools");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_table_covers_the_mib);
	tcase_add_test(tc, test_every_class_built);
	tcase_add_test(tc, test_socket_pools_from_either_source);
	tcase_add_test(tc, test_tcp_pressure_time);
	tcase_add_test(tc, test_udp_uncounted);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(pools_suite());
}
