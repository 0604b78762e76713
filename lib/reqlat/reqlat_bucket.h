/* SPDX-License-Identifier: ISC */
/* The bucket of a time, as the BPF program computes it: histogram.c's
 * tw_hist_bucket, written for the verifier (no loop, a shift ladder for
 * the top bit) and for nanoseconds in. A header, so that the unit tests
 * hold this very code against tw_hist_bucket. Needs __u32 and __u64, and
 * reqlat_abi.h. */
#ifndef TW_REQLAT_BUCKET_H
#define TW_REQLAT_BUCKET_H

#ifndef TW_REQLAT_INLINE
#define TW_REQLAT_INLINE static inline __attribute__((always_inline))
#endif

/* The index of the highest bit set, for v below 2^32. */
TW_REQLAT_INLINE __u32
tw_reqlat_top_bit(__u64 v)
{
	__u32 r = 0;

	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r;
}

/* The bucket of ns nanoseconds, counted in whole microseconds. */
TW_REQLAT_INLINE __u32
tw_reqlat_bucket(__u64 ns)
{
	__u64 us = ns / 1000;
	__u32 e;

	if (us < TW_REQLAT_SUB)
		return (__u32)us;
	if (us > TW_REQLAT_MAX_US)
		us = TW_REQLAT_MAX_US;
	e = tw_reqlat_top_bit(us);
	return TW_REQLAT_SUB + (e - TW_REQLAT_SUB_BITS) * TW_REQLAT_SUB +
	    (__u32)((us >> (e - TW_REQLAT_SUB_BITS)) - TW_REQLAT_SUB);
}

#endif
