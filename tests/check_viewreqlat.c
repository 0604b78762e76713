/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/view/viewreqlat.c and the two tables in the MIB
 * view: rows only for the view's disks, absent percentiles below their
 * counts, the histogram ladder trimmed to the distribution and walked in
 * order with its four-part index, and the source's state when it does not
 * time. */
#include <linux/types.h>
#include <string.h>

#include "probe/histogram.h"
#include "reqlat/reqlat.h"
#include "tw_check.h"
#include "util/error.h"
#include "view/record_reqlat.h"
#include "view/mibview.h"
#include "view/view.h"
#include "reqlat/reqwin.h"
#include "view/build_priv.h"
#include "sample/pools.h"
#include "tw_sample_fixture.h"
#include "window/window.h"

static struct tw_reqlat_device devs[2];
static struct tw_reqlat_reading rd = { devs, 0, 2, 0, 7 };
static struct tw_reqwin rw;
static struct tw_view v;

/* The twAgent scalars a whole build gives with the request-latency
 * source in this state, in a view of their own (a sample of no disks). */
static void
build_agent(struct tw_view *va, const char *state, const char *reason, int timing)
{
	static const struct tw_view_settings settings = { "0.1.0", "Linux test", 5, 60 };
	struct tw_window w;
	struct tw_sample s;
	struct tw_pool_set pools;

	tw_sample_init(&s);
	tw_pool_set_init(&pools);
	tw_view_init(va);
	ck_assert_int_eq(tw_window_init(&w, 12), TW_OK);
	fx_sample_disks(&s, 1000, NULL, 0);
	ck_assert_int_eq(tw_window_push(&w, &s, &pools), TW_OK);
	ck_assert_int_eq(tw_view_build(va, &(struct tw_view_sources){ .settings = &settings,
	    .window = &w, .sample = &s, .pools = &pools, .reqwin = &rw, .reqlat_state = state,
	    .reqlat_reason = reason, .reqlat_timing = timing }), TW_OK);
	tw_window_free(&w);
	tw_pool_set_free(&pools);
	tw_sample_free(&s);
}

static void
add_disk(uint32_t major, uint32_t minor, const char *name)
{
	struct tw_view_disk *d;

	ck_assert_int_eq(tw_view_reserve_disks(&v, v.ndisks + 1), TW_OK);
	d = &v.disks[v.ndisks++];
	memset(d, 0, sizeof(*d));
	d->major = major;
	d->minor = minor;
	snprintf(d->name, sizeof(d->name), "%s", name);
}

static void
count(size_t i, unsigned dir, unsigned kind, uint64_t us, uint32_t n)
{
	struct tw_reqlat_series *s = &devs[i].s[dir][kind];

	s->bucket[tw_hist_bucket(us)] += n;
	s->sum_ns += (uint64_t)n * us * 1000;
	if (us * 1000 > s->max_ns)
		s->max_ns = us * 1000;
}

/* Two timed devices, 7:0 and 8:0; the view shows 7:0 and 9:0 only. 7:0
 * read 100 requests of 100 us and 5 of 3000 us, and wrote one of 400 us;
 * 20 of its reads waited 50 us in a scheduler. */
static void
setup(void)
{
	memset(devs, 0, sizeof(devs));
	devs[0].major = 7;
	devs[0].gen = 1;
	devs[1].major = 8;
	devs[1].gen = 2;
	rd.count = 2;
	tw_view_init(&v);
	ck_assert_int_eq(tw_reqwin_init(&rw, 10), TW_OK);
	ck_assert_int_eq(tw_reqwin_push(&rw, &rd, 1000), TW_OK);
	count(0, TW_REQLAT_READ, TW_REQLAT_SERVICE, 100, 100);
	count(0, TW_REQLAT_READ, TW_REQLAT_SERVICE, 3000, 5);
	count(0, TW_REQLAT_WRITE, TW_REQLAT_SERVICE, 400, 1);
	count(0, TW_REQLAT_READ, TW_REQLAT_QUEUE, 50, 20);
	count(1, TW_REQLAT_READ, TW_REQLAT_SERVICE, 100, 100);
	ck_assert_int_eq(tw_reqwin_push(&rw, &rd, 3000), TW_OK);
	add_disk(7, 0, "loop0");
	add_disk(9, 0, "md0");
}

static void
teardown(void)
{
	tw_view_free(&v);
	tw_reqwin_free(&rw);
}

