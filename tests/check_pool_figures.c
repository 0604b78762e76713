/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/view/record_pool.c and the judgement of a pool class
 * (lib/finding/judge_pool.c): a twDblockTable row decoded into its
 * record, absent figures NAN and absent strings NULL, the CPU of a
 * per-CPU pool from its instance; the pools of a class summed and the
 * busiest picked; one class judged as check_dblock and the findings both
 * count it. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "finding/judge.h"
#include "tw_check.h"
#include "util/error.h"
#include "view/record_pool.h"
#include "view/view.h"

/* Pool i of v: class cls, instance, name and its failures in the window. */
static struct tw_view_pool *
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
	p->has = TW_VIEW_BIT(TW_OID_DBLOCK_NAME);
	TW_PUT_CELL(*p, TW_OID_DBLOCK_RECENT_FAILURES, failures);
	if (v->npools < i + 1)
		v->npools = i + 1;
	return p;
}

START_TEST(test_row_decoded)
{
	struct tw_view v;
	struct tw_view_pool *p;
	struct tw_pool_record f;

	tw_view_init(&v);
	p = set_pool(&v, 0, TW_DBLOCK_SOFTNET_BACKLOG, 3, "cpu3 backlog", 11);
	TW_PUT_CELL(*p, TW_OID_DBLOCK_IN_USE, 7);
	TW_PUT_CELL(*p, TW_OID_DBLOCK_LIMIT, 1000);
	TW_PUT_CELL(*p, TW_OID_DBLOCK_FREE, 993);
	p->has |= TW_VIEW_BIT(TW_OID_DBLOCK_TUNABLE) | TW_VIEW_BIT(TW_OID_DBLOCK_FAILURE_EVENT);
	strcpy(p->tunable, "net.core.netdev_max_backlog");
	strcpy(p->event, "packet dropped");
	tw_view_pool_record(p, &f);
	ck_assert_uint_eq(f.cls, TW_DBLOCK_SOFTNET_BACKLOG);
	ck_assert_uint_eq(f.instance, 3);
	/* The CPU is the instance of a per-CPU class, not read from the name. */
	ck_assert_int_eq(f.cpu, 3);
	ck_assert_ptr_eq(f.name, p->name);
	ck_assert_ptr_eq(f.tunable, p->tunable);
	ck_assert_ptr_eq(f.event, p->event);
	ck_assert_double_eq(f.in_use, 7);
	ck_assert_double_eq(f.limit, 1000);
	ck_assert_double_eq(f.free, 993);
	ck_assert_double_eq(f.recent_failures, 11);
	ck_assert(!tw_fig_has(f.size_bytes));
	ck_assert(!tw_fig_has(f.recent_pressure_ms));

	/* A per-host pool has no CPU; what the row lacks is absent. */
	p = set_pool(&v, 1, TW_DBLOCK_TCP_MEMORY, 0, "tcp memory", 0);
	p->has = 0;
	TW_PUT_CELL(*p, TW_OID_DBLOCK_SIZE, 4096);
	TW_PUT_CELL(*p, TW_OID_DBLOCK_RECENT_PRESSURE_TIME, 9800);
	tw_view_pool_record(p, &f);
	ck_assert_int_eq(f.cpu, -1);
	ck_assert_str_eq(f.name, "tcp memory");
	ck_assert_ptr_null(f.tunable);
	ck_assert_ptr_null(f.event);
	ck_assert_double_eq(f.size_bytes, 4096);
	ck_assert_double_eq(f.recent_pressure_ms, 9800);
	ck_assert(!tw_fig_has(f.recent_failures));
	ck_assert(!tw_fig_has(f.in_use));

	/* A class no row of the table has (a foreign agent's): no CPU. */
	p = set_pool(&v, 2, TW_DBLOCK_HIGH_ORDER + 1, 4, "other", 0);
	tw_view_pool_record(p, &f);
	ck_assert_int_eq(f.cpu, -1);
	tw_view_free(&v);
}
END_TEST

START_TEST(test_class_taken_together)
{
	struct tw_view v;
	struct tw_pool_class_record c;

	tw_view_init(&v);
	set_pool(&v, 0, TW_DBLOCK_SOFTNET_BACKLOG, 0, "cpu0 backlog", 5);
	set_pool(&v, 1, TW_DBLOCK_SOFTNET_BACKLOG, 1, "cpu1 backlog", 9);
	set_pool(&v, 2, TW_DBLOCK_SOFTNET_BACKLOG, 2, "cpu2 backlog", 9);
	set_pool(&v, 3, TW_DBLOCK_TCP_MEMORY, 0, "tcp memory", 2);
	TW_PUT_CELL(v.pools[3], TW_OID_DBLOCK_RECENT_PRESSURE_TIME, 9800);

	tw_view_pool_class_record(&v, TW_DBLOCK_SOFTNET_BACKLOG, &c);
	ck_assert_uint_eq(c.count, 3);
	ck_assert_double_eq(c.recent_failures, 23);
	ck_assert(!tw_fig_has(c.recent_pressure_ms));
	/* The busiest, the first of two tied. */
	ck_assert_int_eq(c.found, 1);
	ck_assert_uint_eq(c.busiest.instance, 1);
	ck_assert_int_eq(c.busiest.cpu, 1);

	tw_view_pool_class_record(&v, TW_DBLOCK_TCP_MEMORY, &c);
	ck_assert_uint_eq(c.count, 1);
	ck_assert_double_eq(c.recent_failures, 2);
	ck_assert_double_eq(c.recent_pressure_ms, 9800);

	/* No pool of the class, or none with the figure. */
	tw_view_pool_class_record(&v, TW_DBLOCK_UDP_MEMORY, &c);
	ck_assert_uint_eq(c.count, 0);
	ck_assert_int_eq(c.found, 0);
	ck_assert(!tw_fig_has(c.recent_failures));
	v.pools[3].has = 0;
	tw_view_pool_class_record(&v, TW_DBLOCK_TCP_MEMORY, &c);
	ck_assert_uint_eq(c.count, 1);
	ck_assert_int_eq(c.found, 0);
	ck_assert(!tw_fig_has(c.recent_failures));
	tw_view_free(&v);
}
END_TEST

