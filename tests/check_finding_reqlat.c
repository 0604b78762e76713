/* SPDX-License-Identifier: ISC */
/* Unit tests for the findings on a disk whose requests are slow at a
 * percentile of their distribution: judged as check_disklatency
 * --percentile judges it (lib/finding/judge_reqlat.c), the advice of slow
 * r_await and w_await on the distribution's figures, and the same ticket
 * id as r_await's for the same device. */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "advice/evidence.h"
#include "advice/ticket.h"
#include "finding/judge_disk_row.h"
#include "finding/judge_reqlat.h"
#include "finding/observe.h"
#include "finding/tracker.h"
#include "tw_check.h"
#include "tw_findings.h"
#include "util/error.h"
#include "view/view.h"

/* The judges read records: the view's rows decoded as tunewatchd does,
 * kept here for the judgement that points into them. */
static struct tw_reqlat_records judged_records;

static int
judge_reqlat(const struct tw_threshold *rw, const struct tw_threshold *rc,
    const struct tw_threshold *ww, const struct tw_threshold *wc, const struct tw_view *v,
    const struct tw_view_disk *d, unsigned percentile, struct tw_reqlat_judgement *j)
{
	tw_judge_reqlat_records(v, d->major, d->minor, &judged_records);
	/* No twBcDirtyLimited in these views: every write is judged. */
	return tw_judge_reqlat(rw, rc, ww, wc, &judged_records, percentile, INFINITY, 0, j);
}

static void
reqlat_verdicts(const struct tw_view_disk *d, const struct tw_reqlat_judgement *j,
    unsigned window_s, unsigned percentile, struct tw_disk_verdicts *out)
{
	struct tw_disk_record f;

	tw_view_disk_record(d, &f);
	tw_judge_reqlat_verdicts(&f, j, window_s, percentile, out);
}

/* A row of count requests over a window of 10 s, its p50 a tenth of its
 * p99; the percentiles given from 100 requests, as the agent gives them
 * (tw_hist_min_count). */
static void
reqlat_row(struct tw_view *v, uint32_t dir, double p99_ms, uint64_t count)
{
	struct tw_view_reqlat *r = &v->reqlats[v->nreqlats++];

	memset(r, 0, sizeof(*r));
	r->major = 8;
	r->minor = 16;
	r->dir = dir;
	strcpy(r->device, "sdb");
	r->has = TW_VIEW_BIT(TW_OID_REQLAT_DEVICE);
	TW_PUT_CELL(*r, TW_OID_REQLAT_WINDOW, 10000);
	TW_PUT_CELL(*r, TW_OID_REQLAT_COUNT, count);
	if (count >= 100) {
		TW_PUT_CELL(*r, TW_OID_REQLAT_P50, (uint64_t)(p99_ms * 100));	/* microseconds */
		TW_PUT_CELL(*r, TW_OID_REQLAT_P99, (uint64_t)(p99_ms * 1000));
	}
}

/* sdb (8:16), a rotational disk with a stable id at queue depth queue,
 * its reads' p99 read_ms from reads requests and its writes' p99 write_ms
 * from writes (5 when write_ms is 0: no p99). */
static void
make_view_of(struct tw_view *v, double read_ms, uint64_t reads, double write_ms,
    uint64_t writes, double queue)
{
	struct tw_view_disk *d;

	tw_view_init(v);
	ck_assert_int_eq(tw_view_reserve_disks(v, 1), TW_OK);
	ck_assert_int_eq(tw_view_reserve_reqlats(v, 2), TW_OK);
	d = &v->disks[0];
	memset(d, 0, sizeof(*d));
	d->major = 8;
	d->minor = 16;
	strcpy(d->name, "sdb");
	strcpy(d->stable_id, "wwn-0x5000c500a1b2c3d4");
	d->has = TW_VIEW_BIT(TW_OID_DISK_NAME) | TW_VIEW_BIT(TW_OID_DISK_SCHEDULER);
	/* r_await itself is fine: the finding is the tail's. */
	TW_PUT_CELL(*d, TW_OID_DISK_READ_LATENCY, 2000);
	TW_PUT_CELL(*d, TW_OID_DISK_QUEUE_DEPTH, (uint64_t)(queue * 100));
	TW_PUT_CELL(*d, TW_OID_DISK_READ_OPS, 20000);
	TW_PUT_CELL(*d, TW_OID_DISK_WRITE_OPS, 1000);
	TW_PUT_CELL(*d, TW_OID_DISK_NR_REQUESTS, 64);
	TW_PUT_CELL(*d, TW_OID_DISK_ROTATIONAL, 1);
	strcpy(d->scheduler, "mq-deadline");
	v->ndisks = 1;
	reqlat_row(v, TW_REQLAT_DIR_READ, read_ms, reads);
	reqlat_row(v, TW_REQLAT_DIR_WRITE, write_ms, write_ms > 0 ? writes : 5);
}

