/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "probe/histogram.h"

#include <math.h>
#include <string.h>

void
tw_hist_init(struct tw_hist *h)
{
	memset(h, 0, sizeof(*h));
}

static unsigned
top_bit(uint64_t v)
{
	unsigned b = 0;

	while (v >>= 1)
		b++;
	return b;
}

unsigned
tw_hist_bucket(uint64_t us)
{
	unsigned e;

	if (us < TW_HIST_SUB)
		return (unsigned)us;
	if (us > TW_HIST_MAX_US)
		us = TW_HIST_MAX_US;
	e = top_bit(us);
	/* The TW_HIST_SUB_BITS bits below the top one pick the bucket within
	 * the octave. */
	return TW_HIST_SUB + (e - TW_HIST_SUB_BITS) * TW_HIST_SUB +
	    (unsigned)((us >> (e - TW_HIST_SUB_BITS)) - TW_HIST_SUB);
}

void
tw_hist_bucket_range(unsigned b, uint64_t *lo, uint64_t *hi)
{
	unsigned e, sub;

	if (b < TW_HIST_SUB) {
		*lo = *hi = b;
		return;
	}
	e = (b - TW_HIST_SUB) / TW_HIST_SUB + TW_HIST_SUB_BITS;
	sub = (b - TW_HIST_SUB) % TW_HIST_SUB;
	*lo = (uint64_t)(TW_HIST_SUB + sub) << (e - TW_HIST_SUB_BITS);
	*hi = *lo + (UINT64_C(1) << (e - TW_HIST_SUB_BITS)) - 1;
}

void
tw_hist_add(struct tw_hist *h, uint64_t us)
{
	if (h->count == 0 || us < h->min_us)
		h->min_us = us;
	if (h->count == 0 || us > h->max_us)
		h->max_us = us;
	h->count++;
	h->sum_us += us;
	h->bucket[tw_hist_bucket(us)]++;
}

void
tw_hist_merge(struct tw_hist *dst, const struct tw_hist *src)
{
	unsigned i;

	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min_us < dst->min_us)
		dst->min_us = src->min_us;
	if (dst->count == 0 || src->max_us > dst->max_us)
		dst->max_us = src->max_us;
	dst->count += src->count;
	dst->sum_us += src->sum_us;
	for (i = 0; i < TW_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

uint64_t
tw_hist_min_count(double p)
{
	if (!(p > 0) || !(p < 100))
		return UINT64_MAX;
	/* A hair below the exact quotient first, so that 100/(100-90) is 10,
	 * not 11 from rounding. */
	return (uint64_t)ceil(100.0 / (100.0 - p) - 1e-9);
}

int
tw_hist_percentile(const struct tw_hist *h, double p, uint64_t *out)
{
	uint64_t need, rank, seen = 0, lo, hi, mid;
	unsigned i;

	need = tw_hist_min_count(p);
	if (need == UINT64_MAX || h->count < need || h->count == 0)
		return 0;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count - 1e-9);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < TW_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == TW_HIST_BUCKETS)
		i = TW_HIST_BUCKETS - 1;
	tw_hist_bucket_range(i, &lo, &hi);
	mid = lo + (hi - lo + 1) / 2;
	if (mid < h->min_us)
		mid = h->min_us;
	if (mid > h->max_us)
		mid = h->max_us;
	*out = mid;
	return 1;
}
