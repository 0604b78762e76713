/* SPDX-License-Identifier: ISC */
/* sample_cost: the CPU time of one tunewatchd sample on a proc/sys root,
 * and the memory the sampler, window and view hold.
 *
 * It runs tw_monitor_sample() as tunewatchd does on its timer (same
 * interval, window and queue-refresh slice), first once from cold (every
 * device new, every queue read) and then --samples times warm, timing each
 * with the thread's CPU clock so that sleeping and other processes do not
 * count. With --changes each sample also keeps the change history as
 * tunewatchd's does (lib/change/: compare with the previous sample,
 * evaluate, and twChangeTable in the view); with --findings it judges
 * every sample as tunewatchd does by default (lib/finding, the checks'
 * default thresholds); --findings-all judges every disk with a latency
 * figure bad (r_await range "@0:"), the worst case: each one an
 * observation against a full table. --no-cgroups samples as the code
 * did before twCgroupTable. --cgroups-busy makes every cgroup of the sys
 * root do I/O between samples (bench/cgroup_io_grow.c, untimed): the
 * walk's worst case. It prints one JSON object for
 * bench/run. Not part of make check: built by `make bench`. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgroup_io_grow.h"
#include "finding/judge.h"
#include "finding/tracker.h"
#include "monitor/monitor.h"
#include "sample/sampler.h"
#include "util/error.h"
#include "view/view.h"

#define MAX_SAMPLES 10000

static uint64_t
cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Samples must be at least a millisecond apart: the window rejects a
 * sample stamped no later than the newest one. */
static void
pause_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		continue;
}

