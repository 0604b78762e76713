/* SPDX-License-Identifier: ISC */
/* The memory the probe holds per device, from the structures themselves:
 * one histogram, and one probed device with a window of N intervals (its
 * histograms, counters and read buffer), for bench/probe_cost.py. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "probe/histogram.h"
#include "probe/probe.h"

int
main(int argc, char **argv)
{
	unsigned intervals = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 12;

	printf("histogram %zu\nprobe %zu\nintervals %u\n", sizeof(struct tw_hist),
	    tw_probe_memory(intervals), intervals);
	return 0;
}
