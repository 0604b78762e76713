/* SPDX-License-Identifier: ISC */
/* One histogram of the BPF program as a map lookup gives it: a value per
 * possible CPU, each TW_REQLAT_STRIDE bytes (struct tw_reqlat_hist rounded
 * up to 8, as the kernel lays per-CPU values out), summed here into one
 * series. Kept apart from the loader so that the fuzzers feed it bytes. */
#ifndef TW_REQDECODE_H
#define TW_REQDECODE_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "reqlat/reqseries.h"

#define TW_REQLAT_STRIDE ((sizeof(struct tw_reqlat_hist) + 7) & ~(size_t)7)

/* Sum values[len] (ncpus values) into out: buckets modulo 2^32, as each
 * CPU's own counters wrap; the sum of times; the largest request counted
 * in epoch, the interval a sample has just ended. TW_OK, or TW_E_INVAL
 * when len is not ncpus values (out is then zero). */
int tw_reqlat_decode(const void *values, size_t len, unsigned ncpus, uint32_t epoch,
    struct tw_reqlat_series *out);

/* The lost-request counters: ncpus 64-bit values. */
int tw_reqlat_decode_counter(const void *values, size_t len, unsigned ncpus, uint64_t *out);

/* The kernel memory of the program's maps for `devices` slots on ncpus
 * possible CPUs, for the benchmark and the documentation: the values laid
 * out as above. */
size_t tw_reqlat_map_bytes(unsigned devices, unsigned ncpus);

#endif