/* As make_view_of, from 1000 reads and 1000 writes: enough for a p99. */
static void
make_view(struct tw_view *v, double read_ms, double write_ms, double queue)
{
	make_view_of(v, read_ms, 1000, write_ms, 1000, queue);
}

/* A site's service objective for every request, as tunewatchd.conf sets
 * it (requestLatencyWarning 20, requestLatencyCritical 50,
 * requestWriteLatencyWarning 50, requestWriteLatencyCritical 200) and as
 * check_disklatency --percentile judges it with -w 20 -c 50 and its
 * write thresholds. Unset at the defaults: nothing is judged without it. */
static void
set_objective(struct tw_judge_config *c)
{
	ck_assert_int_eq(tw_threshold_parse(&c->reqlat_warn, "20"), TW_OK);
	ck_assert_int_eq(tw_threshold_parse(&c->reqlat_crit, "50"), TW_OK);
	ck_assert_int_eq(tw_threshold_parse(&c->reqlat_write_warn, "50"), TW_OK);
	ck_assert_int_eq(tw_threshold_parse(&c->reqlat_write_crit, "200"), TW_OK);
}

START_TEST(test_judge)
{
	struct tw_judge_config c;
	struct tw_reqlat_judgement j;
	struct tw_view v;

	tw_judge_defaults(&c);
	set_objective(&c);
	ck_assert_uint_eq(c.reqlat_percentile, 99);
	make_view(&v, 30, 0, 1);
	ck_assert_int_eq(judge_reqlat(&c.reqlat_warn, &c.reqlat_crit, &c.reqlat_write_warn,
	    &c.reqlat_write_crit, &v, &v.disks[0], 99, &j), 1);
	ck_assert_int_eq(j.read, TW_STATE_WARNING);
	ck_assert(j.read_ms > 29.9 && j.read_ms < 30.1);
	/* Five writes: no p99 of them, which is no symptom. */
	ck_assert_int_eq(j.have_write, 0);
	ck_assert_int_eq(j.write, TW_STATE_OK);
	ck_assert_int_eq(j.worst, TW_STATE_WARNING);
	/* No p90 in the rows: nothing judged, nothing wrong. */
	ck_assert_int_eq(judge_reqlat(&c.reqlat_warn, &c.reqlat_crit, &c.reqlat_write_warn,
	    &c.reqlat_write_crit, &v, &v.disks[0], 90, &j), 1);
	ck_assert_int_eq(j.worst, TW_STATE_OK);
	/* Writes at 250 ms: past their own critical 200. */
	tw_view_free(&v);
	make_view(&v, 1, 250, 1);
	judge_reqlat(&c.reqlat_warn, &c.reqlat_crit, &c.reqlat_write_warn,
	    &c.reqlat_write_crit, &v, &v.disks[0], 99, &j);
	ck_assert_int_eq(j.read, TW_STATE_OK);
	ck_assert_int_eq(j.write, TW_STATE_CRITICAL);
	/* A disk with no rows is not timed. */
	v.nreqlats = 0;
	ck_assert_int_eq(judge_reqlat(&c.reqlat_warn, &c.reqlat_crit, &c.reqlat_write_warn,
	    &c.reqlat_write_crit, &v, &v.disks[0], 99, &j), 0);
	tw_view_free(&v);
}
END_TEST

/* At queue depth 1 the device itself is slow: no knob, with the
 * distribution's figure in its words, and r_await's ticket id. */
START_TEST(test_no_knob)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s;
	const struct tw_finding *o;

	tw_judge_defaults(&c);
	set_objective(&c);
	make_view(&v, 60, 0, 1);
	o = observe_one(&s, &c, &v, TW_SYM_READ_LATENCY_QUEUE, TW_STATE_CRITICAL,
	    "wwn-0x5000c500a1b2c3d4", "");
	ck_assert_str_eq(o->tunable, "");
	ck_assert_msg(strstr(o->evidence, "sdb read p99 60 ms at queue depth 1: the device "
	    "itself is slow") != NULL, "%s", o->evidence);
	ck_assert_ptr_nonnull(strstr(o->evidence, "(critical range 50, read p99, ms)"));
	tw_view_free(&v);
}
END_TEST

