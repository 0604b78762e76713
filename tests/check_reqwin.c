/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/reqlat/reqwin.c: intervals of request histograms
 * from cumulative readings, wrapping counters, a window that slides, and
 * devices that come, go, and come back with a new slot. */
#include <linux/types.h>
#include <string.h>

#include "probe/histogram.h"
#include "reqlat/reqlat.h"
#include "tw_check.h"
#include "util/error.h"
#include "reqlat/reqwin.h"

static struct tw_reqlat_device devs[4];
static struct tw_reqlat_reading rd;

static void
reading(size_t n)
{
	rd.devs = devs;
	rd.count = n;
	rd.cap = 4;
}

static void
device(size_t i, uint32_t major, uint32_t minor, uint64_t gen)
{
	memset(&devs[i], 0, sizeof(devs[i]));
	devs[i].major = major;
	devs[i].minor = minor;
	devs[i].gen = gen;
}

/* count reads of us microseconds more on device i. */
static void
reads(size_t i, uint64_t us, uint32_t count)
{
	struct tw_reqlat_series *s = &devs[i].s[TW_REQLAT_READ][TW_REQLAT_SERVICE];

	s->bucket[tw_hist_bucket(us)] += count;
	s->sum_ns += (uint64_t)count * us * 1000;
	if (count > 0 && us * 1000 > s->max_ns)
		s->max_ns = us * 1000;
}

/* A new interval: the largest request is the interval's own. */
static void
next_interval(void)
{
	size_t i;

	for (i = 0; i < 4; i++)
		devs[i].s[TW_REQLAT_READ][TW_REQLAT_SERVICE].max_ns = 0;
}

static int
hist(const struct tw_reqwin *w, uint32_t major, uint32_t minor, struct tw_hist *h,
    uint64_t *ms, uint64_t *total)
{
	return tw_reqwin_hist(w, major, minor, TW_REQLAT_READ, TW_REQLAT_SERVICE, h, ms, total);
}

START_TEST(test_intervals)
{
	struct tw_reqwin w;
	struct tw_hist h;
	uint64_t ms, total, p;

	ck_assert_int_eq(tw_reqwin_init(&w, 3), TW_OK);
	device(0, 7, 0, 1);
	reads(0, 100, 50);	/* before the base: not in the window */
	reading(1);
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 1000), TW_OK);
	/* A base alone: no interval, no figures. */
	ck_assert_int_eq(hist(&w, 7, 0, &h, &ms, &total), 0);
	next_interval();
	reads(0, 100, 90);
	reads(0, 2000, 10);
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 6000), TW_OK);
	ck_assert_int_eq(hist(&w, 7, 0, &h, &ms, &total), 1);
	ck_assert_uint_eq(h.count, 100);
	ck_assert_uint_eq(ms, 5000);
	ck_assert_uint_eq(total, 100);
	ck_assert_uint_eq(h.max_us, 2000);
	ck_assert_uint_eq(h.sum_us, 90 * 100 + 10 * 2000);
	ck_assert_int_eq(tw_hist_percentile(&h, 50, &p), 1);
	ck_assert_uint_le(p > 100 ? p - 100 : 100 - p, 100 / 32);
	ck_assert_int_eq(tw_hist_percentile(&h, 90, &p), 1);
	ck_assert_uint_le(p > 100 ? p - 100 : 100 - p, 100 / 32);
	ck_assert_int_eq(tw_hist_percentile(&h, 99, &p), 1);
	ck_assert_uint_le(p > 2000 ? p - 2000 : 2000 - p, 2000 / 32);
	/* Writes and queue times of the device: present, empty. */
	ck_assert_int_eq(tw_reqwin_hist(&w, 7, 0, TW_REQLAT_WRITE, TW_REQLAT_SERVICE, &h, &ms,
	    &total), 1);
	ck_assert_uint_eq(h.count, 0);
	ck_assert_int_eq(tw_reqwin_hist(&w, 7, 0, TW_REQLAT_READ, 7, &h, &ms, &total), 0);
	/* Times must go forward. */
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 6000), TW_E_INVAL);
	tw_reqwin_free(&w);
}
END_TEST

/* The window keeps its last 3 intervals: the fourth pushes the first
 * out. */
START_TEST(test_window_slides)
{
	struct tw_reqwin w;
	struct tw_hist h;
	uint64_t ms, total;
	int k;

	ck_assert_int_eq(tw_reqwin_init(&w, 3), TW_OK);
	device(0, 7, 0, 1);
	reading(1);
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 1000), TW_OK);
	for (k = 1; k <= 4; k++) {
		next_interval();
		reads(0, 10 * (uint64_t)k, (uint32_t)k);
		ck_assert_int_eq(tw_reqwin_push(&w, &rd, 1000 + 1000 * (uint64_t)k), TW_OK);
	}
	ck_assert_int_eq(hist(&w, 7, 0, &h, &ms, &total), 1);
	ck_assert_uint_eq(h.count, 2 + 3 + 4);
	ck_assert_uint_eq(ms, 3000);
	ck_assert_uint_eq(total, 1 + 2 + 3 + 4);
	ck_assert_uint_eq(h.bucket[tw_hist_bucket(10)], 0);
	ck_assert_uint_eq(h.bucket[tw_hist_bucket(40)], 4);
	/* The largest of the window is the newest interval's 40 us. */
	ck_assert_uint_eq(h.max_us, 40);
	ck_assert_uint_eq(h.min_us, 20);
	tw_reqwin_free(&w);
}
END_TEST

