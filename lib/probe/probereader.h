/* SPDX-License-Identifier: ISC */
/* A reading thread for each probed device: it sleeps until the device's
 * next slot, reads with a blocking pread(2) and times the read with
 * clock_gettime(2) right around it, as a synchronous reader (ioping,
 * bonnie++, an application's read) sees it.
 *
 * Why a thread each, and not one thread for all through io_uring: a read
 * timed by a thread that also submits and reaps the other devices' reads
 * is counted late by whatever that thread was doing when it ended, and
 * reads handed to the kernel together start their clocks together
 * (measured: 8 loop devices whose reads took 75-81 us alone read 148-156
 * us each when their slots coincided). A thread of its own waits for
 * nothing but its device.
 *
 * Every probe's slots are on one clock: whole seconds of CLOCK_MONOTONIC,
 * plus a phase of the probe's own (tw_probe_phase_ns), so that no two
 * devices' reads are due at the same instant and contend for a CPU, and a
 * reference reader (a test's ioping) can read between them. */
#ifndef TW_PROBEREADER_H
#define TW_PROBEREADER_H

#include <stdint.h>

#include "probe/probestate.h"

struct tw_probe;

/* The phases span the shortest period (1 / TW_PROBE_MAX_RATE s). */
#define TW_PROBE_PHASE_SPAN_NS (1000000000u / TW_PROBE_MAX_RATE)

struct tw_probe_readers;	/* the clock and the threads alive */
struct tw_probe_reader;		/* one probe's thread */

/* The set, with its clock (after a daemon's fork: threads do not survive
 * one). 0 or ENOMEM. */
int tw_probe_readers_start(struct tw_probe_readers **out);

/* Start p's thread, which reads for p until stopped. 0, or an errno value
 * (EAGAIN: no more threads) and *out NULL. */
int tw_probe_reader_start(struct tw_probe_readers *rs, struct tw_probe *p,
    struct tw_probe_reader **out);

/* Have the thread look at its probe again (it came back from a pause). */
void tw_probe_reader_wake(struct tw_probe_reader *r);

/* Stop the thread. It frees its probe (tw_probe_io_free) and itself as it
 * ends: now, or when the read it is in returns. Neither may be touched
 * after this call. */
void tw_probe_reader_stop(struct tw_probe_reader *r);

/* Free the set once its threads have ended (stop them first). A thread
 * still in a read after a second is left behind with its probe and the
 * set, never freed under the kernel's feet. */
void tw_probe_readers_stop(struct tw_probe_readers *rs);

/* The phase of the k-th probe of a set (k = 0, 1, ...): 0, 1/2, 1/4, 3/4,
 * 1/8 ... of TW_PROBE_PHASE_SPAN_NS (the bits of k reversed), so that n
 * probes are at least 1/2^ceil(log2 n) of the span apart. */
uint64_t tw_probe_phase_ns(unsigned k);

#endif