struct seen {
	size_t n;
	uint32_t instance[8];
	int squeezed[8];
};

static void
collect(void *ctx, const struct tw_pool_judged *pj)
{
	struct seen *s = ctx;

	s->instance[s->n] = pj->rec->instance;
	s->squeezed[s->n++] = pj->squeezed;
}

static int
not_cpu2(void *ctx, const struct tw_pool_record *f)
{
	(void)ctx;
	return f->cpu != 2;
}

/* Five CPUs drop: the first four named, the worst one sizes the queue. */
START_TEST(test_class_judged)
{
	static const unsigned drops[] = { 3, 0, 8, 1, 2, 6 };
	struct tw_judge_config c;
	struct tw_pool_judgement j;
	struct tw_view v;
	struct seen s = { .n = 0 };
	size_t i;

	tw_judge_defaults(&c);
	tw_view_init(&v);
	for (i = 0; i < 6; i++) {
		char name[32];

		snprintf(name, sizeof(name), "cpu%zu backlog", i);
		set_pool(&v, i, TW_DBLOCK_SOFTNET_BACKLOG, (uint32_t)i, name, drops[i]);
	}
	tw_judge_pool_class(&c, &v, tw_pool_class_find(TW_DBLOCK_SOFTNET_BACKLOG), NULL,
	    collect, &s, &j);
	ck_assert_uint_eq(s.n, 6);
	ck_assert_uint_eq(j.judged, 6);
	ck_assert_uint_eq(j.failures, 20);
	ck_assert_uint_eq(j.counted, 20);
	ck_assert_int_eq(j.worst, TW_STATE_WARNING);
	ck_assert_uint_eq(j.failing, 5);
	ck_assert_uint_eq(j.failing_sum, 20);
	ck_assert_uint_eq(j.shortfall, 8);
	ck_assert_str_eq(j.who, "cpu0, cpu2, cpu3, cpu4 and others");

	/* Left out by the caller: neither judged nor named. */
	s.n = 0;
	tw_judge_pool_class(&c, &v, tw_pool_class_find(TW_DBLOCK_SOFTNET_BACKLOG), not_cpu2,
	    collect, &s, &j);
	ck_assert_uint_eq(s.n, 5);
	ck_assert_uint_eq(j.failing_sum, 12);
	ck_assert_uint_eq(j.shortfall, 6);
	ck_assert_str_eq(j.who, "cpu0, cpu3, cpu4, cpu5");
	tw_view_free(&v);
}
END_TEST

/* A budget that ran out on a CPU whose backlog dropped nothing is judged
 * but no failure; a per-host class is sized by all its failures. */
START_TEST(test_class_squeezed)
{
	struct tw_judge_config c;
	struct tw_pool_judgement j;
	struct tw_view v;
	struct seen s = { .n = 0 };

	tw_judge_defaults(&c);
	tw_view_init(&v);
	set_pool(&v, 0, TW_DBLOCK_SOFTNET_BACKLOG, 0, "cpu0 backlog", 0);
	set_pool(&v, 1, TW_DBLOCK_SOFTNET_BACKLOG, 1, "cpu1 backlog", 4);
	set_pool(&v, 2, TW_DBLOCK_SOFTNET_BUDGET, 0, "cpu0 budget", 1970);
	set_pool(&v, 3, TW_DBLOCK_SOFTNET_BUDGET, 1, "cpu1 budget", 30);
	set_pool(&v, 4, TW_DBLOCK_UDP_SNDBUF, 0, "udp send buffer", 17);
	tw_judge_pool_class(&c, &v, tw_pool_class_find(TW_DBLOCK_SOFTNET_BUDGET), NULL,
	    collect, &s, &j);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_int_eq(s.squeezed[0], 1);
	ck_assert_int_eq(s.squeezed[1], 0);
	ck_assert_uint_eq(j.judged, 2);
	ck_assert_uint_eq(j.failures, 2000);
	ck_assert_uint_eq(j.counted, 30);
	ck_assert_uint_eq(j.failing, 1);
	ck_assert_str_eq(j.who, "cpu1");

	tw_judge_pool_class(&c, &v, tw_pool_class_find(TW_DBLOCK_UDP_SNDBUF), NULL, NULL, NULL,
	    &j);
	ck_assert_uint_eq(j.shortfall, 17);
	ck_assert_str_eq(j.who, "");
	tw_view_free(&v);
}
END_TEST

static Suite *
pool_figures_suite(void)
{
	Suite *s = suite_create("pool_figures");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_row_decoded);
	tcase_add_test(tc, test_class_taken_together);
	tcase_add_test(tc, test_class_judged);
	tcase_add_test(tc, test_class_squeezed);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(pool_figures_suite());
}
