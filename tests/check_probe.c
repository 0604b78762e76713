/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for the probe's parts that need no device: its tunewatchd.conf
 * lines (lib/probe/probeconf.c), the sysfs files it watches and the names
 * it resolves (probedev.c) on a sys tree made here, a probe on something
 * that is not a block device, the reading threads (probereader.c: their
 * phases, a thread started, woken and stopped, a thread refused), the
 * probe set on a device whose node is not there, and twProbeTable in the
 * view (view/viewprobe.c): absent percentiles, microseconds on the wire,
 * milliseconds to the checks. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/probe.h"
#include "probe/probeconf.h"
#include "probe/probereader.h"
#include "probe/probedev.h"
#include "probe/probeset.h"
#include "tw_check.h"
#include "util/error.h"
#include "view/build.h"
#include "view/record_probe.h"
#include "view/view.h"

/* pthread_create, refused with EAGAIN while refuse_threads is set. */
static int refuse_threads;
int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *),
    void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *),
    void *arg);

int
__wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg)
{
	if (refuse_threads)
		return EAGAIN;
	return __real_pthread_create(t, a, f, arg);
}

START_TEST(test_probe_lines)
{
	struct tw_probe_spec s;
	char err[160];

	ck_assert_int_eq(tw_probeconf_parse("sdb", &s, err, sizeof(err)), TW_OK);
	ck_assert_str_eq(s.device, "sdb");
	ck_assert_uint_eq(s.rate, 1);
	ck_assert_int_eq(tw_probeconf_parse("  /dev/disk/by-id/wwn-0x5000c500a1b2c3d4\t10 ", &s,
	    err, sizeof(err)), TW_OK);
	ck_assert_str_eq(s.device, "/dev/disk/by-id/wwn-0x5000c500a1b2c3d4");
	ck_assert_uint_eq(s.rate, 10);
	ck_assert_int_eq(tw_probeconf_parse("", &s, err, sizeof(err)), TW_E_INVAL);
	ck_assert_str_eq(err, "probe wants a device: probe DEVICE [RATE]");
	ck_assert_int_eq(tw_probeconf_parse("sdb 11", &s, err, sizeof(err)), TW_E_INVAL);
	ck_assert_str_eq(err, "probe: the rate is 1 to 10 reads a second, not '11'");
	ck_assert_int_eq(tw_probeconf_parse("sdb 0", &s, err, sizeof(err)), TW_E_INVAL);
	ck_assert_int_eq(tw_probeconf_parse("sdb -1", &s, err, sizeof(err)), TW_E_INVAL);
	ck_assert_int_eq(tw_probeconf_parse("sdb 5x", &s, err, sizeof(err)), TW_E_INVAL);
	ck_assert_int_eq(tw_probeconf_parse("sdb 5 fast", &s, err, sizeof(err)), TW_E_INVAL);
	ck_assert_str_eq(err, "probe takes a device and a rate, not 'fast'");
	ck_assert_int_eq(tw_probeconf_parse("sd\x01" "b", &s, err, sizeof(err)), TW_E_INVAL);
	ck_assert_str_eq(s.device, "");
}
END_TEST

START_TEST(test_long_device_refused)
{
	struct tw_probe_spec s;
	char line[400], err[160];

	memset(line, 'a', 300);
	line[300] = '\0';
	ck_assert_int_eq(tw_probeconf_parse(line, &s, err, sizeof(err)), TW_E_INVAL);
	ck_assert_str_eq(err, "probe: the device name is longer than 255 bytes");
	line[255] = '\0';
	ck_assert_int_eq(tw_probeconf_parse(line, &s, err, sizeof(err)), TW_OK);
	ck_assert_uint_eq(strlen(s.device), 255);
}
END_TEST

