/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge.h"

#include <string.h>

#include "util/error.h"
#include "view/columns.h"

/* tw_view_num() of one disk column, with the table's group found once:
 * tunewatchd judges every disk on every sample (10,000 of them in
 * bench/). */
static double
fig(const struct tw_column_group *g, const struct tw_view_disk *d, unsigned col)
{
	return tw_view_has(d, col) ? tw_column_decode(&g->cols[col], d->col[col]) : 0.0;
}

int
tw_judge_disk(const struct tw_judge_config *c, const struct tw_view_disk *d,
    struct tw_disk_judgement *j)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_DISK_TABLE);
	double rops, wops;

	memset(j, 0, sizeof(*j));
	if (!tw_view_has(d, TW_OID_DISK_READ_LATENCY))
		return 0;
	j->r_await = fig(g, d, TW_OID_DISK_READ_LATENCY);
	j->w_await = fig(g, d, TW_OID_DISK_WRITE_LATENCY);
	j->queue_depth = fig(g, d, TW_OID_DISK_QUEUE_DEPTH);
	j->util_pct = fig(g, d, TW_OID_DISK_UTIL);
	rops = fig(g, d, TW_OID_DISK_READ_OPS);
	wops = fig(g, d, TW_OID_DISK_WRITE_OPS);
	/* Latency over a handful of I/Os says little: min_ops leaves such
	 * devices out of the latency verdict. */
	if (rops + wops >= c->min_ops) {
		j->read = tw_threshold_state(j->r_await, &c->read_warn, &c->read_crit);
		j->write = tw_threshold_state(j->w_await, &c->write_warn, &c->write_crit);
	}
	j->queue = tw_threshold_state(j->queue_depth, &c->queue_warn, &c->queue_crit);
	j->util = tw_threshold_state(j->util_pct, &c->util_warn, &c->util_crit);
	j->worst = tw_state_worst(tw_state_worst(j->read, j->write),
	    tw_state_worst(j->queue, j->util));
	return 1;
}

void
tw_judge_disk_figures(const struct tw_view_disk *d, unsigned window_s, struct tw_disk_figures *f)
{
	memset(f, 0, sizeof(*f));
	f->name = d->name;
	f->r_await = tw_view_num(d, TW_OID_DISK_READ_LATENCY);
	f->w_await = tw_view_num(d, TW_OID_DISK_WRITE_LATENCY);
	f->queue = tw_view_num(d, TW_OID_DISK_QUEUE_DEPTH);
	f->rops = tw_view_num(d, TW_OID_DISK_READ_OPS);
	f->wops = tw_view_num(d, TW_OID_DISK_WRITE_OPS);
	f->read_bytes_s = tw_view_has(d, TW_OID_DISK_READ_RATE) ?
	    tw_view_num(d, TW_OID_DISK_READ_RATE) : -1;
	f->rotational = !tw_view_has(d, TW_OID_DISK_ROTATIONAL) ? -1 :
	    d->col[TW_OID_DISK_ROTATIONAL] == 1 ? 1 : d->col[TW_OID_DISK_ROTATIONAL] == 2 ? 0 : -1;
	f->scheduler = tw_view_has(d, TW_OID_DISK_SCHEDULER) ? d->scheduler : NULL;
	f->nr_requests = tw_view_has(d, TW_OID_DISK_NR_REQUESTS) ?
	    (int64_t)d->col[TW_OID_DISK_NR_REQUESTS] : -1;
	f->read_ahead_kb = tw_view_has(d, TW_OID_DISK_READ_AHEAD_KB) ?
	    (int64_t)d->col[TW_OID_DISK_READ_AHEAD_KB] : -1;
	f->window_s = window_s;
}

void
tw_judge_disk_verdicts(const struct tw_view_disk *d, const struct tw_disk_judgement *j,
    unsigned window_s, struct tw_disk_verdicts *out)
{
	struct tw_disk_figures f;
	int read_bad = j->read != TW_STATE_OK || j->queue != TW_STATE_OK;

	memset(out, 0, sizeof(*out));
	if (j->worst == TW_STATE_OK)
		return;
	tw_judge_disk_figures(d, window_s, &f);
	if (read_bad && tw_evidence_disk_read(&f, &out->read) == TW_OK)
		out->has_read = 1;
	if (j->write != TW_STATE_OK && tw_evidence_disk_write(&f, &out->write) == TW_OK) {
		out->has_write = 1;
		/* A full queue is one finding, whether reads or writes showed
		 * it: the read side has it already. */
		if (read_bad) {
			struct tw_verdict *w = &out->write;
			size_t i, n = 0;

			for (i = 0; i < w->nfound; i++)
				if (w->found[i].sym != TW_SYM_QUEUE_FULL)
					w->found[n++] = w->found[i];
			if (n == 0 && w->nfound > 0)
				out->has_write = 0;
			w->nfound = n;
		}
	}
	out->util_only = j->util != TW_STATE_OK && j->read == TW_STATE_OK &&
	    j->write == TW_STATE_OK && j->queue == TW_STATE_OK;
}