START_TEST(test_rows_follow_the_disks)
{
	const struct tw_view_reqlat *r, *w;
	struct tw_reqlat_record rf, wf;

	ck_assert_int_eq(tw_view_build_reqlat(&v, &rw, 1), TW_OK);
	/* 8:0 is timed but not in the view; 9:0 in the view but not timed. */
	ck_assert_uint_eq(v.nreqlats, 2);
	r = &v.reqlats[0];
	w = &v.reqlats[1];
	ck_assert_uint_eq(r->major, 7);
	ck_assert_uint_eq(r->dir, TW_REQLAT_DIR_READ);
	ck_assert_uint_eq(w->dir, TW_REQLAT_DIR_WRITE);
	ck_assert_str_eq(r->device, "loop0");
	tw_view_reqlat_record(r, &rf);
	tw_view_reqlat_record(w, &wf);
	ck_assert_double_eq(rf.requests, 105);
	ck_assert_double_eq(rf.window_ms, 2000);
	ck_assert_double_eq(rf.total, 105);
	/* Milliseconds, from the MIB's microseconds. */
	ck_assert_double_eq_tol(rf.p50_ms, 0.1, 0.1 / 32);
	ck_assert_double_eq_tol(rf.p90_ms, 0.1, 0.1 / 32);
	ck_assert_double_eq_tol(rf.p99_ms, 3.0, 3.0 / 32);
	ck_assert_double_eq(rf.max_ms, 3.0);
	ck_assert_double_eq_tol(rf.mean_ms, (100 * 0.1 + 5 * 3.0) / 105, 0.001);
	ck_assert_double_eq(rf.queued, 20);
	ck_assert_double_eq_tol(rf.queue_p50_ms, 0.05, 0.05 / 32);
	/* 20 queued requests: no p99 of them. */
	ck_assert(!tw_view_has(r, TW_OID_REQLAT_QUEUE_P99));
	/* One write: its max and mean, no percentile (the median needs 2). */
	ck_assert_double_eq(wf.requests, 1);
	ck_assert_double_eq(wf.max_ms, 0.4);
	ck_assert(!tw_view_has(w, TW_OID_REQLAT_P50));
	ck_assert(!tw_view_has(w, TW_OID_REQLAT_QUEUE_MAX));
	{
		struct tw_view va;

		build_agent(&va, "timing", "", 1);
		ck_assert_str_eq(va.agent.reqlat_state, "timing");
		ck_assert_uint_eq(va.agent.col[TW_OID_AGENT_REQLAT_LOST], 7);
		tw_view_free(&va);
	}
	/* 7:0 leaves the view: its rows go with it. */
	v.ndisks = 1;
	v.disks[0].major = 9;
	ck_assert_int_eq(tw_view_build_reqlat(&v, &rw, 1), TW_OK);
	ck_assert_uint_eq(v.nreqlats, 0);
	ck_assert_uint_eq(v.nreqhists, 0);
}
END_TEST

/* The ladder: 1, 2, 4, 8, 16, then four an octave, each a bucket's upper
 * edge, and +Inf; the rows of a distribution run from the last bound
 * below it to the first above it. */
START_TEST(test_histogram_ladder)
{
	const uint32_t *b;
	size_t n, i;
	uint64_t lo, hi;

	b = tw_view_reqhist_bounds(&n);
	ck_assert_uint_eq(n, 94);
	ck_assert_uint_eq(b[0], 1);
	ck_assert_uint_eq(b[4], 16);
	ck_assert_uint_eq(b[5], 20);
	ck_assert_uint_eq(b[9], 40);
	ck_assert_uint_eq(b[n - 2], UINT32_C(1) << 26);
	ck_assert_uint_eq(b[n - 1], TW_REQHIST_INF);
	for (i = 0; i + 1 < n; i++) {
		ck_assert_uint_lt(b[i], b[i + 1]);
		/* An upper edge: the bucket below the bound ends just before it. */
		tw_hist_bucket_range(tw_hist_bucket(b[i] - 1), &lo, &hi);
		ck_assert_uint_eq(hi + 1, b[i]);
	}
	ck_assert_int_eq(tw_view_build_reqlat(&v, &rw, 1), TW_OK);
	/* 7:0's reads: 100 us is in [96, 103], 3000 in [2944, 3071]: from 96
	 * (none below) to 3072 (all), and +Inf. */
	ck_assert_uint_eq(v.reqhists[0].bound, 96);
	ck_assert_uint_eq(v.reqhists[0].col[TW_OID_REQHIST_COUNT], 0);
	ck_assert_uint_eq(v.reqhists[1].bound, 112);
	ck_assert_uint_eq(v.reqhists[1].col[TW_OID_REQHIST_COUNT], 100);
	for (i = 0; v.reqhists[i].dir == TW_REQLAT_DIR_READ; i++)
		ck_assert_uint_le(v.reqhists[i].col[TW_OID_REQHIST_COUNT], 105);
	ck_assert_uint_eq(v.reqhists[i - 2].bound, 3072);
	ck_assert_uint_eq(v.reqhists[i - 2].col[TW_OID_REQHIST_COUNT], 105);
	ck_assert_uint_eq(v.reqhists[i - 1].bound, TW_REQHIST_INF);
	ck_assert_uint_eq(v.reqhists[i - 1].col[TW_OID_REQHIST_COUNT], 105);
	/* The write: 400 us in [384, 415], so 384, 448 and +Inf. */
	ck_assert_uint_eq(v.nreqhists - i, 3);
	ck_assert_uint_eq(v.reqhists[i].bound, 384);
	ck_assert_uint_eq(v.reqhists[i + 1].bound, 448);
	ck_assert_uint_eq(v.reqhists[i + 1].col[TW_OID_REQHIST_COUNT], 1);
}
END_TEST