/* A deep queue on a rotational disk: r_await's queue knob for the slow
 * tail, the disk's stable id as subject, the same id as r_await's; raised
 * after three samples. Writes slow as well give the writeback finding. */
START_TEST(test_tracked)
{
	struct tw_judge_config c;
	struct tw_tracker t;
	struct tw_view v, out;
	struct seen s = { .n = 0 };
	struct tw_disk_verdicts verdicts;
	struct tw_reqlat_judgement j;
	char id[TW_TICKET_ID_LEN];
	const char *knob;
	size_t i;
	int writes = 0;

	tw_judge_defaults(&c);
	set_objective(&c);
	make_view(&v, 30, 0, 60);
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_uint_ge(s.n, 1);
	ck_assert_int_eq(s.o[0].sym, TW_SYM_READ_LATENCY_QUEUE);
	ck_assert_int_eq(s.o[0].severity, TW_STATE_WARNING);
	ck_assert_str_eq(s.o[0].subject, "wwn-0x5000c500a1b2c3d4");
	ck_assert_msg(strstr(s.o[0].evidence, "sdb read p99 30 ms at queue depth 60 on a "
	    "rotational disk") != NULL, "%s", s.o[0].evidence);
	knob = strstr(s.o[0].tunable, "queue/");
	ck_assert_ptr_nonnull(knob);
	tw_ticket_id(id, TW_SYM_READ_LATENCY_QUEUE, "wwn-0x5000c500a1b2c3d4", knob);
	ck_assert_str_eq(s.o[0].id, id);
	raise_on_third(&t, &c, &v, 3000, s.n, "wwn-0x5000c500a1b2c3d4", id, &out);
	tw_tracker_free(&t);
	tw_view_free(&out);
	tw_view_free(&v);
	make_view(&v, 30, 300, 60);
	v.disks[0].col[TW_OID_DISK_WRITE_OPS] = 90000;
	judge_reqlat(&c.reqlat_warn, &c.reqlat_crit, &c.reqlat_write_warn,
	    &c.reqlat_write_crit, &v, &v.disks[0], 99, &j);
	reqlat_verdicts(&v.disks[0], &j, 60, 99, &verdicts);
	ck_assert(verdicts.has_read && verdicts.has_write);
	for (i = 0; i < verdicts.write.nfound; i++)
		if (verdicts.write.found[i].sym == TW_SYM_WRITE_LATENCY) {
			ck_assert_ptr_nonnull(strstr(verdicts.write.found[i].evidence, "write p99 300 ms"));
			writes++;
		}
	ck_assert_int_eq(writes, 1);
	tw_view_free(&v);
}
END_TEST

/* test_few_requests's counts on either side of a p99's 1000 requests,
 * at queue depth 0.08: sdb's reads, then its writes. */
static const struct {
	double read_ms;
	uint64_t reads;
	double write_ms;
	uint64_t writes;
	size_t findings;		/* 0 or 1 */
	enum tw_symptom sym;		/* the finding's */
	int severity;			/* -1: not asserted */
	const char *evidence;		/* in the finding's, or NULL */
} few_counts[] = {
	{ 35.8, 999, 0, 0, 0, 0, -1, NULL },
	{ 35.8, 1000, 0, 0, 1, TW_SYM_READ_LATENCY_QUEUE, TW_STATE_WARNING,
	    "sdb read p99 35.8 ms at queue depth 0.08" },
	{ 1, 1000, 300, 500, 0, 0, -1, NULL },
	{ 1, 1000, 300, 1000, 1, TW_SYM_WRITE_LATENCY, -1, NULL },
};

/* A p99 of 250 reads is their third slowest: at queue depth 0.08, the
 * figures of the lab's healthy-gzip finding at 56709ce ("vda read p99
 * 35.8 ms at queue depth 0.08: the device itself is slow"), it is not
 * judged; from 1000 reads it is. (Issue 32; that gzip's own window, as
 * measured later, held 1678 reads: this rule alone does not quiet it.)
 * The figure itself is still published. */
