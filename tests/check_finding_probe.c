/* SPDX-License-Identifier: ISC */
/* Unit tests for the findings on a probed device whose seeks are slow:
 * judged as check_disklatency --probe judges it
 * (lib/finding/judge_probe.c), raised by the tracker after raise_after
 * samples with the disk (twDiskStableId, else its name) as the subject
 * and the id check_disklatency prints for the same device. */
#include "config.h"

#include <stdint.h>

#include "advice/ticket.h"
#include "finding/judge.h"
#include "finding/observe.h"
#include "finding/tracker.h"
#include "tw_check.h"
#include "tw_findings.h"
#include "util/error.h"
#include "view/view.h"

/* The judge reads records: the view's row decoded as tunewatchd does. */
static int
judge_probe(const struct tw_threshold *warn, const struct tw_threshold *crit,
    const struct tw_view_probe *pr, unsigned percentile, struct tw_probe_judgement *j)
{
	struct tw_probe_record f;

	tw_view_probe_record(pr, &f);
	return tw_judge_probe(warn, crit, &f, percentile, j);
}

/* sdb (8:16) probed, p90 p90_ms; with_disk adds its twDiskTable row (a
 * rotational disk with a stable id, at queue depth queue). */
static void
make_view(struct tw_view *v, double p90_ms, int with_disk, double queue)
{
	struct tw_view_probe *pr;
	struct tw_view_disk *d;

	tw_view_init(v);
	ck_assert_int_eq(tw_view_reserve_probes(v, 1), TW_OK);
	pr = &v->probes[0];
	memset(pr, 0, sizeof(*pr));
	pr->major = 8;
	pr->minor = 16;
	strcpy(pr->device, "sdb");
	strcpy(pr->state, "probing");
	TW_PUT_CELL(*pr, TW_OID_PROBE_P50, (uint64_t)(p90_ms * 500));	/* microseconds */
	TW_PUT_CELL(*pr, TW_OID_PROBE_P90, (uint64_t)(p90_ms * 1000));
	TW_PUT_CELL(*pr, TW_OID_PROBE_TIMEOUTS, 0);
	v->nprobes = 1;
	if (!with_disk)
		return;
	ck_assert_int_eq(tw_view_reserve_disks(v, 1), TW_OK);
	d = &v->disks[0];
	memset(d, 0, sizeof(*d));
	d->major = 8;
	d->minor = 16;
	strcpy(d->name, "sdb");
	strcpy(d->stable_id, "wwn-0x5000c500a1b2c3d4");
	d->has = TW_VIEW_BIT(TW_OID_DISK_NAME) | TW_VIEW_BIT(TW_OID_DISK_SCHEDULER);
	TW_PUT_CELL(*d, TW_OID_DISK_QUEUE_DEPTH, (uint64_t)(queue * 100));
	TW_PUT_CELL(*d, TW_OID_DISK_READ_OPS, 20000);
	TW_PUT_CELL(*d, TW_OID_DISK_NR_REQUESTS, 64);
	TW_PUT_CELL(*d, TW_OID_DISK_ROTATIONAL, 1);
	strcpy(d->scheduler, "mq-deadline");
	v->ndisks = 1;
}

START_TEST(test_judge)
{
	struct tw_judge_config c;
	struct tw_probe_judgement j;
	struct tw_view v;

	tw_judge_defaults(&c);
	ck_assert_uint_eq(c.probe_percentile, 90);
	make_view(&v, 30, 0, 0);
	ck_assert_int_eq(judge_probe(&c.probe_warn, &c.probe_crit, &v.probes[0], 90, &j), 1);
	ck_assert_int_eq(j.latency, TW_STATE_WARNING);
	ck_assert(j.ms > 29.9 && j.ms < 30.1);
	/* A timeout makes it critical, whatever the percentile says. */
	v.probes[0].col[TW_OID_PROBE_TIMEOUTS] = 1;
	judge_probe(&c.probe_warn, &c.probe_crit, &v.probes[0], 90, &j);
	ck_assert_int_eq(j.worst, TW_STATE_CRITICAL);
	/* No p99 yet, or not probing: not judged. */
	ck_assert_int_eq(judge_probe(&c.probe_warn, &c.probe_crit, &v.probes[0], 99, &j), 0);
	strcpy(v.probes[0].state, "idle-skipped");
	ck_assert_int_eq(judge_probe(&c.probe_warn, &c.probe_crit, &v.probes[0], 90, &j), 0);
	tw_view_free(&v);
}
END_TEST

/* The disk filter hides sdb: a finding with no knob, named by the probe. */
START_TEST(test_observe_hidden_disk)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s;
	const struct tw_finding *o;

	tw_judge_defaults(&c);
	make_view(&v, 60, 0, 0);
	o = observe_one(&s, &c, &v, TW_SYM_READ_LATENCY_QUEUE, TW_STATE_CRITICAL, "sdb", "");
	ck_assert_str_eq(o->tunable, "");
	ck_assert_ptr_nonnull(strstr(o->evidence, "(critical range 50, probe p90, ms)"));
	tw_view_free(&v);
}
END_TEST

/* A deep queue on a rotational disk: its queue knob, the disk's stable id
 * as subject; raised after three samples. */
START_TEST(test_tracked)
{
	struct tw_judge_config c;
	struct tw_tracker t;
	struct tw_view v, out;
	struct seen s = { .n = 0 };
	char id[TW_TICKET_ID_LEN];
	const char *knob;

	tw_judge_defaults(&c);
	make_view(&v, 30, 1, 60);
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_uint_ge(s.n, 1);
	ck_assert_int_eq(s.o[0].sym, TW_SYM_READ_LATENCY_QUEUE);
	ck_assert_int_eq(s.o[0].severity, TW_STATE_WARNING);
	ck_assert_str_eq(s.o[0].subject, "wwn-0x5000c500a1b2c3d4");
	knob = strstr(s.o[0].tunable, "queue/");
	ck_assert_ptr_nonnull(knob);
	tw_ticket_id(id, TW_SYM_READ_LATENCY_QUEUE, "wwn-0x5000c500a1b2c3d4", knob);
	ck_assert_str_eq(s.o[0].id, id);
	raise_on_third(&t, &c, &v, 3000, s.n, "wwn-0x5000c500a1b2c3d4", id, &out);
	tw_tracker_free(&t);
	tw_view_free(&v);
	tw_view_free(&out);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("finding_probe");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_judge);
	tcase_add_test(tc, test_observe_hidden_disk);
	tcase_add_test(tc, test_tracked);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