/* A bucket's counter wraps at 2^32 within an interval: the increase is
 * still right. */
START_TEST(test_wrap)
{
	struct tw_reqwin w;
	struct tw_hist h;
	uint64_t ms, total;
	unsigned b = tw_hist_bucket(300);

	ck_assert_int_eq(tw_reqwin_init(&w, 2), TW_OK);
	device(0, 8, 16, 1);
	devs[0].s[TW_REQLAT_READ][TW_REQLAT_SERVICE].bucket[b] = UINT32_MAX - 5;
	reading(1);
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 10), TW_OK);
	devs[0].s[TW_REQLAT_READ][TW_REQLAT_SERVICE].bucket[b] += 20;	/* wraps to 14 */
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 20), TW_OK);
	ck_assert_int_eq(hist(&w, 8, 16, &h, &ms, &total), 1);
	ck_assert_uint_eq(h.bucket[b], 20);
	ck_assert_uint_eq(h.count, 20);
	/* Its largest request was missed (the program's epoch turned as it
	 * counted): the bucket bounds it. */
	ck_assert_uint_eq(h.max_us, 288);
	tw_reqwin_free(&w);
}
END_TEST

/* Devices come and go: one that leaves the reading leaves the window; one
 * back with the same slot number starts from a base again; one whose slot
 * number changed between two readings starts afresh. */
START_TEST(test_devices_come_and_go)
{
	struct tw_reqwin w;
	struct tw_hist h;
	uint64_t ms, total;

	ck_assert_int_eq(tw_reqwin_init(&w, 4), TW_OK);
	device(0, 7, 0, 1);
	device(1, 8, 0, 2);
	reading(2);
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 1000), TW_OK);
	reads(0, 50, 10);
	reads(1, 60, 10);
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 2000), TW_OK);
	ck_assert_int_eq(hist(&w, 7, 0, &h, &ms, &total), 1);
	ck_assert_int_eq(hist(&w, 8, 0, &h, &ms, &total), 1);
	ck_assert_uint_eq(h.count, 10);
	/* 7:0 leaves. */
	devs[0] = devs[1];
	reading(1);
	reads(0, 60, 5);
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 3000), TW_OK);
	ck_assert_int_eq(hist(&w, 7, 0, &h, &ms, &total), 0);
	ck_assert_uint_eq(total, 0);
	ck_assert_int_eq(hist(&w, 8, 0, &h, &ms, &total), 1);
	ck_assert_uint_eq(h.count, 15);
	/* 7:0 is back, with a slot (number 3): a base, no figures yet. */
	devs[1] = devs[0];
	device(0, 7, 0, 3);
	reads(0, 900, 1000);
	reading(2);
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 4000), TW_OK);
	ck_assert_int_eq(hist(&w, 7, 0, &h, &ms, &total), 0);
	reads(0, 900, 4);
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 5000), TW_OK);
	ck_assert_int_eq(hist(&w, 7, 0, &h, &ms, &total), 1);
	ck_assert_uint_eq(h.count, 4);
	/* 8:0 loses its slot and gets another between two samples: counters
	 * from 0 again, which must not read as a wrap. */
	device(1, 8, 0, 9);
	reads(1, 70, 3);
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 6000), TW_OK);
	ck_assert_int_eq(hist(&w, 8, 0, &h, &ms, &total), 0);
	ck_assert_uint_eq(tw_reqwin_memory(&w) > sizeof(w), 1);
	/* Unsorted: refused, nothing changes. */
	devs[2] = devs[0];
	devs[0] = devs[1];
	devs[1] = devs[2];
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 7000), TW_E_INVAL);
	ck_assert_int_eq(hist(&w, 7, 0, &h, &ms, &total), 1);
	/* The source stopped timing: an empty reading empties the window. */
	reading(0);
	ck_assert_int_eq(tw_reqwin_push(&w, &rd, 8000), TW_OK);
	ck_assert_int_eq(hist(&w, 7, 0, &h, &ms, &total), 0);
	ck_assert_uint_eq(w.count, 0);
	tw_reqwin_free(&w);
	ck_assert_int_eq(tw_reqwin_init(&w, 0), TW_E_INVAL);
}
END_TEST

static Suite *
reqwin_suite(void)
{
	Suite *s = suite_create("reqwin");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_intervals);
	tcase_add_test(tc, test_window_slides);
	tcase_add_test(tc, test_wrap);
	tcase_add_test(tc, test_devices_come_and_go);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(reqwin_suite());
}