START_TEST(test_few_requests)
{
	struct tw_judge_config c;
	struct tw_reqlat_judgement j;
	struct tw_view v;
	struct seen s = { .n = 0 };
	size_t i;

	tw_judge_defaults(&c);
	set_objective(&c);
	make_view_of(&v, 35.8, 250, 0, 0, 0.08);
	v.disks[0].col[TW_OID_DISK_READ_OPS] = 2500;	/* 25 a second, in hundredths */
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	ck_assert_msg(s.n == 0, "a p99 of 250 reads judged: %s", s.n > 0 ? s.o[0].evidence : "");
	/* As check_disklatency --percentile 99 judges it: the figure is
	 * there, the verdict is not. */
	ck_assert_int_eq(judge_reqlat(&c.reqlat_warn, &c.reqlat_crit, &c.reqlat_write_warn,
	    &c.reqlat_write_crit, &v, &v.disks[0], 99, &j), 1);
	ck_assert_ptr_nonnull(j.rrow);
	ck_assert(j.rrow->p99_ms > 35.7 && j.rrow->p99_ms < 35.9);
	ck_assert_int_eq(j.have_read, 0);
	ck_assert_int_eq(j.worst, TW_STATE_OK);
	/* Its p90 from the same 250 is judged (100 needed). */
	ck_assert_uint_eq(tw_judge_reqlat_min_requests(99), 1000);
	ck_assert_uint_eq(tw_judge_reqlat_min_requests(90), 100);
	ck_assert_uint_eq(tw_judge_reqlat_min_requests(50), 20);
	tw_view_free(&v);
	/* 999 reads: still too few; 1000: judged, and the slow tail is kept.
	 * Writes alike: 300 ms from 500 writes is not judged, from 1000 it is. */
	for (i = 0; i < sizeof(few_counts) / sizeof(few_counts[0]); i++) {
		make_view_of(&v, few_counts[i].read_ms, few_counts[i].reads, few_counts[i].write_ms,
		    few_counts[i].writes, 0.08);
		s.n = 0;
		ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
		ck_assert_msg(s.n == few_counts[i].findings, "case %zu: %zu findings", i, s.n);
		if (few_counts[i].findings > 0)
			ck_assert_int_eq(s.o[0].sym, few_counts[i].sym);
		if (few_counts[i].severity >= 0)
			ck_assert_int_eq(s.o[0].severity, few_counts[i].severity);
		if (few_counts[i].evidence != NULL)
			ck_assert_ptr_nonnull(strstr(s.o[0].evidence, few_counts[i].evidence));
		tw_view_free(&v);
	}
}
END_TEST

/* minOps (check_disklatency --min-ops) leaves a device doing fewer
 * requests a second out of the percentile's verdict, as out of r_await's:
 * 1000 reads and 5 writes in 10 s are 100.5 a second. */
START_TEST(test_min_ops)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };

	tw_judge_defaults(&c);
	set_objective(&c);
	c.min_ops = 101;
	make_view(&v, 60, 0, 1);
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	ck_assert_msg(s.n == 0, "judged under minOps: %s", s.n > 0 ? s.o[0].evidence : "");
	c.min_ops = 100;
	s.n = 0;
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_int_eq(s.o[0].sym, TW_SYM_READ_LATENCY_QUEUE);
	tw_view_free(&v);
}
END_TEST

/* tunewatchd's findings and check_disklatency --percentile 99 (which
 * calls tw_judge_reqlat with its -w, -c and --min-ops, reqlatcheck.c)
 * agree, the objective set alike, on either side of both rules: a
 * finding exactly when the check's judgement is not OK. */
START_TEST(test_agent_agrees_with_check)
{
	static const uint64_t counts[] = { 100, 250, 999, 1000, 5000 };
	static const double p99s[] = { 10, 35.8, 60 };
	static const double min_ops[] = { 0, 100, 101, 600 };
	struct tw_judge_config c;
	struct tw_reqlat_judgement j;
	struct tw_view v;
	struct seen s;
	size_t i, k, m;
	int pages = 0, quiet = 0;

	tw_judge_defaults(&c);
	set_objective(&c);
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		for (k = 0; k < sizeof(p99s) / sizeof(p99s[0]); k++)
			for (m = 0; m < sizeof(min_ops) / sizeof(min_ops[0]); m++) {
				make_view_of(&v, p99s[k], counts[i], 0, 0, 0.08);
				c.min_ops = min_ops[m];
				s.n = 0;
				ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
				tw_judge_reqlat_records(&v, 8, 16, &judged_records);
				ck_assert_int_eq(tw_judge_reqlat(&c.reqlat_warn, &c.reqlat_crit,
				    &c.reqlat_write_warn, &c.reqlat_write_crit, &judged_records, 99, INFINITY,
				    c.min_ops, &j), 1);
				ck_assert_msg((s.n > 0) == (j.worst != TW_STATE_OK),
				    "%llu reads, p99 %.1f ms, minOps %.0f: %zu findings, the check %s",
				    (unsigned long long)counts[i], p99s[k], min_ops[m], s.n,
				    tw_state_name(j.worst));
				pages += s.n > 0;
				quiet += s.n == 0;
				tw_view_free(&v);
			}
	/* Both sides of the rules were met. */
	ck_assert_int_gt(pages, 0);
	ck_assert_int_gt(quiet, 0);
}
END_TEST

