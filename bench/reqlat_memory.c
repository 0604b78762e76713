/* SPDX-License-Identifier: ISC */
/* The memory the distribution of every request holds, from the
 * structures themselves, for bench/reqlat_cost.py: the kernel's map
 * values for N devices on C possible CPUs, and tunewatchd's window of I
 * intervals for N devices whose requests spread over B buckets an
 * interval. */
#include "config.h"

#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/histogram.h"
#include "reqlat/reqdecode.h"
#include "reqlat/reqlat.h"
#include "reqlat/reqwin.h"

int
main(int argc, char **argv)
{
	unsigned devices = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 32;
	unsigned ncpus = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 2;
	unsigned intervals = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 12;
	unsigned buckets = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 10) : 40;
	struct tw_reqlat_reading rd;
	struct tw_reqwin w;
	unsigned i, k, b;

	printf("maps %zu\n", tw_reqlat_map_bytes(devices, ncpus));
	if (devices == 0 || tw_reqwin_init(&w, intervals) != 0)
		return 1;
	rd.devs = calloc(devices, sizeof(*rd.devs));
	if (rd.devs == NULL)
		return 1;
	rd.count = rd.cap = devices;
	rd.unslotted = 0;
	rd.lost = 0;
	for (i = 0; i < devices; i++) {
		rd.devs[i].major = 8;
		rd.devs[i].minor = i * 16;
		rd.devs[i].gen = 1;
	}
	/* Every series of every device moves `buckets` buckets an interval. */
	for (k = 0; k <= intervals; k++) {
		for (i = 0; i < devices; i++) {
			struct tw_reqlat_series *s = &rd.devs[i].s[0][0];
			unsigned dir, kind;

			for (b = 0; b < buckets && b < TW_HIST_BUCKETS; b++)
				s->bucket[100 + b % 200] += 1 + k;
			for (dir = 0; dir < TW_REQLAT_NDIRS; dir++)
				for (kind = 0; kind < TW_REQLAT_NKINDS; kind++)
					if (dir || kind)
						memcpy(&rd.devs[i].s[dir][kind], s, sizeof(*s));
		}
		if (tw_reqwin_push(&w, &rd, 1000 + 1000 * (uint64_t)k) != 0)
			return 1;
	}
	printf("window %zu\ndevices %u\nintervals %u\nbuckets %u\n", tw_reqwin_memory(&w),
	    devices, intervals, buckets);
	tw_reqwin_free(&w);
	free(rd.devs);
	return 0;
}
