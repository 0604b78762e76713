/* SPDX-License-Identifier: ISC */
/* twReqLatTable and twReqHistTable in the view: each disk's and
 * direction's record (lib/derive/derive_reqlat.c) projected into the MIB's
 * numbers, and the histogram's ladder of bounds, for the disks of the view
 * only, so that a disk's rows leave with its disk row. */
#include "config.h"

#include "view/build_priv.h"

#include "derive/derive_reqlat.h"
#include "reqlat/reqwin.h"
#include "util/error.h"
#include "view/recordrow.h"

/* The edges of every fourth bucket above 16 us, and 1, 2, 4, 8 below:
 * steps of at most 1.25, each the upper edge of a tw_hist bucket. */
#define LADDER_LEN (5 + (TW_HIST_TOP_BIT - TW_HIST_SUB_BITS + 1) * 4 + 1)

static uint32_t ladder[LADDER_LEN];

static void
ladder_init(void)
{
	size_t n = 0;
	unsigned e, j;

	if (ladder[0] != 0)
		return;
	for (j = 1; j <= TW_HIST_SUB; j *= 2)
		ladder[n++] = j;
	for (e = TW_HIST_SUB_BITS; e <= TW_HIST_TOP_BIT; e++)
		for (j = 1; j <= 4; j++)
			ladder[n++] = (TW_HIST_SUB + j * TW_HIST_SUB / 4) << (e - TW_HIST_SUB_BITS);
	ladder[n++] = TW_REQHIST_INF;
}

const uint32_t *
tw_view_reqhist_bounds(size_t *n)
{
	ladder_init();
	*n = LADDER_LEN;
	return ladder;
}

static void
build_row(struct tw_view_reqlat *r, const struct tw_view_disk *d, unsigned dir,
    const struct tw_hist *service, const struct tw_hist *queue, uint64_t cov_ms,
    uint64_t total)
{
	struct tw_reqlat_record f;

	tw_derive_reqlat(d->major, d->minor, d->name,
	    dir == TW_REQLAT_READ ? TW_REQLAT_DIR_READ : TW_REQLAT_DIR_WRITE, service, queue,
	    cov_ms, total, &f);
	memset(r, 0, sizeof(*r));
	r->major = f.major;
	r->minor = f.minor;
	r->dir = f.dir;
	tw_recordrow_project(tw_vb_group(TW_OID_REQLAT_TABLE), &f, r);
}

/* The histogram's rows of one disk and direction: the ladder from the
 * highest bound below every request to the lowest above them all, and
 * +Inf. */
static int
build_hist(struct tw_view *v, const struct tw_view_reqlat *r, const struct tw_hist *h)
{
	uint64_t below = 0;
	unsigned b = 0;
	size_t i, first = 0, last = LADDER_LEN - 2;
	uint64_t cum[LADDER_LEN];
	int rc;

	ladder_init();
	for (i = 0; i + 1 < LADDER_LEN; i++) {
		for (; b < TW_HIST_BUCKETS; b++) {
			uint64_t lo, hi;

			tw_hist_bucket_range(b, &lo, &hi);
			if (hi + 1 > ladder[i])
				break;
			below += h->bucket[b];
		}
		cum[i] = below;
	}
	cum[LADDER_LEN - 1] = h->count;
	while (first + 1 < LADDER_LEN - 1 && cum[first + 1] == 0)
		first++;
	while (last > first && cum[last - 1] == h->count)
		last--;
	if ((rc = tw_view_reserve_reqhists(v, v->nreqhists + (last - first + 2))) != TW_OK)
		return rc;
	for (i = first; i < LADDER_LEN; i++) {
		struct tw_view_reqhist *row;

		if (i > last && i != LADDER_LEN - 1)
			continue;
		row = &v->reqhists[v->nreqhists++];
		memset(row, 0, sizeof(*row));
		row->major = r->major;
		row->minor = r->minor;
		row->dir = r->dir;
		row->bound = ladder[i];
		row->col[TW_OID_REQHIST_COUNT] = cum[i] > UINT32_MAX ? UINT32_MAX : cum[i];
		row->has = TW_VIEW_BIT(TW_OID_REQHIST_COUNT);
	}
	return TW_OK;
}

int
tw_view_build_reqlat(struct tw_view *v, const struct tw_reqwin *rw, int timing)
{
	struct tw_hist service, queue;
	uint64_t cov, total, qcov, qtotal;
	size_t i;
	unsigned dir;
	int rc;

	v->nreqlats = 0;
	v->nreqhists = 0;
	if (!timing)
		return TW_OK;
	if ((rc = tw_view_reserve_reqlats(v, 2 * rw->count)) != TW_OK)
		return rc;
	/* Both the disks and the window are sorted by (major, minor); so the
	 * rows come out in the table's order. */
	for (i = 0; i < v->ndisks; i++) {
		const struct tw_view_disk *d = &v->disks[i];

		for (dir = 0; dir < TW_REQLAT_NDIRS; dir++) {
			struct tw_view_reqlat *r = &v->reqlats[v->nreqlats];

			if (v->nreqlats == 2 * rw->count ||
			    !tw_reqwin_hist(rw, d->major, d->minor, dir, TW_REQLAT_SERVICE, &service,
			    &cov, &total))
				continue;
			(void)tw_reqwin_hist(rw, d->major, d->minor, dir, TW_REQLAT_QUEUE, &queue, &qcov,
			    &qtotal);
			build_row(r, d, dir, &service, &queue, cov, total);
			v->nreqlats++;
			if (service.count > 0 && (rc = build_hist(v, r, &service)) != TW_OK)
				return rc;
		}
	}
	return TW_OK;
}