/* A percentile of every request is a site's service objective, not a
 * default one machine's tail can defend: at the defaults tunewatchd raises
 * nothing from it, as check_disklatency judges it only with --percentile
 * (its default judges r_await). The figures are the lab's healthy-gzip
 * (issue 32, tests/lab/run.py --quick --only healthy_gzip, 15:55 UTC
 * 2026-12-07): vda's read p99 26.11 ms from 5812 reads in the window at
 * queue depth 0.68, a finding when the percentile borrowed r_await's
 * 20 ms. Set in tunewatchd.conf, it is judged as the check judges it with
 * --percentile 99 -w 20 -c 50: one verdict, reads and writes alike. */
START_TEST(test_objective_only_when_set)
{
	struct tw_judge_config c;
	struct tw_threshold w, cr;
	struct tw_reqlat_judgement j;
	struct tw_disk_judgement dj;
	struct tw_disk_record f;
	struct tw_disk_verdicts dv;
	struct tw_view v;
	struct seen s = { .n = 0 };
	size_t i;
	int reads = 0, writes = 0;

	tw_judge_defaults(&c);
	ck_assert(!c.reqlat_warn.set && !c.reqlat_crit.set);
	ck_assert(!c.reqlat_write_warn.set && !c.reqlat_write_crit.set);
	make_view_of(&v, 26.11, 5812, 120, 2000, 0.68);
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	ck_assert_msg(s.n == 0, "a percentile judged at the defaults: %s",
	    s.n > 0 ? s.o[0].evidence : "");
	/* The shared judge without an objective: the figures, no verdict. */
	ck_assert_int_eq(judge_reqlat(&c.reqlat_warn, &c.reqlat_crit, &c.reqlat_write_warn,
	    &c.reqlat_write_crit, &v, &v.disks[0], 99, &j), 1);
	ck_assert_ptr_nonnull(j.rrow);
	ck_assert_ptr_nonnull(j.wrow);
	ck_assert(j.rrow->p99_ms > 26.1 && j.rrow->p99_ms < 26.12);
	ck_assert_int_eq(j.have_read, 0);
	ck_assert_int_eq(j.have_write, 0);
	ck_assert_int_eq(j.worst, TW_STATE_OK);
	/* check_disklatency at its defaults judges r_await (2 ms): OK. */
	ck_assert_int_eq(tw_judge_disk_row(&c, &v.disks[0], tw_judge_dirty_limited(&v), 10, 1, &f,
	    &dj, &dv), 1);
	ck_assert_int_eq(dj.worst, TW_STATE_OK);

	/* The objective set: a finding of each direction in tunewatchd ... */
	set_objective(&c);
	s.n = 0;
	ck_assert_int_eq(tw_observe(&c, &v, 10, TW_OS_LINUX, collect, &s), 0);
	for (i = 0; i < s.n; i++) {
		ck_assert_int_eq(s.o[i].severity, TW_STATE_WARNING);
		reads += strstr(s.o[i].evidence, "sdb read p99 26.1 ms") != NULL;
		writes += strstr(s.o[i].evidence, "write p99 120 ms") != NULL;
	}
	ck_assert_msg(reads == 1 && writes == 1, "%zu findings: %s", s.n,
	    s.n > 0 ? s.o[0].evidence : "");
	/* ... and WARNING in check_disklatency --percentile 99 -w 20 -c 50,
	 * its writes at its --write-warning and --write-critical (50, 200). */
	ck_assert_int_eq(tw_threshold_parse(&w, "20"), TW_OK);
	ck_assert_int_eq(tw_threshold_parse(&cr, "50"), TW_OK);
	ck_assert_int_eq(judge_reqlat(&w, &cr, &c.write_warn, &c.write_crit, &v, &v.disks[0], 99,
	    &j), 1);
	ck_assert_int_eq(j.have_read, 1);
	ck_assert_int_eq(j.read, TW_STATE_WARNING);
	ck_assert_int_eq(j.have_write, 1);
	ck_assert_int_eq(j.write, TW_STATE_WARNING);
	tw_view_free(&v);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("finding_reqlat");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_judge);
	tcase_add_test(tc, test_no_knob);
	tcase_add_test(tc, test_tracked);
	tcase_add_test(tc, test_few_requests);
	tcase_add_test(tc, test_min_ops);
	tcase_add_test(tc, test_agent_agrees_with_check);
	tcase_add_test(tc, test_objective_only_when_set);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
