/* SPDX-License-Identifier: ISC */
/* The one binary search of the tree, over a sorted array or anything
 * indexed in order (a view's rows, a table's index).
 *
 * Inline with the order as a function pointer: at a call site that passes
 * a static function the compiler folds it in, so a search in a per-sample
 * loop (a view's 10,000 disks) costs what the hand-written loop did. */
#ifndef TW_UTIL_SORTED_H
#define TW_UTIL_SORTED_H

#include <stddef.h>
#include <stdint.h>

/* The first index in [0, n) for which before(ctx, i) is 0, or n: before
 * says that element i sorts before what is looked for, and must hold for
 * a prefix of [0, n) and for nothing after it. */
static inline size_t
tw_sorted_first(size_t n, int (*before)(const void *ctx, size_t i), const void *ctx)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (before(ctx, mid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index of key in an array of n elements at base whose keys,
 * key_at(base, i), ascend without repeating; n when it is not there. A
 * key of several fields packs them, the first highest (major << 32 |
 * minor); a signed one flips its sign bit (tw_sorted_signed). */
static inline size_t
tw_sorted_find(const void *base, size_t n, uint64_t (*key_at)(const void *base, size_t i),
    uint64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k = key_at(base, mid);

		if (k == key)
			return mid;
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return n;
}

/* A signed key in the order of tw_sorted_find's unsigned keys. */
static inline uint64_t
tw_sorted_signed(int64_t v)
{
	return (uint64_t)v ^ UINT64_C(1) << 63;
}

#endif
