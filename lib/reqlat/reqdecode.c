/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "reqlat/reqdecode.h"

#include <string.h>

#include "util/error.h"

_Static_assert(TW_REQLAT_BUCKETS == TW_HIST_BUCKETS,
    "the program's buckets must be the histogram's");
_Static_assert(TW_REQLAT_SUB == TW_HIST_SUB && TW_REQLAT_MAX_US == TW_HIST_MAX_US,
    "the program's buckets must be the histogram's");

int
tw_reqlat_decode(const void *values, size_t len, unsigned ncpus, uint32_t epoch,
    struct tw_reqlat_series *out)
{
	const unsigned char *p = values;
	unsigned cpu, b, slot = epoch & 1;

	memset(out, 0, sizeof(*out));
	if (ncpus == 0 || len / TW_REQLAT_STRIDE != ncpus || len % TW_REQLAT_STRIDE != 0)
		return TW_E_INVAL;
	for (cpu = 0; cpu < ncpus; cpu++, p += TW_REQLAT_STRIDE) {
		struct tw_reqlat_hist h;

		/* A copy: the bytes need not be aligned. */
		memcpy(&h, p, sizeof(h));
		out->sum_ns += h.sum_ns;
		if (h.max_epoch[slot] == epoch && h.max_ns[slot] > out->max_ns)
			out->max_ns = h.max_ns[slot];
		for (b = 0; b < TW_REQLAT_BUCKETS; b++)
			out->bucket[b] += h.bucket[b];
	}
	return TW_OK;
}

int
tw_reqlat_decode_counter(const void *values, size_t len, unsigned ncpus, uint64_t *out)
{
	const unsigned char *p = values;
	unsigned cpu;

	*out = 0;
	if (ncpus == 0 || len != (size_t)ncpus * sizeof(uint64_t))
		return TW_E_INVAL;
	for (cpu = 0; cpu < ncpus; cpu++, p += sizeof(uint64_t)) {
		uint64_t v;

		memcpy(&v, p, sizeof(v));
		*out += v;
	}
	return TW_OK;
}

/* The values only: the kernel's own bookkeeping of a map is a few hundred
 * bytes beside them. */
size_t
tw_reqlat_map_bytes(unsigned devices, unsigned ncpus)
{
	size_t hists = (size_t)devices * TW_REQLAT_PER_DEV * ncpus * TW_REQLAT_STRIDE;
	size_t globals = sizeof(uint32_t) * 2 +
	    sizeof(struct tw_reqlat_dev) * TW_REQLAT_DEV_ENTRIES +
	    sizeof(struct tw_reqlat_start) * TW_REQLAT_SETS * TW_REQLAT_WAYS;
	size_t counters = (size_t)TW_REQLAT_NCOUNTERS * ncpus * sizeof(uint64_t);

	return hists + globals + counters;
}
