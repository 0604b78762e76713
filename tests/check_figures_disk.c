/* SPDX-License-Identifier: ISC */
/* Unit tests for the records of disks, probes and request latency
 * (lib/figures/): each view row decoded into its record by
 * lib/view/record_*.c, in natural units, with absences as NAN, -1 and NULL. */
#include "config.h"

#include <stdint.h>

#include "tw_check.h"
#include "view/record_disk.h"
#include "view/record_probe.h"
#include "view/record_reqlat.h"
#include "view/view.h"

#define NEAR(a, b) ck_assert_msg((a) > (b) - 1e-9 && (a) < (b) + 1e-9, "%g != %g", (a), (b))

START_TEST(test_fig_has)
{
	ck_assert_int_eq(tw_fig_has(TW_FIG_NONE), 0);
	ck_assert_int_eq(tw_fig_has(0.0), 1);
}
END_TEST

START_TEST(test_disk)
{
	struct tw_view_disk d;
	struct tw_disk_record f;

	memset(&d, 0, sizeof(d));
	d.major = 8;
	d.minor = 16;
	strcpy(d.name, "sdb");
	strcpy(d.alias, "vg0-root");
	strcpy(d.scheduler, "mq-deadline");
	d.has = TW_VIEW_BIT(TW_OID_DISK_NAME) | TW_VIEW_BIT(TW_OID_DISK_ALIAS) |
	    TW_VIEW_BIT(TW_OID_DISK_SCHEDULER);
	TW_PUT_CELL(d, TW_OID_DISK_READ_LATENCY, 12500);	/* microseconds */
	TW_PUT_CELL(d, TW_OID_DISK_READ_OPS, 15050);		/* hundredths */
	TW_PUT_CELL(d, TW_OID_DISK_READ_RATE, 1048576);
	TW_PUT_CELL(d, TW_OID_DISK_QUEUE_DEPTH, 250);
	TW_PUT_CELL(d, TW_OID_DISK_NR_REQUESTS, 64);
	TW_PUT_CELL(d, TW_OID_DISK_WBT_LATENCY, (uint64_t)(int64_t)-1);
	TW_PUT_CELL(d, TW_OID_DISK_ROTATIONAL, 2);		/* TruthValue false */
	tw_view_disk_record(&d, &f);
	ck_assert_uint_eq(f.major, 8);
	ck_assert_uint_eq(f.minor, 16);
	ck_assert_str_eq(f.name, "sdb");
	ck_assert_str_eq(f.alias, "vg0-root");
	ck_assert_str_eq(f.scheduler, "mq-deadline");
	NEAR(f.r_await_ms, 12.5);
	NEAR(f.read_ops_s, 150.5);
	NEAR(f.read_bytes_s, 1048576.0);
	NEAR(f.queue_depth, 2.5);
	ck_assert_int_eq(f.nr_requests, 64);
	/* The kernel's default is a value, not an absence. */
	NEAR(f.wbt_lat_us, -1.0);
	ck_assert_int_eq(f.rotational, 0);
	/* Absent: NAN, -1, NULL. */
	ck_assert(!tw_fig_has(f.w_await_ms));
	ck_assert(!tw_fig_has(f.write_ops_s));
	ck_assert(!tw_fig_has(f.util_pct));
	ck_assert_int_eq(f.read_ahead_kb, -1);
	ck_assert_ptr_null(f.stable_id);
	ck_assert_ptr_null(f.type);
	d.col[TW_OID_DISK_ROTATIONAL] = 1;
	d.has &= ~(TW_VIEW_BIT(TW_OID_DISK_WBT_LATENCY) | TW_VIEW_BIT(TW_OID_DISK_SCHEDULER));
	tw_view_disk_record(&d, &f);
	ck_assert_int_eq(f.rotational, 1);
	ck_assert(!tw_fig_has(f.wbt_lat_us));
	ck_assert_ptr_null(f.scheduler);
	d.has &= ~TW_VIEW_BIT(TW_OID_DISK_ROTATIONAL);
	tw_view_disk_record(&d, &f);
	ck_assert_int_eq(f.rotational, -1);
}
END_TEST

/* The load is the record's figures of the same names, absences alike. */
START_TEST(test_disk_load)
{
	struct tw_view_disk d;
	struct tw_disk_record f;
	struct tw_disk_load l;

	memset(&d, 0, sizeof(d));
	strcpy(d.name, "sdc");
	d.has = TW_VIEW_BIT(TW_OID_DISK_NAME);
	TW_PUT_CELL(d, TW_OID_DISK_READ_OPS, 15050);		/* hundredths */
	TW_PUT_CELL(d, TW_OID_DISK_READ_RATE, 1048576);
	TW_PUT_CELL(d, TW_OID_DISK_WRITE_RATE, 4096);
	TW_PUT_CELL(d, TW_OID_DISK_READ_AHEAD_KB, 128);
	tw_view_disk_load(&d, &l);
	tw_view_disk_record(&d, &f);
	NEAR(l.read_ops_s, 150.5);
	NEAR(l.read_bytes_s, 1048576.0);
	NEAR(l.write_bytes_s, 4096.0);
	ck_assert_int_eq(l.read_ahead_kb, 128);
	ck_assert(!tw_fig_has(l.util_pct));
	NEAR(l.read_ops_s, f.read_ops_s);
	NEAR(l.write_bytes_s, f.write_bytes_s);
	ck_assert_int_eq(l.read_ahead_kb, f.read_ahead_kb);
	TW_PUT_CELL(d, TW_OID_DISK_UTIL, 4250);			/* hundredths */
	d.has &= ~(TW_VIEW_BIT(TW_OID_DISK_READ_AHEAD_KB) | TW_VIEW_BIT(TW_OID_DISK_WRITE_RATE));
	tw_view_disk_load(&d, &l);
	tw_view_disk_record(&d, &f);
	NEAR(l.util_pct, f.util_pct);
	ck_assert(tw_fig_has(l.util_pct));
	ck_assert(!tw_fig_has(l.write_bytes_s));
	ck_assert_int_eq(l.read_ahead_kb, -1);
}
END_TEST

