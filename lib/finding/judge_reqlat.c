/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge.h"

#include <stdio.h>
#include <string.h>

#include "util/error.h"

unsigned
tw_judge_reqlat_column(unsigned percentile)
{
	return percentile == 50 ? TW_OID_REQLAT_P50 : percentile == 90 ? TW_OID_REQLAT_P90 :
	    TW_OID_REQLAT_P99;
}

const struct tw_view_reqlat *
tw_judge_reqlat_row(const struct tw_view *v, uint32_t major, uint32_t minor, uint32_t dir)
{
	size_t lo = 0, hi = v->nreqlats;

	/* Sorted by (major, minor, direction), as the table walks. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct tw_view_reqlat *r = &v->reqlats[mid];
		uint64_t a = (uint64_t)r->major << 32 | r->minor, b = (uint64_t)major << 32 | minor;

		if (a < b || (a == b && r->dir < dir))
			lo = mid + 1;
		else if (a > b || r->dir > dir)
			hi = mid;
		else
			return r;
	}
	return NULL;
}

int
tw_judge_reqlat(const struct tw_threshold *rw, const struct tw_threshold *rc,
    const struct tw_threshold *ww, const struct tw_threshold *wc, const struct tw_view *v,
    const struct tw_view_disk *d, unsigned percentile, struct tw_reqlat_judgement *j)
{
	unsigned col = tw_judge_reqlat_column(percentile);

	memset(j, 0, sizeof(*j));
	j->rrow = tw_judge_reqlat_row(v, d->major, d->minor, TW_REQLAT_DIR_READ);
	j->wrow = tw_judge_reqlat_row(v, d->major, d->minor, TW_REQLAT_DIR_WRITE);
	if (j->rrow == NULL && j->wrow == NULL)
		return 0;
	if (j->rrow != NULL && tw_view_has(j->rrow, col)) {
		j->have_read = 1;
		j->read_ms = tw_view_num(j->rrow, col);
		j->read = tw_threshold_state(j->read_ms, rw, rc);
	}
	if (j->wrow != NULL && tw_view_has(j->wrow, col)) {
		j->have_write = 1;
		j->write_ms = tw_view_num(j->wrow, col);
		j->write = tw_threshold_state(j->write_ms, ww, wc);
	}
	j->worst = tw_state_worst(j->read, j->write);
	return 1;
}

void
tw_judge_reqlat_verdicts(const struct tw_view_disk *d, const struct tw_reqlat_judgement *j,
    unsigned window_s, unsigned percentile, struct tw_disk_verdicts *out)
{
	struct tw_disk_figures f;
	char rn[24], wn[24];

	memset(out, 0, sizeof(*out));
	tw_judge_disk_figures(d, window_s, &f);
	snprintf(rn, sizeof(rn), "read p%u", percentile);
	snprintf(wn, sizeof(wn), "write p%u", percentile);
	f.r_await = j->read_ms;
	f.w_await = j->write_ms;
	f.r_name = rn;
	f.w_name = wn;
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
