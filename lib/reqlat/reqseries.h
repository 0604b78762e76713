/* SPDX-License-Identifier: ISC */
/* What a reading of the request-latency program holds, device by device,
 * and the devices a sample wants read. The source (reqlat.h) gives them,
 * and the parts it is made of, the decoder of its maps (reqdecode.h) and
 * the slots of its devices (reqslots.h), fill them: so they are below all
 * three. */
#ifndef TW_REQSERIES_H
#define TW_REQSERIES_H

#include <stddef.h>
#include <stdint.h>

#include "probe/histogram.h"
#include "reqlat/reqlat_abi.h"

#define TW_REQLAT_MAX_DEVICES 128	/* of TW_REQLAT_DEV_ENTRIES table entries */

/* One histogram since its device got its slot: buckets as tw_hist's, each
 * a counter modulo 2^32, the sum of the times in nanoseconds, and the
 * largest request of the interval the sample ended (0: none). */
struct tw_reqlat_series {
	uint64_t sum_ns;
	uint64_t max_ns;
	uint32_t bucket[TW_HIST_BUCKETS];
};

struct tw_reqlat_device {
	uint32_t major;
	uint32_t minor;
	uint64_t gen;	/* new each time the device is given a slot: its
			 * counters then start again from 0 */
	struct tw_reqlat_series s[TW_REQLAT_NDIRS][TW_REQLAT_NKINDS];
};

/* A sample's reading: the devices with a slot, sorted by (major, minor). */
struct tw_reqlat_reading {
	struct tw_reqlat_device *devs;
	size_t count;
	size_t cap;
	size_t unslotted;	/* wanted devices left without a slot (too many) */
	uint64_t lost;		/* requests not timed since the load: no free start */
};

/* A device the disk table publishes. */
struct tw_reqlat_want {
	uint32_t major;
	uint32_t minor;
};

#endif
