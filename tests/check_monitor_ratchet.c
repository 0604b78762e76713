/* SPDX-License-Identifier: ISC */
#include "config.h"

/* The agent and the checks hold back the same raise (finding/ratchet.h):
 * tunewatchd's monitor over a copy of tests/fixtures/agent, whose CPU 1
 * drops packets every sample, netdev_max_backlog raised from 1000 to
 * 2000 (as its finding's apply line says) and the drops then slower.
 * After every sample, the finding the monitor publishes must be the one a
 * check makes of the same view (tw_observe on it, whose hold reads the
 * view's change rows, as check_dblock's does): held with no value while
 * the change waits for its window after, the next doubling (4000) once
 * the change history shows it helped in part. Before the fix the monitor
 * judged the findings on the sample before's change rows: the sample that
 * published the change still offered 4000, and the one that published it
 * evaluated still held (the lab's net-udp-sndbuf, net-udp-default and
 * net-tcp-mem: twFindingApply '' while the check said the next value).
 * The change's window is 2 s of real time: the test sleeps through it. */
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "finding/judge.h"
#include "finding/observe.h"
#include "finding/tracker.h"
#include "monitor/monitor.h"
#include "sample/sampler.h"
#include "tw_check.h"
#include "util/error.h"
#include "view/record_change.h"
#include "view/view.h"

#define BACKLOG "net.core.netdev_max_backlog"

static char root[64];

/* CPU 1 has dropped this many packets since boot. */
static void
drops(unsigned long n)
{
	char text[512];

	snprintf(text, sizeof(text), "0000a000 00000000 00000002 00000000 00000000 00000000 "
	    "00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
	    "0000b000 %08lx 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
	    "00000000 00000005 00000001\n", n);
	tw_write_file(root, "proc/net/softnet_stat", text);
}

struct seen {
	struct tw_finding o;
	int found;
};

static int
collect(void *ctx, const struct tw_finding *o)
{
	struct seen *s = ctx;

	if (strcmp(o->tunable, BACKLOG) == 0) {
		s->o = *o;
		s->found = 1;
	}
	return 0;
}

/* The monitor's raised finding about the backlog. */
static const struct tw_view_finding_in *
published(const struct tw_monitor *m)
{
	const struct tw_tracker *t = tw_monitor_tracker(m);
	size_t i;

	for (i = 0; i < t->nraised; i++)
		if (strcmp(t->raised[i].tunable, BACKLOG) == 0)
			return &t->raised[i];
	return NULL;
}

/* The finding published and the one a check makes of the view agree;
 * returns the published one. */
static const struct tw_view_finding_in *
agree(const struct tw_monitor *m, const struct tw_judge_config *c, int sample)
{
	const struct tw_view_finding_in *f = published(m);
	struct seen s = { .found = 0 };

	ck_assert_msg(f != NULL, "sample %d: no finding about the backlog", sample);
	ck_assert_int_eq(tw_observe(c, tw_monitor_view(m), 2, TW_OS_LINUX, collect, &s), 0);
	ck_assert_msg(s.found, "sample %d: the check finds nothing", sample);
	ck_assert_msg(strcmp(f->suggested, s.o.suggested) == 0 && strcmp(f->apply, s.o.apply) == 0,
	    "sample %d: tunewatchd suggests '%s' (apply '%s'), a check of its view '%s' "
	    "(apply '%s'; %s)", sample, f->suggested, f->apply, s.o.suggested, s.o.apply,
	    s.o.evidence);
	return f;
}

/* The view's newest change row: evaluated or not (-1: none). */
static int
evaluated(const struct tw_monitor *m)
{
	const struct tw_view *v = tw_monitor_view(m);
	struct tw_change_record c;

	if (v->nchanges == 0)
		return -1;
	tw_view_change_record(&v->changes[0], &c);
	return c.evaluated == 1;
}

START_TEST(test_agent_and_check_hold_alike)
{
	struct tw_sampler_config cfg = { 0 };
	struct tw_judge_config c;
	struct tw_monitor *m = tw_monitor_new();
	const struct tw_view_finding_in *f;
	char proc[128], err[256];
	unsigned long n = 16;
	int sample = 0, rounds;

	tw_tmp_dir(root, sizeof(root), "monitor-ratchet");
	tw_fixture_copy(root, "agent/proc", "proc");
	snprintf(proc, sizeof(proc), "%s/proc", root);
	cfg.proc_root = proc;
	cfg.sys_root = tw_fixture_path("agent/sys");
	cfg.no_cgroups = 1;
	cfg.sock_no_diag = 1;
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(tw_monitor_open(m, &cfg, 1, 2, "test", err, sizeof(err)), TW_OK);
	tw_judge_defaults(&c);
	ck_assert_int_eq(tw_monitor_findings(m, &c, 1, 1), TW_OK);
	tw_monitor_changes(m);

	drops(n);
	ck_assert_int_eq(tw_monitor_sample(m), TW_OK);
	/* 600 drops a sample: the finding, and its doubling offered. */
	sleep(1);
	drops(n += 600);
	ck_assert_int_eq(tw_monitor_sample(m), TW_OK);
	f = agree(m, &c, ++sample);
	ck_assert_str_eq(f->current, "1000");
	ck_assert_str_eq(f->suggested, "2000");
	/* Applied; the sample that sees it publishes the change waiting. */
	tw_write_file(root, "proc/sys/net/core/netdev_max_backlog", "2000\n");
	sleep(1);
	drops(n += 600);
	ck_assert_int_eq(tw_monitor_sample(m), TW_OK);
	ck_assert_int_eq(evaluated(m), 0);
	f = agree(m, &c, ++sample);
	ck_assert_str_eq(f->current, "2000");
	ck_assert_str_eq(f->suggested, "");
	/* A third as many drops since: helped in part, once evaluated. */
	for (rounds = 0; rounds < 8 && evaluated(m) != 1; rounds++) {
		sleep(1);
		drops(n += 200);
		ck_assert_int_eq(tw_monitor_sample(m), TW_OK);
		f = agree(m, &c, ++sample);
	}
	ck_assert_int_eq(evaluated(m), 1);
	ck_assert_str_eq(f->suggested, "4000");

	tw_monitor_close(m);
	tw_tmp_remove(root);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("monitor_ratchet");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_agent_and_check_hold_alike);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