/* Walked with GETNEXT, both tables come in index order, the histogram
 * with four index arcs, and a GET finds a row by its whole index. */
START_TEST(test_walk)
{
	uint32_t cur[TW_MV_OID_MAX] = { TW_OID_REQHIST_TABLE }, next[TW_MV_OID_MAX];
	uint32_t get[] = { TW_OID_REQLAT_TABLE, 1, TW_OID_REQLAT_P99, 7, 0, 1 };
	uint32_t bad[] = { TW_OID_REQLAT_TABLE, 1, TW_OID_REQLAT_P99, 7, 0, 3 };
	uint32_t prev[4] = { 0, 0, 0, 0 };
	size_t len = 1, nlen, rows = 0;
	struct tw_ber_value val;

	ck_assert_int_eq(tw_view_build_reqlat(&v, &rw, 1), TW_OK);
	ck_assert_int_eq(tw_mv_get(&v, 0, get, 6, &val), TW_MV_FOUND);
	ck_assert_int_eq(val.type, TW_BER_GAUGE32);
	ck_assert_uint_le(val.num > 3000 ? val.num - 3000 : 3000 - val.num, 3000 / 32);
	ck_assert_int_eq(tw_mv_get(&v, 0, bad, 6, &val), TW_MV_NO_SUCH_INSTANCE);
	while (tw_mv_next(&v, 0, cur, len, 0, next, &nlen, &val) == TW_MV_FOUND &&
	    next[0] == TW_OID_REQHIST_TABLE) {
		ck_assert_uint_eq(nlen, 3 + 4);
		ck_assert_uint_eq(next[2], TW_OID_REQHIST_COUNT);
		ck_assert_int_gt(tw_oid_cmp(next + 3, 4, prev, 4), 0);
		memcpy(prev, next + 3, sizeof(prev));
		memcpy(cur, next, nlen * sizeof(*next));
		len = nlen;
		rows++;
	}
	ck_assert_uint_eq(rows, v.nreqhists);
}
END_TEST

/* Not timing: the state and its reason, no rows, no lost count. */
START_TEST(test_not_timing)
{
	struct tw_view va;

	ck_assert_int_eq(tw_view_build_reqlat(&v, &rw, 0), TW_OK);
	ck_assert_uint_eq(v.nreqlats, 0);
	build_agent(&va, "no-btf", "no kernel BTF", 0);
	ck_assert_uint_eq(va.nreqlats, 0);
	ck_assert_str_eq(va.agent.reqlat_state, "no-btf");
	ck_assert_str_eq(va.agent.reqlat_reason, "no kernel BTF");
	ck_assert(tw_view_has(&va.agent, TW_OID_AGENT_REQLAT_STATE));
	ck_assert(!tw_view_has(&va.agent, TW_OID_AGENT_REQLAT_LOST));
	tw_view_free(&va);
}
END_TEST

static Suite *
viewreqlat_suite(void)
{
	Suite *s = suite_create("viewreqlat");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_rows_follow_the_disks);
	tcase_add_test(tc, test_histogram_ladder);
	tcase_add_test(tc, test_walk);
	tcase_add_test(tc, test_not_timing);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(viewreqlat_suite());
}
