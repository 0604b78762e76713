/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/view/mibview.c: GET and GETNEXT over a view built by
 * hand, walked without any master agent (as lldpd's tests walk its MIB). */
#include "config.h"

#include <stdint.h>

#include "view/mibview.h"
#include "tw_check.h"
#include "util/error.h"
#include "view/view.h"

static void
oid_cpy(uint32_t *dst, size_t *dlen, const uint32_t *src, size_t len)
{
	memcpy(dst, src, len * sizeof(*src));
	*dlen = len;
}

/* Two disks (8:0 with every column, 8:16 with no windowed figures), one
 * pool without failure columns, two tunables. */
static void
small_view(struct tw_view *v)
{
	tw_view_init(v);
	v->agent.has = TW_VIEW_BIT(TW_OID_AGENT_VERSION) | TW_VIEW_BIT(TW_OID_AGENT_SAMPLE_AGE);
	strcpy(v->agent.version, "9.9");
	TW_PUT_CELL(v->agent, TW_OID_AGENT_INTERVAL, 5);
	v->agent.newest_ms = 1000;
	TW_PUT_CELL(v->bc, TW_OID_BC_CACHED, UINT64_C(1) << 40);

	tw_view_reserve_disks(v, 2);
	memset(v->disks, 0, 2 * sizeof(*v->disks));
	v->disks[0].major = 8;
	v->disks[0].minor = 0;
	strcpy(v->disks[0].name, "sda");
	v->disks[0].has = TW_VIEW_BIT(TW_OID_DISK_NAME);
	TW_PUT_CELL(v->disks[0], TW_OID_DISK_READ_LATENCY, 2000);
	v->disks[1].major = 8;
	v->disks[1].minor = 16;
	strcpy(v->disks[1].name, "sdb");
	v->disks[1].has = TW_VIEW_BIT(TW_OID_DISK_NAME);
	v->ndisks = 2;

	tw_view_reserve_pools(v, 1);
	memset(v->pools, 0, sizeof(*v->pools));
	v->pools[0].cls = 9;
	v->pools[0].instance = 2;
	strcpy(v->pools[0].name, "node0 Normal");
	strcpy(v->pools[0].tunable, "vm.min_free_kbytes");
	v->pools[0].has = TW_VIEW_BIT(TW_OID_DBLOCK_NAME) | TW_VIEW_BIT(TW_OID_DBLOCK_TUNABLE);
	v->npools = 1;

	tw_view_reserve_tunables(v, 2);
	v->tunables[0].index = 1;
	strcpy(v->tunables[0].name, "vm.dirty_ratio");
	strcpy(v->tunables[0].value, "20");
	v->tunables[1].index = 9;
	strcpy(v->tunables[1].name, "net.core.netdev_max_backlog");
	strcpy(v->tunables[1].value, "1000");
	v->ntunables = 2;
}

/* Every instance of small_view, in walk order. */
static const struct {
	uint32_t oid[6];
	size_t len;
} expected_walk[] = {
	{ { 1, 1, 0 }, 3 },
	{ { 1, 2, 0 }, 3 },
	{ { 1, 4, 0 }, 3 },
	{ { 2, 3, 0 }, 3 },
	{ { 3, 1, 3, 9, 2 }, 5 },
	{ { 3, 1, 10, 9, 2 }, 5 },
	{ { 4, 1, 3, 8, 0 }, 5 },
	{ { 4, 1, 3, 8, 16 }, 5 },
	{ { 4, 1, 14, 8, 0 }, 5 },
	{ { 5, 1, 2, 1 }, 4 },
	{ { 5, 1, 2, 9 }, 4 },
	{ { 5, 1, 3, 1 }, 4 },
	{ { 5, 1, 3, 9 }, 4 },
};

/* The order every walk and search relies on, and the fuzz target's oracle
 * too: element by element, a prefix first. */
START_TEST(test_oid_order)
{
	static const uint32_t a[] = { 4, 1, 14, 8, 0 }, b[] = { 4, 1, 14, 8, 16 };
	static const uint32_t big[] = { 4, 1, 14, UINT32_MAX };

	ck_assert_int_eq(tw_oid_cmp(a, 5, a, 5), 0);
	ck_assert_int_eq(tw_oid_cmp(a, 5, b, 5), -1);
	ck_assert_int_eq(tw_oid_cmp(b, 5, a, 5), 1);
	ck_assert_int_eq(tw_oid_cmp(a, 3, a, 5), -1);
	ck_assert_int_eq(tw_oid_cmp(a, 5, a, 3), 1);
	ck_assert_int_eq(tw_oid_cmp(a, 0, a, 0), 0);
	ck_assert_int_eq(tw_oid_cmp(a, 0, a, 1), -1);
	/* Unsigned: 2^32-1 is the largest sub-identifier, not -1. */
	ck_assert_int_eq(tw_oid_cmp(big, 4, a, 5), 1);
	ck_assert_int_eq(tw_oid_cmp(b, 4, big, 4), -1);
}
END_TEST

START_TEST(test_walk_order_and_values)
{
	struct tw_view v;
	uint32_t cur[TW_MV_OID_MAX], next[TW_MV_OID_MAX];
	size_t len = 0, nlen, i;
	struct tw_ber_value val;

	small_view(&v);
	for (i = 0; i < sizeof(expected_walk) / sizeof(expected_walk[0]); i++) {
		ck_assert_int_eq(tw_mv_next(&v, 1500, cur, len, 0, next, &nlen, &val),
		    TW_MV_FOUND);
		ck_assert_int_eq(tw_oid_cmp(next, nlen, expected_walk[i].oid, expected_walk[i].len), 0);
		oid_cpy(cur, &len, next, nlen);
	}
	ck_assert_int_eq(tw_mv_next(&v, 1500, cur, len, 0, next, &nlen, &val), TW_MV_END);

	/* Values on the way. */
	{
		const uint32_t age[] = { 1, 4, 0 }, lat[] = { 4, 1, 14, 8, 0 };
		const uint32_t big[] = { 2, 3, 0 }, tun[] = { 5, 1, 3, 9 };

		ck_assert_int_eq(tw_mv_get(&v, 1500, age, 3, &val), TW_MV_FOUND);
		ck_assert_int_eq(val.type, TW_BER_GAUGE32);
		ck_assert_uint_eq(val.num, 500);
		ck_assert_int_eq(tw_mv_get(&v, 1500, lat, 5, &val), TW_MV_FOUND);
		ck_assert_uint_eq(val.num, 2000);
		ck_assert_int_eq(tw_mv_get(&v, 1500, big, 3, &val), TW_MV_FOUND);
		ck_assert_int_eq(val.type, TW_BER_COUNTER64);
		ck_assert_uint_eq(val.num, UINT64_C(1) << 40);
		ck_assert_int_eq(tw_mv_get(&v, 1500, tun, 4, &val), TW_MV_FOUND);
		ck_assert_int_eq(val.type, TW_BER_OCTET_STRING);
		ck_assert_uint_eq(val.len, 4);
		ck_assert(memcmp(val.str, "1000", 4) == 0);
	}
	tw_view_free(&v);
}
END_TEST

START_TEST(test_get_errors)
{
	struct tw_view v;
	struct tw_ber_value val;
	const uint32_t absent_cell[] = { 4, 1, 14, 8, 16 };	/* sdb has no latency */
	const uint32_t absent_row[] = { 4, 1, 3, 8, 32 };
	const uint32_t index_col[] = { 4, 1, 1, 8, 0 };		/* not-accessible */
	const uint32_t no_column[] = { 4, 1, 99, 8, 0 };
	const uint32_t short_row[] = { 4, 1, 3, 8 };
	const uint32_t scalar_no_zero[] = { 1, 2, 1 };
	const uint32_t no_scalar[] = { 1, 99, 0 };
	const uint32_t absent_scalar[] = { 1, 3, 0 };		/* window not published */
	const uint32_t no_group[] = { 7, 1, 0 };

	small_view(&v);
	ck_assert_int_eq(tw_mv_get(&v, 0, absent_cell, 5, &val), TW_MV_NO_SUCH_INSTANCE);
	ck_assert_int_eq(tw_mv_get(&v, 0, absent_row, 5, &val), TW_MV_NO_SUCH_INSTANCE);
	ck_assert_int_eq(tw_mv_get(&v, 0, index_col, 5, &val), TW_MV_NO_SUCH_OBJECT);
	ck_assert_int_eq(tw_mv_get(&v, 0, no_column, 5, &val), TW_MV_NO_SUCH_OBJECT);
	ck_assert_int_eq(tw_mv_get(&v, 0, short_row, 4, &val), TW_MV_NO_SUCH_INSTANCE);
	ck_assert_int_eq(tw_mv_get(&v, 0, scalar_no_zero, 3, &val), TW_MV_NO_SUCH_INSTANCE);
	ck_assert_int_eq(tw_mv_get(&v, 0, no_scalar, 3, &val), TW_MV_NO_SUCH_OBJECT);
	ck_assert_int_eq(tw_mv_get(&v, 0, absent_scalar, 3, &val), TW_MV_NO_SUCH_INSTANCE);
	ck_assert_int_eq(tw_mv_get(&v, 0, no_group, 3, &val), TW_MV_NO_SUCH_OBJECT);
	ck_assert_int_eq(tw_mv_get(&v, 0, no_group, 1, &val), TW_MV_NO_SUCH_OBJECT);
	tw_view_free(&v);
}
END_TEST

START_TEST(test_next_from_odd_places)
{
	struct tw_view v;
	uint32_t next[TW_MV_OID_MAX];
	size_t nlen;
	struct tw_ber_value val;
	/* Between rows, into index columns, past a table, with inclusive. */
	const uint32_t mid_row[] = { 4, 1, 3, 8, 5 };
	const uint32_t index_col[] = { 4, 1, 2 };
	const uint32_t past_col[] = { 4, 1, 3, 9 };
	const uint32_t long_oid[] = { 4, 1, 14, 8, 0, 7, 7, 7 };
	const uint32_t exact[] = { 4, 1, 14, 8, 0 };
	const uint32_t after_all[] = { 6 };
	const uint32_t last_col_end[] = { 5, 1, 3, 9 };
	const uint32_t table_entry_2[] = { 4, 2 };

	small_view(&v);
	ck_assert_int_eq(tw_mv_next(&v, 0, mid_row, 5, 0, next, &nlen, &val), TW_MV_FOUND);
	ck_assert_uint_eq(next[4], 16);
	ck_assert_int_eq(tw_mv_next(&v, 0, index_col, 3, 0, next, &nlen, &val), TW_MV_FOUND);
	ck_assert_uint_eq(next[2], 3);
	ck_assert_uint_eq(next[4], 0);
	/* After sdb's name comes sda's latency (sdb has none). */
	ck_assert_int_eq(tw_mv_next(&v, 0, past_col, 4, 0, next, &nlen, &val), TW_MV_FOUND);
	ck_assert_uint_eq(next[2], 14);
	ck_assert_int_eq(tw_mv_next(&v, 0, long_oid, 8, 0, next, &nlen, &val), TW_MV_FOUND);
	ck_assert_uint_eq(next[0], 5);
	ck_assert_int_eq(tw_mv_next(&v, 0, exact, 5, 1, next, &nlen, &val), TW_MV_FOUND);
	ck_assert_int_eq(tw_oid_cmp(next, nlen, exact, 5), 0);
	ck_assert_int_eq(tw_mv_next(&v, 0, exact, 5, 0, next, &nlen, &val), TW_MV_FOUND);
	ck_assert_uint_eq(next[0], 5);
	ck_assert_int_eq(tw_mv_next(&v, 0, after_all, 1, 0, next, &nlen, &val), TW_MV_END);
	ck_assert_int_eq(tw_mv_next(&v, 0, last_col_end, 4, 0, next, &nlen, &val), TW_MV_END);
	ck_assert_int_eq(tw_mv_next(&v, 0, table_entry_2, 2, 0, next, &nlen, &val), TW_MV_FOUND);
	ck_assert_uint_eq(next[0], 5);
	tw_view_free(&v);
}
END_TEST

/* A table of 10,000 disks walks in order, every row once per column. */
START_TEST(test_large_table_walk)
{
	struct tw_view v;
	uint32_t cur[TW_MV_OID_MAX], next[TW_MV_OID_MAX];
	size_t len = 4, nlen, rows = 0, i;
	struct tw_ber_value val;
	const uint32_t start[] = { 4, 1, 3 };

	tw_view_init(&v);
	tw_view_reserve_disks(&v, 10000);
	for (i = 0; i < 10000; i++) {
		memset(&v.disks[i], 0, sizeof(v.disks[i]));
		v.disks[i].major = 8 + (uint32_t)(i / 1000);
		v.disks[i].minor = (uint32_t)(i % 1000) * 16;
		snprintf(v.disks[i].name, sizeof(v.disks[i].name), "d%zu", i);
		v.disks[i].has = TW_VIEW_BIT(TW_OID_DISK_NAME);
	}
	v.ndisks = 10000;
	oid_cpy(cur, &len, start, 3);
	while (tw_mv_next(&v, 0, cur, len, 0, next, &nlen, &val) == TW_MV_FOUND) {
		ck_assert_int_lt(tw_oid_cmp(cur, len, next, nlen), 0);
		ck_assert_uint_eq(next[2], 3);
		ck_assert_uint_eq(next[3], v.disks[rows].major);
		ck_assert_uint_eq(next[4], v.disks[rows].minor);
		oid_cpy(cur, &len, next, nlen);
		rows++;
		ck_assert_uint_le(rows, 10000);
	}
	ck_assert_uint_eq(rows, 10000);
	tw_view_free(&v);
}
END_TEST

static Suite *
mibview_suite(void)
{
	Suite *s = suite_create("mibview");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_oid_order);
	tcase_add_test(tc, test_walk_order_and_values);
	tcase_add_test(tc, test_get_errors);
	tcase_add_test(tc, test_next_from_odd_places);
	tcase_add_test(tc, test_large_table_walk);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(mibview_suite());
}
