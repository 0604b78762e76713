/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge_reqlat.h"

#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/sorted.h"

struct reqlat_at {
	const struct tw_view_reqlat *rows;
	uint64_t dev;		/* major << 32 | minor */
	uint32_t dir;
};

/* The rows are sorted by (major, minor, direction), as the table walks. */
static int
row_before(const void *ctx, size_t i)
{
	const struct reqlat_at *at = ctx;
	const struct tw_view_reqlat *r = &at->rows[i];
	uint64_t dev = (uint64_t)r->major << 32 | r->minor;

	return dev < at->dev || (dev == at->dev && r->dir < at->dir);
}

const struct tw_view_reqlat *
tw_judge_reqlat_row(const struct tw_view *v, uint32_t major, uint32_t minor, uint32_t dir)
{
	struct reqlat_at at = { v->reqlats, (uint64_t)major << 32 | minor, dir };
	size_t i = tw_sorted_first(v->nreqlats, row_before, &at);
	const struct tw_view_reqlat *r = i < v->nreqlats ? &v->reqlats[i] : NULL;

	return r != NULL && r->major == major && r->minor == minor && r->dir == dir ? r : NULL;
}

void
tw_judge_reqlat_records(const struct tw_view *v, uint32_t major, uint32_t minor,
    struct tw_reqlat_records *p)
{
	const struct tw_view_reqlat *r = tw_judge_reqlat_row(v, major, minor, TW_REQLAT_DIR_READ);
	const struct tw_view_reqlat *w = tw_judge_reqlat_row(v, major, minor, TW_REQLAT_DIR_WRITE);

	p->r = p->w = NULL;
	if (r != NULL) {
		tw_view_reqlat_record(r, &p->read);
		p->r = &p->read;
	}
	if (w != NULL) {
		tw_view_reqlat_record(w, &p->write);
		p->w = &p->write;
	}
}

unsigned long long
tw_judge_reqlat_min_requests(unsigned percentile)
{
	/* The percentiles tw_reqlat_record_percentile gives: 50, 90, else 99. */
	unsigned above = percentile == 50 ? 50 : percentile == 90 ? 10 : 1;

	return TW_JUDGE_REQLAT_ABOVE * ((100ULL + above - 1) / above);
}

/* Whether row r has its percentile from enough requests to judge. */
static int
judged(const struct tw_reqlat_record *r, unsigned percentile)
{
	return r != NULL && tw_fig_has(tw_reqlat_record_percentile(r, percentile)) &&
	    tw_fig_has(r->requests) && r->requests >= (double)tw_judge_reqlat_min_requests(percentile);
}

/* Whether a direction has an objective: either threshold set. */
static int
objective(const struct tw_threshold *warn, const struct tw_threshold *crit)
{
	return (warn != NULL && warn->set) || (crit != NULL && crit->set);
}

/* The timed requests a second of a disk's rows, 0 when unknown. */
static double
ops_per_s(const struct tw_reqlat_record *r, const struct tw_reqlat_record *w)
{
	double n = 0, ms = 0;

	if (r != NULL && tw_fig_has(r->requests) && tw_fig_has(r->window_ms)) {
		n += r->requests;
		ms = r->window_ms;
	}
	if (w != NULL && tw_fig_has(w->requests) && tw_fig_has(w->window_ms)) {
		n += w->requests;
		ms = w->window_ms > ms ? w->window_ms : ms;
	}
	return ms > 0 ? n * 1000.0 / ms : 0;
}

int
tw_judge_reqlat(const struct tw_threshold *rw, const struct tw_threshold *rc,
    const struct tw_threshold *ww, const struct tw_threshold *wc,
    const struct tw_reqlat_records *p, unsigned percentile, double write_bound, double min_ops,
    struct tw_reqlat_judgement *j)
{
	memset(j, 0, sizeof(*j));
	j->rrow = p->r;
	j->wrow = p->w;
	if (j->rrow == NULL && j->wrow == NULL)
		return 0;
	/* As r_await's (tw_judge_disk): a disk below min_ops is OK. */
	j->ops_s = ops_per_s(j->rrow, j->wrow);
	if (min_ops > 0 && j->ops_s < min_ops) {
		j->few_ops = 1;
		return 1;
	}
	if (objective(rw, rc) && judged(j->rrow, percentile)) {
		j->have_read = 1;
		j->read_ms = tw_reqlat_record_percentile(j->rrow, percentile);
		j->read = tw_threshold_state(j->read_ms, rw, rc);
	}
	if (objective(ww, wc) && judged(j->wrow, percentile)) {
		j->have_write = 1;
		j->write_ms = tw_reqlat_record_percentile(j->wrow, percentile);
		j->write = tw_threshold_state(j->write_ms < write_bound ? j->write_ms : write_bound,
		    ww, wc);
	}
	j->worst = tw_state_worst(j->read, j->write);
	return 1;
}

void
tw_judge_reqlat_verdicts(const struct tw_disk_record *d, const struct tw_reqlat_judgement *j,
    unsigned window_s, unsigned percentile, struct tw_disk_verdicts *out)
{
	char rn[24], wn[24];
	struct tw_disk_evidence f = { .rec = d, .r_name = rn, .w_name = wn,
		.r_pct_ms = j->read_ms, .w_pct_ms = j->write_ms, .window_s = window_s,
		.writers_held = j->writers_held };

	memset(out, 0, sizeof(*out));
	snprintf(rn, sizeof(rn), "read p%u", percentile);
	snprintf(wn, sizeof(wn), "write p%u", percentile);
	if (j->read != TW_STATE_OK && tw_evidence_disk_read(&f, &out->read) == TW_OK)
		out->has_read = 1;
	if (j->write != TW_STATE_OK && tw_evidence_disk_write(&f, &out->write) == TW_OK) {
		out->has_write = 1;
		/* A full queue is one finding, as for r_await and w_await. */
		if (out->has_read) {
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
}
