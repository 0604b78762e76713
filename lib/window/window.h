/* SPDX-License-Identifier: ISC */
/* The window: the samples of the last few minutes, turned into increases
 * and rates that survive counter wraps, resets and devices that come and
 * go (see track.h).
 *
 * A window of W seconds sampled every I seconds keeps W/I + 1 samples. A
 * figure over the window runs from the oldest sample in it (or the oldest
 * one the entity was seen in) to the newest; with fewer than two samples
 * there is no figure at all. The window keeps no wall-clock time: samples
 * carry CLOCK_MONOTONIC stamps, so setting the clock changes nothing. */
#ifndef TW_WINDOW_H
#define TW_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "sample/pools.h"
#include "sample/sample.h"
#include "window/track.h"

/* The counters kept for each disk. */
enum tw_wdisk {
	TW_WDISK_READS,
	TW_WDISK_WRITES,
	TW_WDISK_SECTORS_READ,
	TW_WDISK_SECTORS_WRITTEN,
	TW_WDISK_READ_TICKS,
	TW_WDISK_WRITE_TICKS,
	TW_WDISK_IO_TICKS,
	TW_WDISK_WEIGHTED_TICKS,
	TW_WDISK_K
};

/* The system-wide memory counters. DIRTY_LIMITED_MS is the window's own:
 * the time of the intervals that ended with the host's dirty and
 * writeback pages at or above the point where the kernel throttles
 * writers (tw_window_dirty_limited). */
enum tw_wvm {
	TW_WVM_PGPGIN,
	TW_WVM_PGMAJFAULT,
	TW_WVM_REFAULT_FILE,
	TW_WVM_RECLAIM_HOST,
	TW_WVM_DIRTY_LIMITED_MS,
	TW_WVM_K
};

/* The read hit-ratio accumulators: bytes read by processes alive across
 * each interval, or born within it, logical (rchar) and from storage
 * (read_bytes). */
enum tw_wreads {
	TW_WREADS_LOGICAL,
	TW_WREADS_PHYSICAL,
	TW_WREADS_K
};

/* The counters kept for each published cgroup (key: its index). */
enum tw_wcg {
	TW_WCG_REFAULTS,
	TW_WCG_LIMIT_EVENTS,
	TW_WCG_READ_BYTES,
	TW_WCG_WRITE_BYTES,
	TW_WCG_EVENTS_MS,	/* the sample time LIMIT_EVENTS was last read at */
	/* Its memory besides the page cache, the sums of its rises and of
	 * its falls since first seen (collect/cgroupread.h TW_CG_ANON_UP, _DOWN). */
	TW_WCG_ANON_UP,
	TW_WCG_ANON_DOWN,
	TW_WCG_K
};

/* Scratch for one step of the read accumulators, one per process of the
 * last sample (see step_reads in window/procreads.c). */
struct tw_window_step {
	uint64_t grow_logical, grow_physical;	/* over the interval */
	uint64_t owed_logical, owed_physical;	/* vanished children's, already counted */
	int state;
};

struct tw_window {
	unsigned intervals;	/* as configured */
	unsigned slots;		/* samples kept: intervals + 1 */
	uint64_t seq;		/* number of the newest sample */
	uint64_t nsamples;	/* samples pushed so far */
	uint64_t *times;	/* slots: monotonic ms of each kept sample */
	struct tw_track_set disks;	/* key: tw_disk_key() */
	struct tw_track_set pools;	/* key: tw_pool_key() */
	struct tw_track_set vm;		/* one entity, key 0 */
	struct tw_track_set reads;	/* one entity, key 0 */
	struct tw_track_set cgroups;	/* key: the cgroup's index */
	struct tw_proc_io_set prev_procs;	/* the last sample's processes */
	int prev_procs_valid;
	struct tw_window_step *step;	/* scratch, as many as prev_procs holds */
	size_t step_cap;
	uint64_t logical_total;		/* our running sums behind `reads` */
	uint64_t physical_total;
	uint64_t dirty_limited_ms;	/* behind TW_WVM_DIRTY_LIMITED_MS */
	uint32_t procs_matched;		/* processes seen across the newest interval,
					 * and those born within it */
	uint32_t procs_unreadable;	/* in the newest sample */
	uint64_t malformed_total;	/* malformed lines in every sample pushed */
	uint64_t lines_total;
};

/* intervals: window length / sampling interval, at least 1. */
int tw_window_init(struct tw_window *w, unsigned intervals);
void tw_window_free(struct tw_window *w);

/* Add a sample and the pools built from it. Samples must come in
 * increasing time order; one with a stamp not after the newest is
 * rejected with TW_E_INVAL and changes nothing. */
int tw_window_push(struct tw_window *w, const struct tw_sample *s, const struct tw_pool_set *pools);

/* Update the reads' track with sample s (number seq, dt ms after the one
 * before), from each process's io counters (window/procreads.c). For
 * tw_window_push only. */
int tw_window_push_reads(struct tw_window *w, const struct tw_sample *s, uint64_t seq,
    uint64_t dt);

/* Set up, free and update the cgroups' tracks (window/cgtrack.c). */
int tw_window_cgroups_init(struct tw_track_set *set, unsigned slots);
int tw_window_push_cgroups(struct tw_track_set *set, const struct tw_sample *s, uint64_t seq,
    uint64_t dt);

/* The sample number the window's figures start from, and how many samples
 * and milliseconds the window spans now (0 before two samples). */
uint64_t tw_window_oldest_seq(const struct tw_window *w);
unsigned tw_window_samples(const struct tw_window *w);
uint64_t tw_window_span_ms(const struct tw_window *w);

/* The increases of one entity's counters over the window, and the time
 * they cover (intervals with a reset are left out of both). Returns 1 when
 * there is at least one interval, 0 otherwise. delta has the set's k
 * entries. */
int tw_window_delta(const struct tw_window *w, const struct tw_track_set *set, uint64_t key,
    uint64_t *delta, uint64_t *cov_ms);

/* The same for a track of the set already found (NULL: none), as a caller
 * walking the set's sorted tracks beside its own sorted rows has it. */
int tw_window_track_delta(const struct tw_window *w, const struct tw_track_set *set,
    const struct tw_track *t, uint64_t *delta, uint64_t *cov_ms);

/* Whether a sample's /proc/vmstat shows writers throttled: dirty and
 * writeback pages at or above the kernel's free-run ceiling, half-way
 * between the background threshold and the limit (mm/page-writeback.c,
 * dirty_freerun_ceiling), past which balance_dirty_pages() pauses every
 * writer. -1 when the sample lacks a figure of it. */
int tw_window_dirty_limited(const struct tw_vmstat *vm);

/* Failures of one pool within the window (key: tw_pool_key()). */
int tw_window_pool_failures(const struct tw_window *w, uint64_t key, uint64_t *count);

/* A pool's time in memory pressure within the window, in ms, and since its
 * track began (pools with TW_POOL_HAS_PRESSURE; 0 for others). */
int tw_window_pool_pressure(const struct tw_window *w, uint64_t key, uint64_t *ms);
uint64_t tw_window_pool_pressure_total(const struct tw_window *w, uint64_t key);

/* A pool's cumulative failures, unwrapped (see tw_track_total()); 0 if
 * the pool is not in the newest sample. */
uint64_t tw_window_pool_total(const struct tw_window *w, uint64_t key);

#endif
