/* SPDX-License-Identifier: ISC */
/* Judgement of the distribution of every request (twReqLatTable): a
 * disk's read and write percentile against their thresholds, as
 * check_disklatency --percentile and tunewatchd's findings judge it, and
 * the verdicts of slow r_await and w_await on those figures. */
#ifndef TW_FINDING_JUDGE_REQLAT_H
#define TW_FINDING_JUDGE_REQLAT_H

#include "finding/judge.h"
#include "view/record_reqlat.h"

/* A disk's two rows as records: r and w point at read and write, or are
 * NULL where the view has no such row. */
struct tw_reqlat_records {
	struct tw_reqlat_record read, write;
	const struct tw_reqlat_record *r, *w;
};

struct tw_reqlat_judgement {
	const struct tw_reqlat_record *rrow, *wrow;	/* NULL: no row */
	int have_read, have_write, writers_held;	/* held: set by the caller */
	int few_ops;		/* fewer requests a second than min_ops: none judged */
	double ops_s;		/* the rows' requests a second, 0 when unknown */
	double read_ms, write_ms;
	enum tw_state read, write, worst;
};

/* The row of v's twReqLatTable for a disk and direction
 * (TW_REQLAT_DIR_READ or _WRITE), or NULL. */
const struct tw_view_reqlat *tw_judge_reqlat_row(const struct tw_view *v, uint32_t major,
    uint32_t minor, uint32_t dir);

/* The rows of v's twReqLatTable for disk (major, minor), decoded into p
 * (each once). */
void tw_judge_reqlat_records(const struct tw_view *v, uint32_t major, uint32_t minor,
    struct tw_reqlat_records *p);

/* The fewest requests in the window a direction's percentile is judged
 * from: TW_JUDGE_REQLAT_ABOVE times the fewest it is given for
 * (tw_hist_min_count: one request above it), so 1000 for p99, 100 for p90
 * and 20 for p50. With n requests, how many lie above the true p99 is
 * binomial, 0.01 n +- sqrt(0.01 n): from 100 (1 +- 1) the figure is the
 * second slowest request, anything from the true p97 to the maximum, and
 * one straggler sets it; from 1000 (10 +- 3) it lies between about the
 * true p98.4 and p99.6. In the lab's healthy-write (issue 32,
 * tests/lab/run.py --quick --only healthy_write, 15:49 UTC 2026-12-07)
 * vda's "read p99" was 100 ms from 382 reads in the 10 s window while it
 * wrote 1 GiB: not judged now, critical before. (Healthy gzip's window
 * held 1678 reads: this rule does not quiet it.) The figure itself is
 * published from one above (twReqLatTable); only the
 * verdict waits for ten. */
#define TW_JUDGE_REQLAT_ABOVE 10

unsigned long long tw_judge_reqlat_min_requests(unsigned percentile);

/* Judge a disk's reads (p->r) against rw and rc and its writes (p->w)
 * against ww and wc, at percentile, the writes' up to write_bound
 * (tw_judge_write_bound). A direction with neither threshold set, without
 * the percentile, with fewer requests in the window than
 * tw_judge_reqlat_min_requests, or without a row is OK and not judged
 * (have_* 0): an idle disk is no symptom, and a few slow requests are no
 * tail. A percentile of every request is a site's service objective, not
 * a default that one machine's tail can defend (a mean such as r_await's
 * 20 ms is no bound on a p99: the lab's healthy gzip, issue 32, had vda's
 * read p99 at 21-26 ms from 1678-5812 reads beside others' I/O), so
 * tw_judge_defaults sets none: tunewatchd judges it only when its
 * requestLatency*Warning or *Critical are set, check_disklatency only with
 * --percentile, against its -w and -c. So is the whole disk when its timed
 * reads and writes come to fewer than min_ops a second (minOps,
 * --min-ops; 0: any), as r_await is. Returns 0 when the disk has no row at
 * all (not timed), 1 otherwise. j points into p. */
int tw_judge_reqlat(const struct tw_threshold *rw, const struct tw_threshold *rc,
    const struct tw_threshold *ww, const struct tw_threshold *wc,
    const struct tw_reqlat_records *p, unsigned percentile, double write_bound, double min_ops,
    struct tw_reqlat_judgement *j);

/* The verdicts on slow requests of a judged disk: slow r_await's and
 * w_await's (tw_evidence_disk_read and _write), on the distribution's
 * figures, named "read p99" and "write p99". */
void tw_judge_reqlat_verdicts(const struct tw_disk_record *d, const struct tw_reqlat_judgement *j,
    unsigned window_s, unsigned percentile, struct tw_disk_verdicts *out);

#endif