/* A "Vm...:   123 kB" line of /proc/self/status, in kB; -1 if absent. */
static long
status_kb(const char *field)
{
	char line[256];
	size_t flen = strlen(field);
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, field, flen) == 0 && line[flen] == ':') {
			kb = strtol(line + flen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return kb;
}

/* One sample as tunewatchd takes it (the change history in it when
 * tw_monitor_changes turned it on). */
static int
sample(struct tw_monitor *m)
{
	int rc = tw_monitor_sample(m);

	return rc != TW_OK ? rc : tw_monitor_change_status(m);
}

static void
usage(void)
{
	fprintf(stderr, "usage: sample_cost --proc-root DIR [--sys-root DIR] [--samples N]\n"
	    "                   [--interval S] [--window S] [--no-procio] [--changes]\n"
	    "                   [--findings | --findings-all] [--no-cgroups] [--cgroup-max N]\n");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "proc-root", required_argument, NULL, 'p' },
		{ "sys-root", required_argument, NULL, 's' },
		{ "samples", required_argument, NULL, 'n' },
		{ "interval", required_argument, NULL, 'i' },
		{ "window", required_argument, NULL, 'w' },
		{ "no-procio", no_argument, NULL, 'P' },
		{ "changes", no_argument, NULL, 'C' },
		{ "findings", no_argument, NULL, 'f' },
		{ "findings-all", no_argument, NULL, 'F' },
		{ "no-cgroups", no_argument, NULL, 'G' },
		{ "cgroup-max", required_argument, NULL, 'g' },
		{ "cgroups-busy", no_argument, NULL, 'B' },
		{ NULL, 0, NULL, 0 },
	};
	struct tw_sampler_config cfg;
	struct tw_monitor *m;
	const struct tw_tracker *tr;
	const struct tw_view *v;
	int changes = 0;
	uint64_t *ns, t0, first;
	unsigned interval = 5, window = 60;
	long nsamples = 30, i, rss_before;
	struct tw_judge_config judge;
	int findings = 0, busy = 0;
	char err[256];
	int c, rc;

	memset(&cfg, 0, sizeof(cfg));
	cfg.procio = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			cfg.proc_root = optarg;
			break;
		case 's':
			cfg.sys_root = optarg;
			break;
		case 'n':
			nsamples = strtol(optarg, NULL, 10);
			break;
		case 'i':
			interval = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'w':
			window = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'P':
			cfg.procio = 0;
			break;
		case 'C':
			changes = 1;
			break;
		case 'f':
			findings = 1;
			break;
		case 'F':
			findings = 2;
			break;
		case 'G':
			cfg.no_cgroups = 1;
			break;
		case 'g':
			cfg.cgroup_max = (size_t)strtoul(optarg, NULL, 10);
			break;
		case 'B':
			busy = 1;
			break;
		default:
			usage();
			return 64;
		}
	}
	if (cfg.proc_root == NULL || nsamples < 1 || nsamples > MAX_SAMPLES || interval == 0 ||
	    (busy && cfg.sys_root == NULL)) {
		usage();
		return 64;
	}
	/* As tunewatchd: every queue re-read once per window, the cgroup
	 * hierarchy walked every five minutes. */
	cfg.queue_refresh = window / interval;
	cfg.cgroup_rescan = TW_CGROUPS_RESCAN_DEFAULT_S / interval;
	ns = calloc((size_t)nsamples, sizeof(*ns));
	if (ns == NULL)
		return 71;
	rss_before = status_kb("VmRSS");
	m = tw_monitor_new();
	rc = m != NULL ? tw_monitor_open(m, &cfg, interval, window, PACKAGE_VERSION, err,
	    sizeof(err)) : TW_E_NOMEM;
	if (rc != TW_OK) {
		fprintf(stderr, "sample_cost: %s\n", m != NULL ? err : tw_strerror(rc));
		tw_monitor_close(m);
		free(ns);
		return 71;
	}
	if (changes)
		tw_monitor_changes(m);
	if (findings) {
		tw_judge_defaults(&judge);
		if (findings == 2)
			tw_threshold_parse(&judge.read_warn, "@0:");
		rc = tw_monitor_findings(m, &judge, 3, 3);
		if (rc != TW_OK) {
			fprintf(stderr, "sample_cost: findings: %s\n", tw_strerror(rc));
			tw_monitor_close(m);
			free(ns);
			return 71;
		}
	}
	t0 = cpu_ns();
	rc = sample(m);
	first = cpu_ns() - t0;
	for (i = 0; rc == TW_OK && i < nsamples; i++) {
		pause_ms(2);
		if (busy) {
			if (cgroup_io_grow(cfg.sys_root, (unsigned long)i + 1) != 0) {
				fprintf(stderr, "sample_cost: cannot write the cgroups' io.stat\n");
				rc = TW_E_IO;
				break;
			}
			/* A second clock_nanosleep, between the writes and the
			 * sample, for bench/cgroups_compare.py's strace count,
			 * which starts a sample at each one. */
			pause_ms(1);
		}
		t0 = cpu_ns();
		rc = sample(m);
		ns[i] = cpu_ns() - t0;
	}
	if (rc != TW_OK) {
		fprintf(stderr, "sample_cost: sample failed: %s\n", tw_strerror(rc));
		tw_monitor_close(m);
		free(ns);
		return 71;
	}
	v = tw_monitor_view(m);
	tr = tw_monitor_tracker(m);
	printf("{\"findings\": %zu, \"tracked\": %zu, \"overflows\": %llu, ",
	    v->nfindings, tr != NULL ? tr->n : 0,
	    (unsigned long long)(tr != NULL ? tr->overflows : 0));
	printf("\"disks\": %zu, \"pools\": %zu, \"tunables\": %zu, \"cgroups\": %zu, "
	    "\"first_ns\": %llu, "
	    "\"vmrss_before_kb\": %ld, \"vmrss_kb\": %ld, \"vmhwm_kb\": %ld, \"samples_ns\": [",
	    v->ndisks, v->npools, v->ntunables, v->ncgroups,
	    (unsigned long long)first,
	    rss_before, status_kb("VmRSS"), status_kb("VmHWM"));
	for (i = 0; i < nsamples; i++)
		printf("%s%llu", i > 0 ? ", " : "", (unsigned long long)ns[i]);
	printf("]}\n");
	tw_monitor_close(m);
	free(ns);
	return 0;
}