START_TEST(test_seconds)
{
	unsigned v = 99;

	ck_assert_int_eq(tw_probeconf_seconds("5", 1, 60, &v), TW_OK);
	ck_assert_uint_eq(v, 5);
	ck_assert_int_eq(tw_probeconf_seconds(" 60 ", 1, 60, &v), TW_OK);
	ck_assert_int_eq(tw_probeconf_seconds("0", 0, 60, &v), TW_OK);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(tw_probeconf_seconds("0", 1, 60, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_probeconf_seconds("61", 1, 60, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_probeconf_seconds("5 s", 1, 60, &v), TW_E_INVAL);
	ck_assert_int_eq(tw_probeconf_seconds("9999999999", 0, UINT_MAX, &v), TW_E_INVAL);
	ck_assert_uint_eq(v, 0);
}
END_TEST

START_TEST(test_sysfs_files)
{
	uint32_t maj = 0, min = 0;
	uint64_t ios = 0;

	ck_assert_int_eq(tw_probedev_parse_dev("8:16\n", &maj, &min), TW_OK);
	ck_assert_uint_eq(maj, 8);
	ck_assert_uint_eq(min, 16);
	ck_assert_int_eq(tw_probedev_parse_dev("8:", &maj, &min), TW_E_INVAL);
	ck_assert_int_eq(tw_probedev_parse_dev("8:16x", &maj, &min), TW_E_INVAL);
	ck_assert_int_eq(tw_probedev_parse_dev("4294967296:0", &maj, &min), TW_E_INVAL);
	/* Reads completed (field 1) and writes completed (field 5). */
	ck_assert_int_eq(tw_probedev_parse_stat("  136 0 9012 52   7 3 80 12 0 48 64 0 0 0 0\n",
	    &ios), TW_OK);
	ck_assert_uint_eq(ios, 143);
	ck_assert_int_eq(tw_probedev_parse_stat("1 2 3 4", &ios), TW_E_INVAL);
	ck_assert_int_eq(tw_probedev_parse_stat("", &ios), TW_E_INVAL);
}
END_TEST

static char root[64];

static void
make_sys(void)
{
	tw_tmp_dir(root, sizeof(root), "check-probe");
	tw_write_file(root, "block/sdb/dev", "8:16\n");
	tw_write_file(root, "block/sdb/diskseq", "7\n");
	tw_write_file(root, "block/sdb/queue/rotational", "1\n");
	tw_write_file(root, "block/sdb/stat", "10 0 80 1 5 0 40 1 0 2 2 0 0 0 0\n");
	tw_write_file(root, "block/dm-3/dev", "253:3\n");
	tw_write_file(root, "block/dm-3/dm/name", "vg0-root\n");
	tw_write_file(root, "block/dm-3/dm/uuid", "LVM-abc\n");
}

START_TEST(test_resolve_names)
{
	struct tw_probedev d;
	int fd;

	make_sys();
	fd = open(root, O_RDONLY | O_DIRECTORY);
	ck_assert_int_eq(tw_probedev_resolve(fd, "sdb", &d), TW_OK);
	ck_assert_str_eq(d.name, "sdb");
	ck_assert_uint_eq(d.major, 8);
	ck_assert_uint_eq(d.minor, 16);
	ck_assert_uint_eq(d.diskseq, 7);
	ck_assert_int_eq(d.rotational, 1);
	ck_assert_int_eq(d.has_ios, 1);
	ck_assert_uint_eq(d.ios, 15);
	/* By its alias, as twDiskAlias has it. */
	ck_assert_int_eq(tw_probedev_resolve(fd, "vg0-root", &d), TW_OK);
	ck_assert_str_eq(d.name, "dm-3");
	ck_assert_uint_eq(d.diskseq, 0);
	ck_assert_int_eq(d.rotational, -1);
	ck_assert_int_eq(tw_probedev_resolve(fd, "sdz", &d), TW_E_ABSENT);
	ck_assert_int_eq(tw_probedev_resolve(fd, "..", &d), TW_E_ABSENT);
	ck_assert_int_eq(tw_probedev_resolve(fd, "sdb/../dm-3", &d), TW_E_ABSENT);
	/* A path that is not a block device. */
	ck_assert_int_eq(tw_probedev_resolve(fd, "/dev/null", &d), TW_E_ABSENT);
	ck_assert_int_eq(tw_probedev_resolve(-1, "sdb", &d), TW_E_ABSENT);
	close(fd);
	tw_tmp_remove(root);
}
END_TEST

/* Not a block device, or not there: a probe in state open-failed that
 * says why, reads nothing and stops cleanly. */
START_TEST(test_probe_cannot_open)
{
	struct tw_probe_params pp = { "none", "/nonexistent/sdq", 5, 1000, 3 };
	struct tw_probe_report r;
	struct tw_probe *p = tw_probe_open(&pp);
	struct tw_probe_readers *rs;

	ck_assert_ptr_nonnull(p);
	/* Nothing to read: no thread is started, and the probe stops. */
	ck_assert_int_eq(tw_probe_readers_start(&rs), 0);
	tw_probe_run(p, rs);
	tw_probe_report(p, 1000, &r);
	ck_assert_int_eq(r.state, TW_PROBE_OPEN_FAILED);
	ck_assert_str_eq(r.reason, "open /nonexistent/sdq: No such file or directory");
	ck_assert_uint_eq(r.read_size, 0);
	ck_assert_uint_eq(r.rate, 5);
	tw_probe_stop(p);
	tw_probe_readers_stop(rs);

	pp.path = "/dev/null";
	p = tw_probe_open(&pp);
	tw_probe_report(p, 1000, &r);
	ck_assert_int_eq(r.state, TW_PROBE_OPEN_FAILED);
	ck_assert_str_eq(r.reason, "/dev/null is not a block device");
	ck_assert_uint_eq(tw_probe_reads(p), 0);
	/* No thread to read for it: the reason is its state's. */
	tw_probe_fail(p, "cannot start the reads: Cannot allocate memory");
	tw_probe_report(p, 1000, &r);
	ck_assert_int_eq(r.state, TW_PROBE_OPEN_FAILED);
	ck_assert_str_eq(r.reason, "cannot start the reads: Cannot allocate memory");
	tw_probe_stop(p);
	ck_assert_str_eq(tw_probe_state_name(TW_PROBE_IDLE_SKIPPED), "idle-skipped");
	ck_assert_str_eq(tw_probe_state_name(TW_PROBE_NSTATES), "unknown");
}
END_TEST

/* The phases: the bits of k reversed over 100 ms, so that any n probes
 * are at least 100 ms / 2^ceil(log2 n) apart. */
START_TEST(test_reader_phases)
{
	uint64_t ph[64];
	unsigned n, i, j;

	ck_assert_uint_eq(TW_PROBE_PHASE_SPAN_NS, 100000000u);
	ck_assert_uint_eq(tw_probe_phase_ns(0), 0);
	ck_assert_uint_eq(tw_probe_phase_ns(1), 50000000u);
	ck_assert_uint_eq(tw_probe_phase_ns(2), 25000000u);
	ck_assert_uint_eq(tw_probe_phase_ns(3), 75000000u);
	ck_assert_uint_eq(tw_probe_phase_ns(4), 12500000u);
	ck_assert_uint_eq(tw_probe_phase_ns(7), 87500000u);
	for (n = 1; n <= 64; n++) {
		uint64_t gap = TW_PROBE_PHASE_SPAN_NS, need;
		unsigned bits = 0;

		while ((1u << bits) < n)
			bits++;
		need = TW_PROBE_PHASE_SPAN_NS >> bits;
		for (i = 0; i < n; i++) {
			ph[i] = tw_probe_phase_ns(i);
			ck_assert_uint_lt(ph[i], TW_PROBE_PHASE_SPAN_NS);
			for (j = 0; j < i; j++) {
				uint64_t d = ph[i] > ph[j] ? ph[i] - ph[j] : ph[j] - ph[i];

				if (d < gap)
					gap = d;
			}
		}
		ck_assert_msg(gap + 1 >= need, "%u probes: %llu ns apart, not %llu", n,
		    (unsigned long long)gap, (unsigned long long)need);
	}
}
END_TEST

/* A thread started for a probe with nothing to read sleeps until it is
 * stopped, and then frees its probe (the sanitizers and valgrind see a
 * leak or a double free); a refused thread leaves the probe the caller's. */
START_TEST(test_reader_threads)
{
	struct tw_probe_params pp = { "none", "/nonexistent/sdq", 10, 1000, 3 };
	struct tw_probe_readers *rs;
	struct tw_probe_reader *r1, *r2;
	struct tw_probe *p1 = tw_probe_open(&pp), *p2 = tw_probe_open(&pp);
	struct tw_probe_report r;

	ck_assert_ptr_nonnull(p1);
	ck_assert_ptr_nonnull(p2);
	ck_assert_int_eq(tw_probe_readers_start(&rs), 0);
	ck_assert_int_eq(tw_probe_reader_start(rs, p1, &r1), 0);
	ck_assert_ptr_nonnull(r1);
	tw_probe_reader_wake(r1);
	refuse_threads = 1;
	ck_assert_int_eq(tw_probe_reader_start(rs, p2, &r2), EAGAIN);
	refuse_threads = 0;
	ck_assert_ptr_null(r2);
	tw_probe_report(p2, 1000, &r);
	ck_assert_uint_eq(r.reads, 0);
	tw_probe_stop(p2);
	/* The refusal left the set as it was: another thread starts. */
	p2 = tw_probe_open(&pp);
	ck_assert_int_eq(tw_probe_reader_start(rs, p2, &r2), 0);
	tw_probe_reader_stop(r1);
	tw_probe_reader_stop(r2);
	tw_probe_readers_stop(rs);
	/* With nothing started at all. */
	ck_assert_int_eq(tw_probe_readers_start(&rs), 0);
	tw_probe_readers_stop(rs);
	tw_probe_readers_stop(NULL);
}
END_TEST

static char logged[1024];

static void
log_line(void *ctx, int warning, const char *line)
{
	(void)ctx;
	(void)warning;
	strncat(logged, line, sizeof(logged) - strlen(logged) - 2);
	strcat(logged, "\n");
}

/* A line whose device is found but whose node cannot be opened is a row
 * (open-failed); a line naming nothing is logged and has none. */
START_TEST(test_probeset_rows)
{
	struct tw_probe_spec specs[3] = { { "vg0-root", 2 }, { "nothing", 1 }, { "sdb", 1 } };
	struct tw_probeset_config c;
	struct tw_probeset *ps;
	const struct tw_probe_row *rows;
	size_t n;

	make_sys();
	memset(&c, 0, sizeof(c));
	c.specs = specs;
	c.nspecs = 3;
	c.sys_root = root;
	c.dev_root = root;	/* no device nodes there */
	c.intervals = 2;
	c.log = log_line;
	logged[0] = '\0';
	ck_assert_int_eq(tw_probeset_open(&ps, &c), TW_OK);
	tw_probeset_run(ps);
	tw_probeset_tick(ps, 5000);
	rows = tw_probeset_rows(ps, 5000, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(rows[0].major, 8);	/* sorted by index */
	ck_assert_str_eq(rows[0].name, "sdb");
	ck_assert_uint_eq(rows[1].major, 253);
	ck_assert_str_eq(rows[1].name, "dm-3");
	ck_assert_int_eq(rows[1].r.state, TW_PROBE_OPEN_FAILED);
	ck_assert_uint_eq(rows[1].r.rate, 2);
	ck_assert_ptr_nonnull(strstr(logged, "probe nothing: no such block device"));
	ck_assert_ptr_nonnull(strstr(logged, "probe vg0-root: open-failed: open "));
	/* Told once, not at every sample. */
	tw_probeset_tick(ps, 6000);
	ck_assert_ptr_null(strstr(strstr(logged, "probe nothing") + 1, "probe nothing"));
	tw_probeset_close(ps);
	tw_tmp_remove(root);
}
END_TEST

START_TEST(test_view_rows)
{
	struct tw_probe_row rows[2];
	struct tw_view v;
	struct tw_probe_record pf;
	int i;

	memset(rows, 0, sizeof(rows));
	rows[0].major = 8;
	rows[0].minor = 16;
	snprintf(rows[0].name, sizeof(rows[0].name), "sdb");
	rows[0].r.state = TW_PROBE_PROBING;
	rows[0].r.rate = 1;
	rows[0].r.read_size = 4096;
	rows[0].r.window_ms = 60000;
	tw_hist_init(&rows[0].r.hist);
	for (i = 0; i < 60; i++)
		tw_hist_add(&rows[0].r.hist, 8000);	/* 8 ms */
	rows[0].r.missed = 3;
	rows[1].major = 8;
	rows[1].minor = 32;
	snprintf(rows[1].name, sizeof(rows[1].name), "sdc");
	rows[1].r.state = TW_PROBE_ODIRECT_REFUSED;
	snprintf(rows[1].r.reason, sizeof(rows[1].r.reason), "O_DIRECT read refused");

	tw_view_init(&v);
	ck_assert_int_eq(tw_view_build(&v, &(struct tw_view_sources){ .probing = 1,
	    .probes = rows, .nprobes = 2 }), TW_OK);
	ck_assert_uint_eq(v.nprobes, 2);
	ck_assert_str_eq(v.probes[0].state, "probing");
	/* 60 reads: p50 and p90, but no p99 (100 needed). */
	ck_assert(tw_view_has(&v.probes[0], TW_OID_PROBE_P50));
	ck_assert(tw_view_has(&v.probes[0], TW_OID_PROBE_P90));
	ck_assert(!tw_view_has(&v.probes[0], TW_OID_PROBE_P99));
	ck_assert_uint_eq(v.probes[0].col[TW_OID_PROBE_MIN], 8000);	/* microseconds */
	ck_assert(v.probes[0].col[TW_OID_PROBE_P50] >= 8000 * 31 / 32 &&
	    v.probes[0].col[TW_OID_PROBE_P50] <= 8000 * 33 / 32);
	tw_view_probe_record(&v.probes[0], &pf);
	ck_assert_double_eq_tol(pf.max_ms, 8.0, 1e-9);
	ck_assert_uint_eq(v.probes[0].col[TW_OID_PROBE_COUNT], 60);
	ck_assert_uint_eq(v.probes[0].col[TW_OID_PROBE_MISSED], 3);
	ck_assert_uint_eq(v.probes[0].col[TW_OID_PROBE_WINDOW], 60000);
	/* No reads: no latency at all, and the state says why. */
	ck_assert_str_eq(v.probes[1].state, "odirect-refused");
	ck_assert_str_eq(v.probes[1].reason, "O_DIRECT read refused");
	ck_assert(!tw_view_has(&v.probes[1], TW_OID_PROBE_MIN));
	ck_assert(!tw_view_has(&v.probes[1], TW_OID_PROBE_MEAN));
	ck_assert(!tw_view_has(&v.probes[1], TW_OID_PROBE_READ_SIZE));
	ck_assert_uint_eq(v.probes[1].col[TW_OID_PROBE_COUNT], 0);
	ck_assert(tw_view_has(&v.probes[1], TW_OID_PROBE_COUNT));
	tw_view_free(&v);
}
END_TEST

static Suite *
probe_suite(void)
{
	Suite *s = suite_create("probe");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_probe_lines);
	tcase_add_test(tc, test_long_device_refused);
	tcase_add_test(tc, test_seconds);
	tcase_add_test(tc, test_sysfs_files);
	tcase_add_test(tc, test_resolve_names);
	tcase_add_test(tc, test_probe_cannot_open);
	tcase_add_test(tc, test_reader_phases);
	tcase_add_test(tc, test_reader_threads);
	tcase_add_test(tc, test_probeset_rows);
	tcase_add_test(tc, test_view_rows);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(probe_suite());
}
