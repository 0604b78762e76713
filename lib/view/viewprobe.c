/* SPDX-License-Identifier: ISC */
/* twProbeTable in the view: the probe set's figures, in the MIB's units.
 * A percentile the window has too few reads for is absent (histogram.h
 * says how many each needs), and so are min, max and mean without reads:
 * never a made-up zero. */
#include "config.h"

#include "probe/probeset.h"
#include "util/array.h"
#include "util/error.h"
#include "view/build_priv.h"

static void
put(struct tw_view_probe *vp, unsigned c, uint64_t value)
{
	const struct tw_column *tc = tw_column(TW_OID_PROBE_TABLE, c);

	vp->col[c] = value > tc->max ? tc->max : value;
	vp->has |= TW_VIEW_BIT(c);
}

/* A latency in microseconds; the column keeps microseconds. */
static void
put_us(struct tw_view_probe *vp, unsigned c, uint64_t us)
{
	const struct tw_column *tc = tw_column(TW_OID_PROBE_TABLE, c);

	put(vp, c, tw_column_encode(tc, (double)us / 1000.0));
}

static void
build_probe(struct tw_view_probe *vp, const struct tw_probe_row *row)
{
	static const struct {
		unsigned col;
		double p;
	} pct[] = {
		{ TW_OID_PROBE_P50, 50 }, { TW_OID_PROBE_P90, 90 }, { TW_OID_PROBE_P99, 99 },
	};
	const struct tw_probe_report *r = &row->r;
	uint64_t us;
	size_t i;

	memset(vp, 0, sizeof(*vp));
	vp->major = row->major;
	vp->minor = row->minor;
	tw_escape_copy(vp->device, sizeof(vp->device), row->name);
	tw_escape_copy(vp->state, sizeof(vp->state), tw_probe_state_name(r->state));
	tw_escape_copy(vp->reason, sizeof(vp->reason), r->reason);
	vp->has = TW_VIEW_BIT(TW_OID_PROBE_DEVICE) | TW_VIEW_BIT(TW_OID_PROBE_STATE) |
	    TW_VIEW_BIT(TW_OID_PROBE_REASON);
	put(vp, TW_OID_PROBE_RATE, r->rate);
	if (r->read_size > 0)
		put(vp, TW_OID_PROBE_READ_SIZE, r->read_size);
	put(vp, TW_OID_PROBE_WINDOW, r->window_ms);
	put(vp, TW_OID_PROBE_COUNT, r->hist.count);
	put(vp, TW_OID_PROBE_TIMEOUTS, r->timeouts);
	put(vp, TW_OID_PROBE_MISSED, r->missed);
	put(vp, TW_OID_PROBE_ERRORS, r->errors);
	if (r->hist.count == 0)
		return;
	put_us(vp, TW_OID_PROBE_MIN, r->hist.min_us);
	put_us(vp, TW_OID_PROBE_MAX, r->hist.max_us);
	put_us(vp, TW_OID_PROBE_MEAN, (r->hist.sum_us + r->hist.count / 2) / r->hist.count);
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		if (tw_hist_percentile(&r->hist, pct[i].p, &us))
			put_us(vp, pct[i].col, us);
}

int
tw_view_build_probes(struct tw_view *v, const struct tw_probe_row *rows, size_t n)
{
	size_t i;
	int rc;

	if ((rc = tw_view_reserve_probes(v, n)) != TW_OK)
		return rc;
	for (i = 0; i < n; i++)
		build_probe(&v->probes[i], &rows[i]);
	v->nprobes = n;
	return TW_OK;
}

