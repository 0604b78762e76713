/* SPDX-License-Identifier: ISC */
/* A latency histogram of fixed size: log-linear buckets in microseconds,
 * in the manner of HdrHistogram (written here from the idea, not the code).
 *
 * Values below 16 us have a bucket each; above, every power of two is cut
 * into 16 equal buckets, so a bucket is at most 1/16 of its lower bound
 * wide and its midpoint is within 1/32 (3.125 %) of any value in it, from
 * 1 us up to TW_HIST_MAX_US (67 s); larger values count in the last
 * bucket. Count, sum, min and max are kept exactly beside the buckets.
 *
 * One histogram is about 1.5 KiB and never allocates: a probed device
 * keeps one per interval of the window and merges them when asked. */
#ifndef TW_HISTOGRAM_H
#define TW_HISTOGRAM_H

#include <stdint.h>

#define TW_HIST_SUB_BITS 4
#define TW_HIST_SUB (1u << TW_HIST_SUB_BITS)		/* buckets per octave */
#define TW_HIST_TOP_BIT 25				/* 2^26 us: 67 s */
#define TW_HIST_MAX_US ((UINT64_C(1) << (TW_HIST_TOP_BIT + 1)) - 1)
#define TW_HIST_BUCKETS (TW_HIST_SUB + (TW_HIST_TOP_BIT - TW_HIST_SUB_BITS + 1) * TW_HIST_SUB)

struct tw_hist {
	uint64_t count;
	uint64_t sum_us;
	uint64_t min_us;	/* meaningful when count > 0 */
	uint64_t max_us;
	uint32_t bucket[TW_HIST_BUCKETS];
};

void tw_hist_init(struct tw_hist *h);

/* Count one value (microseconds). */
void tw_hist_add(struct tw_hist *h, uint64_t us);

/* Add everything counted in src to dst (the window is a merge of its
 * intervals). */
void tw_hist_merge(struct tw_hist *dst, const struct tw_hist *src);

/* The fewest values a percentile is given for: p must have at least one
 * value above it, so ceil(100 / (100 - p)): 2 for p50, 10 for p90, 100
 * for p99. Fewer, and the percentile is absent rather than invented. */
uint64_t tw_hist_min_count(double p);

/* The p-th percentile (0 < p < 100) in microseconds: the midpoint of the
 * bucket holding the value of rank ceil(p/100 * count), kept within
 * [min, max]. 0 when count < tw_hist_min_count(p) (then *out is left
 * alone), 1 when given. */
int tw_hist_percentile(const struct tw_hist *h, double p, uint64_t *out);

/* Which bucket a value counts in, and the range [lo, hi] of a bucket;
 * for tests and for the error bound above. */
unsigned tw_hist_bucket(uint64_t us);
void tw_hist_bucket_range(unsigned b, uint64_t *lo, uint64_t *hi);

#endif