/* What a disk is judged on is its whole record's figures of the same
 * names, absences alike; nothing else is decoded. */
START_TEST(test_disk_judged)
{
	struct tw_view_disk d;
	struct tw_disk_record f, whole;

	memset(&d, 0, sizeof(d));
	d.major = 8;
	d.minor = 32;
	strcpy(d.name, "sdc");
	d.has = TW_VIEW_BIT(TW_OID_DISK_NAME);
	TW_PUT_CELL(d, TW_OID_DISK_READ_OPS, 15050);		/* hundredths */
	TW_PUT_CELL(d, TW_OID_DISK_WRITE_OPS, 200);
	TW_PUT_CELL(d, TW_OID_DISK_READ_LATENCY, 12500);		/* microseconds */
	TW_PUT_CELL(d, TW_OID_DISK_QUEUE_DEPTH, 310);		/* hundredths */
	TW_PUT_CELL(d, TW_OID_DISK_UTIL, 9900);
	TW_PUT_CELL(d, TW_OID_DISK_READ_RATE, 1048576);
	TW_PUT_CELL(d, TW_OID_DISK_READ_AHEAD_KB, 128);
	tw_view_disk_judged(&d, &f);
	tw_view_disk_record(&d, &whole);
	ck_assert_uint_eq(f.major, 8);
	ck_assert_uint_eq(f.minor, 32);
	ck_assert_str_eq(f.name, "sdc");
	NEAR(f.read_ops_s, whole.read_ops_s);
	NEAR(f.write_ops_s, whole.write_ops_s);
	NEAR(f.r_await_ms, 12.5);
	NEAR(f.r_await_ms, whole.r_await_ms);
	NEAR(f.queue_depth, whole.queue_depth);
	NEAR(f.util_pct, whole.util_pct);
	ck_assert(!tw_fig_has(f.w_await_ms));
	ck_assert(!tw_fig_has(whole.w_await_ms));
	/* Not judged, so not decoded. */
	ck_assert(!tw_fig_has(f.read_bytes_s));
	ck_assert_int_eq(f.read_ahead_kb, -1);
	ck_assert_int_eq(whole.read_ahead_kb, 128);
}
END_TEST

START_TEST(test_probe)
{
	struct tw_view_probe pr;
	struct tw_probe_record f;

	memset(&pr, 0, sizeof(pr));
	pr.major = 8;
	strcpy(pr.device, "sda");
	strcpy(pr.state, "probing");
	TW_PUT_CELL(pr, TW_OID_PROBE_P50, 400);	/* microseconds */
	TW_PUT_CELL(pr, TW_OID_PROBE_P90, 1250);
	TW_PUT_CELL(pr, TW_OID_PROBE_COUNT, 600);
	TW_PUT_CELL(pr, TW_OID_PROBE_WINDOW, 60000);
	tw_view_probe_record(&pr, &f);
	ck_assert_str_eq(f.device, "sda");
	ck_assert_str_eq(f.state, "probing");
	ck_assert_str_eq(f.reason, "");
	NEAR(f.p50_ms, 0.4);
	NEAR(tw_probe_record_percentile(&f, 90), 1.25);
	NEAR(f.reads, 600.0);
	NEAR(f.window_ms, 60000.0);
	ck_assert(!tw_fig_has(tw_probe_record_percentile(&f, 99)));
	ck_assert(!tw_fig_has(f.timeouts));
}
END_TEST

START_TEST(test_reqlat)
{
	struct tw_view_reqlat r;
	struct tw_reqlat_record f;

	memset(&r, 0, sizeof(r));
	r.major = 259;
	r.dir = TW_REQLAT_DIR_WRITE;
	strcpy(r.device, "nvme0n1");
	TW_PUT_CELL(r, TW_OID_REQLAT_P50, 80);	/* microseconds */
	TW_PUT_CELL(r, TW_OID_REQLAT_P99, 2300);
	TW_PUT_CELL(r, TW_OID_REQLAT_COUNT, 5000);
	TW_PUT_CELL(r, TW_OID_REQLAT_QUEUE_P50, 10);
	tw_view_reqlat_record(&r, &f);
	ck_assert_uint_eq(f.major, 259);
	ck_assert_uint_eq(f.dir, TW_REQLAT_DIR_WRITE);
	ck_assert_str_eq(f.device, "nvme0n1");
	NEAR(f.p50_ms, 0.08);
	NEAR(tw_reqlat_record_percentile(&f, 99), 2.3);
	NEAR(f.requests, 5000.0);
	NEAR(f.queue_p50_ms, 0.01);
	ck_assert(!tw_fig_has(tw_reqlat_record_percentile(&f, 90)));
	ck_assert(!tw_fig_has(f.max_ms));
	ck_assert(!tw_fig_has(f.queue_p99_ms));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("figures_disk");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fig_has);
	tcase_add_test(tc, test_disk);
	tcase_add_test(tc, test_disk_load);
	tcase_add_test(tc, test_disk_judged);
	tcase_add_test(tc, test_probe);
	tcase_add_test(tc, test_reqlat);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
