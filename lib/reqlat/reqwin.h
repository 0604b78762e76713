/* SPDX-License-Identifier: ISC */
/* The window of the request-latency histograms (reqlat/reqlat.h): for each
 * device, direction and kind, the intervals of the last window, each the
 * increase of its histogram between two samples.
 *
 * An interval keeps only the buckets that moved, so a window costs what
 * the spread of its requests costs, not a whole histogram an interval. The
 * counters are the program's, modulo 2^32 a bucket: an increase is taken
 * modulo 2^32 too, so a bucket that wraps within an interval still counts
 * right. A device absent from a reading (its disk row left, or it lost its
 * slot) loses its history; one read with a new slot number starts afresh,
 * its first reading a base and no interval, as a counter's first sample
 * is. */
#ifndef TW_REQWIN_H
#define TW_REQWIN_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/histogram.h"
#include "reqlat/reqseries.h"

struct tw_reqwin_interval {
	uint64_t ms;		/* how long it lasted */
	uint64_t count;
	uint64_t sum_ns;
	uint64_t max_ns;	/* its largest request; 0: not seen */
	uint32_t ncells;
	uint32_t cap;
	uint16_t *bucket;	/* ncells buckets that moved ... */
	uint32_t *inc;		/* ... and by how much */
};

struct tw_reqwin_series {
	struct tw_reqlat_series last;		/* the newest reading */
	struct tw_reqwin_interval *ring;	/* intervals entries */
	unsigned next;		/* where the next interval goes */
	unsigned filled;
	uint64_t total;		/* requests since the base */
};

struct tw_reqwin_dev {
	uint32_t major;
	uint32_t minor;
	uint64_t gen;
	struct tw_reqwin_series s[TW_REQLAT_NDIRS][TW_REQLAT_NKINDS];
};

struct tw_reqwin {
	unsigned intervals;
	struct tw_reqwin_dev **devs;	/* sorted by (major, minor) */
	size_t count;
	size_t cap;
	uint64_t last_ms;	/* the newest reading's time; 0: none yet */
	uint64_t lost;		/* the newest reading's */
	size_t unslotted;
};

/* intervals: window length / sampling interval, at least 1. */
int tw_reqwin_init(struct tw_reqwin *w, unsigned intervals);
void tw_reqwin_free(struct tw_reqwin *w);

/* Add a reading taken at now_ms (monotonic; after the last one, else
 * TW_E_INVAL and nothing changes). TW_OK or TW_E_NOMEM (the window then
 * holds what it could). An empty reading empties the window. */
int tw_reqwin_push(struct tw_reqwin *w, const struct tw_reqlat_reading *rd, uint64_t now_ms);

/* The window's histogram of one device, direction and kind: its intervals
 * merged into h (min and max from the buckets and the largest requests
 * seen), the time they cover and the requests since the base. Returns 1
 * when the device has at least one interval, 0 otherwise (h empty). */
int tw_reqwin_hist(const struct tw_reqwin *w, uint32_t major, uint32_t minor, unsigned dir,
    unsigned kind, struct tw_hist *h, uint64_t *cov_ms, uint64_t *total);

/* The memory the window holds now, for the benchmark. */
size_t tw_reqwin_memory(const struct tw_reqwin *w);

#endif
