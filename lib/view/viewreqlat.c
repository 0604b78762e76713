/* SPDX-License-Identifier: ISC */
/* twReqLatTable, twReqHistTable and the twAgentReqLat* scalars in the
 * view: the request-latency window's figures in the MIB's units, for the
 * disks of the view only, so that a disk's rows leave with its disk row.
 * A percentile the window has too few requests for is absent
 * (histogram.h says how many each needs), and so are max and mean without
 * requests: never a made-up zero. */
#include "config.h"

#include "util/array.h"
#include "util/error.h"
#include "reqlat/reqwin.h"
#include "util/escape.h"
#include "util/strwriter.h"
#include "view/columns.h"
#include "view/view.h"
#include "view/build_priv.h"

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
put(struct tw_view_reqlat *r, unsigned c, uint64_t value)
{
	const struct tw_column *tc = tw_column(TW_OID_REQLAT_TABLE, c);

	r->col[c] = value > tc->max ? tc->max : value;
	r->has |= TW_VIEW_BIT(c);
}

/* A time in microseconds; the column keeps microseconds. */
static void
put_us(struct tw_view_reqlat *r, unsigned c, uint64_t us)
{
	put(r, c, tw_column_encode(tw_column(TW_OID_REQLAT_TABLE, c), (double)us / 1000.0));
}

static void
percentiles(struct tw_view_reqlat *r, const struct tw_hist *h, const unsigned *cols,
    size_t ncols, const double *pcs)
{
	uint64_t us;
	size_t i;

	for (i = 0; i < ncols; i++)
		if (tw_hist_percentile(h, pcs[i], &us))
			put_us(r, cols[i], us);
}

static void
build_row(struct tw_view_reqlat *r, const struct tw_view_disk *d, unsigned dir,
    const struct tw_hist *service, const struct tw_hist *queue, uint64_t cov_ms,
    uint64_t total)
{
	static const double pcs[] = { 50, 90, 99 };
	static const unsigned svc_cols[] = { TW_OID_REQLAT_P50, TW_OID_REQLAT_P90,
	    TW_OID_REQLAT_P99 };
	static const unsigned queue_cols[] = { TW_OID_REQLAT_QUEUE_P50,
	    TW_OID_REQLAT_QUEUE_P90, TW_OID_REQLAT_QUEUE_P99 };

	memset(r, 0, sizeof(*r));
	r->major = d->major;
	r->minor = d->minor;
	r->dir = dir == TW_REQLAT_READ ? TW_REQLAT_DIR_READ : TW_REQLAT_DIR_WRITE;
	/* The disk's shown name; a cut falls at a character's boundary. */
	(void)tw_escape_copy(r->device, sizeof(r->device), d->name);
	r->has = TW_VIEW_BIT(TW_OID_REQLAT_DEVICE);
	put(r, TW_OID_REQLAT_WINDOW, cov_ms);
	put(r, TW_OID_REQLAT_COUNT, service->count);
	put(r, TW_OID_REQLAT_QUEUED, queue->count);
	put(r, TW_OID_REQLAT_TOTAL, total);
	if (service->count > 0) {
		put_us(r, TW_OID_REQLAT_MAX, service->max_us);
		put_us(r, TW_OID_REQLAT_MEAN, (service->sum_us + service->count / 2) /
		    service->count);
		percentiles(r, service, svc_cols, 3, pcs);
	}
	if (queue->count > 0) {
		put_us(r, TW_OID_REQLAT_QUEUE_MAX, queue->max_us);
		percentiles(r, queue, queue_cols, 3, pcs);
	}
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

static void
put_agent(struct tw_view_agent *a, const char *state, const char *reason)
{
	tw_str_copy_cut(a->reqlat_state, sizeof(a->reqlat_state), state);
	tw_str_copy_cut(a->reqlat_reason, sizeof(a->reqlat_reason), reason);
	a->has |= TW_VIEW_BIT(TW_OID_AGENT_REQLAT_STATE) | TW_VIEW_BIT(TW_OID_AGENT_REQLAT_REASON);
}

int
tw_view_build_reqlat(struct tw_view *v, const struct tw_reqwin *rw, const char *state,
    const char *reason, int timing)
{
	struct tw_hist service, queue;
	uint64_t cov, total, qcov, qtotal;
	size_t i;
	unsigned dir;
	int rc;

	v->nreqlats = 0;
	v->nreqhists = 0;
	put_agent(&v->agent, state, reason);
	if (!timing)
		return TW_OK;
	v->agent.col[TW_OID_AGENT_REQLAT_LOST] = rw->lost;
	v->agent.has |= TW_VIEW_BIT(TW_OID_AGENT_REQLAT_LOST);
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

