/* SPDX-License-Identifier: ISC */
#include "config.h"

/* tunewatchd and check_bufcache --cgroup say the same of a service at its
 * own limit when they read the same sample: tunewatchd's monitor over a
 * copy of tests/fixtures/agent with the cgroup v2 tree of
 * tests/fixtures/collectors/cgroup.tar, nginx.service at its 64 MiB
 * memory.high refaulting 5000 pages a second. After each sample the
 * finding the monitor publishes must be the one a check makes of the same
 * view (tw_observe on it, over the window the check reads off the view,
 * tw_view_window_s): the same evidence, size, apply and persist lines.
 * The window is configured at 60 s and the samples are a second apart, so
 * the figures cover 1 s, then 2 s: before the fix tunewatchd said "in the
 * last 60 s" (its configured window) while a check of the same view said
 * "in the last 1 s" (the span the figures cover), and in the guest lab
 * "10 s" against a check's "11 s" when samples came late. A check read at
 * another sample sizes the limit from that sample's figures: the guest's
 * 325M against 343M (doc/LAB-GUEST.md) was two samples, not two rules. */
#include <stdint.h>
#include <unistd.h>

#include "finding/judge.h"
#include "finding/observe.h"
#include "finding/tracker.h"
#include "monitor/monitor.h"
#include "sample/sampler.h"
#include "tw_cgroup_fixture.h"
#include "tw_check.h"
#include "util/error.h"
#include "view/record_agent.h"
#include "view/view.h"

#define NGINX "/system.slice/nginx.service"

static char root[64], trees[64];

/* nginx has refaulted this many file pages since it started. */
static void
refaults(unsigned long n)
{
	char text[256];

	snprintf(text, sizeof(text), "anon 4000000\nfile 62914560\nfile_mapped 1000\n"
	    "workingset_refault_anon 0\nworkingset_refault_file %lu\n", n);
	tw_write_file(root, "sys/fs/cgroup" NGINX "/memory.stat", text);
}

struct seen {
	struct tw_finding o;
	int found;
};

static int
collect(void *ctx, const struct tw_finding *o)
{
	struct seen *s = ctx;

	if (o->sym == TW_SYM_CGROUP_CACHE_BOUNDED && strstr(o->subject, NGINX) != NULL) {
		s->o = *o;
		s->found = 1;
	}
	return 0;
}

/* The monitor's raised finding about nginx. */
static const struct tw_view_finding_in *
published(const struct tw_monitor *m)
{
	const struct tw_tracker *t = tw_monitor_tracker(m);
	size_t i;

	for (i = 0; i < t->nraised; i++)
		if (strcmp(t->raised[i].symptom, "cgroup-cache-bounded") == 0 &&
		    strstr(t->raised[i].subject, NGINX) != NULL)
			return &t->raised[i];
	return NULL;
}

/* The published finding and a check's of the same view agree, and say
 * the span the figures cover; returns the published one. */
static const struct tw_view_finding_in *
agree(const struct tw_monitor *m, const struct tw_judge_config *c, int sample)
{
	const struct tw_view *v = tw_monitor_view(m);
	const struct tw_view_finding_in *f = published(m);
	unsigned window_s = tw_view_window_s(&v->agent);
	struct seen s = { .found = 0 };
	char last[32];

	ck_assert_msg(f != NULL, "sample %d: no finding about nginx", sample);
	ck_assert_int_eq(tw_observe(c, v, window_s, TW_OS_LINUX, collect, &s), 0);
	ck_assert_msg(s.found, "sample %d: the check finds nothing", sample);
	ck_assert_str_eq(f->id, s.o.id);
	ck_assert_msg(strcmp(f->evidence, s.o.evidence) == 0,
	    "sample %d: tunewatchd says '%s', a check of its view '%s'", sample, f->evidence,
	    s.o.evidence);
	ck_assert_msg(strcmp(f->suggested, s.o.suggested) == 0 && strcmp(f->apply, s.o.apply) == 0
	    && strcmp(f->persist, s.o.persist) == 0,
	    "sample %d: tunewatchd suggests '%s' (apply '%s'), a check of its view '%s' "
	    "(apply '%s')", sample, f->suggested, f->apply, s.o.suggested, s.o.apply);
	snprintf(last, sizeof(last), "in the last %u s", window_s);
	ck_assert_msg(strstr(f->evidence, last) != NULL, "sample %d: '%s' does not say '%s'",
	    sample, f->evidence, last);
	ck_assert_str_eq(f->tunable, "MemoryHigh");
	ck_assert_ptr_nonnull(strstr(f->apply, "systemctl set-property --runtime nginx.service "
	    "MemoryHigh="));
	return f;
}

START_TEST(test_agent_and_check_say_alike)
{
	struct tw_sampler_config cfg = { 0 };
	struct tw_judge_config c;
	struct tw_monitor *m = tw_monitor_new();
	const struct tw_view_finding_in *f;
	char cmd[256], proc[128], sys[128], err[256];
	unsigned long n = 123456;
	int sample;

	ck_assert_int_eq(tw_cgroup_trees(trees, sizeof(trees)), 0);
	tw_tmp_dir(root, sizeof(root), "monitor-cgroup");
	tw_fixture_copy(root, "agent/proc", "proc");
	tw_fixture_copy(root, "agent/sys", "sys");
	snprintf(cmd, sizeof(cmd), "cp -R '%s/v2/sys/fs' '%s/sys/'", trees, root);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	cfg.proc_root = proc;
	cfg.sys_root = sys;
	cfg.sock_no_diag = 1;
	ck_assert_ptr_nonnull(m);
	/* A 60 s window sampled every second: it fills in a minute. */
	ck_assert_int_eq(tw_monitor_open(m, &cfg, 1, 60, "test", err, sizeof(err)), TW_OK);
	tw_judge_defaults(&c);
	ck_assert_int_eq(tw_threshold_parse(&c.cg_refault_warn, "1"), TW_OK);
	ck_assert_int_eq(tw_threshold_parse(&c.cg_refault_crit, "2"), TW_OK);
	ck_assert_int_eq(tw_monitor_findings(m, &c, 1, 1), TW_OK);

	refaults(n);
	ck_assert_int_eq(tw_monitor_sample(m), TW_OK);
	for (sample = 1; sample <= 2; sample++) {
		sleep(1);
		refaults(n += 5000);
		ck_assert_int_eq(tw_monitor_sample(m), TW_OK);
		f = agree(m, &c, sample);
		ck_assert_ptr_null(strstr(f->evidence, "in the last 60 s"));
	}

	tw_monitor_close(m);
	tw_tmp_remove(root);
	tw_cgroup_trees_remove(trees);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("monitor_cgroup");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_agent_and_check_say_alike);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
