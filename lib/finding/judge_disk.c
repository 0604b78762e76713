/* SPDX-License-Identifier: ISC */
/* A disk is judged on its record (figures/disk_record.h), decoded once from its
 * row: tunewatchd judges every disk on every sample (10,000 of them in
 * bench/). */
#include "config.h"

#include "finding/judge.h"

#include <math.h>
#include <string.h>

#include "util/error.h"
#include "view/record_cache.h"

double
tw_judge_write_bound(const struct tw_disk_record *d, double dirty_limited)
{
	double ops = tw_fig_or0(d->read_ops_s) + tw_fig_or0(d->write_ops_s);

	if (!tw_fig_has(dirty_limited) || dirty_limited >= TW_JUDGE_WRITERS_HELD)
		return INFINITY;
	if (!tw_fig_has(d->util_pct) || ops <= 0)
		return 0;
	/* Percent of each second busy, over the requests of that second. */
	return d->util_pct * 10.0 / ops;
}

double
tw_judge_dirty_limited(const struct tw_view *v)
{
	struct tw_cache_record bc;

	tw_view_cache_record(&v->bc, &bc);
	return bc.dirty_limited_pct;
}

int
tw_judge_disk(const struct tw_judge_config *c, const struct tw_disk_record *d, double write_bound,
    struct tw_disk_judgement *j)
{
	double rops, wops;

	memset(j, 0, sizeof(*j));
	if (!tw_fig_has(d->r_await_ms))
		return 0;
	j->r_await = d->r_await_ms;
	j->w_await = tw_fig_or0(d->w_await_ms);
	j->queue_depth = tw_fig_or0(d->queue_depth);
	j->util_pct = tw_fig_or0(d->util_pct);
	rops = tw_fig_or0(d->read_ops_s);
	wops = tw_fig_or0(d->write_ops_s);
	/* Latency over a handful of I/Os says little: min_ops leaves such
	 * devices out of the latency verdict. */
	if (rops + wops >= c->min_ops) {
		j->read = tw_threshold_state(j->r_await, &c->read_warn, &c->read_crit);
		j->w_judged = j->w_await < write_bound ? j->w_await : write_bound;
		j->write = tw_threshold_state(j->w_judged, &c->write_warn, &c->write_crit);
	}
	j->queue = tw_threshold_state(j->queue_depth, &c->queue_warn, &c->queue_crit);
	j->util = tw_threshold_state(j->util_pct, &c->util_warn, &c->util_crit);
	j->worst = tw_state_worst(tw_state_worst(j->read, j->write),
	    tw_state_worst(j->queue, j->util));
	return 1;
}

void
tw_judge_disk_verdicts(const struct tw_disk_record *d, const struct tw_disk_judgement *j,
    unsigned window_s, struct tw_disk_verdicts *out)
{
	struct tw_disk_evidence f = { .rec = d, .window_s = window_s,
		.writers_held = j->writers_held };
	int read_bad = j->read != TW_STATE_OK || j->queue != TW_STATE_OK;

	memset(out, 0, sizeof(*out));
	if (j->worst == TW_STATE_OK)
		return;
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
