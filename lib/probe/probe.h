/* SPDX-License-Identifier: ISC */
/* The active probe of one device: random aligned reads, read-only and
 * with O_DIRECT, on an open-loop schedule of a fixed clock, timed into a
 * histogram per interval of the window.
 *
 * Each probe's reads are made by a thread of its own (probereader.h),
 * timed as a synchronous reader sees them; a probe holds its schedule and
 * its figures, under a mutex of its own that its thread holds only to
 * count a result (no I/O is done under it), so the agent never waits for
 * a read.
 *
 * Slots are due every 1/rate s whatever happened before (open loop): a
 * slot that comes due while a read is outstanding is missed, never made up
 * later, so a slow device cannot make the probe read faster afterwards. A
 * read that takes longer than the timeout counts as a timeout and its slot
 * as missed; its latency goes into no histogram. */
#ifndef TW_PROBE_H
#define TW_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "probe/histogram.h"
#include "probe/probestate.h"

struct tw_probe_params {
	const char *name;	/* kernel name, for messages */
	const char *path;	/* the node to open: "/dev/sdb" */
	unsigned rate;		/* reads a second, 1 to TW_PROBE_MAX_RATE */
	unsigned timeout_ms;
	unsigned intervals;	/* histograms in the window, at least 1 */
};

/* The figures over the window, taken at one time. */
struct tw_probe_report {
	enum tw_probe_state state;
	char reason[TW_PROBE_REASON_LEN];	/* "" or why, for the log and MIB */
	struct tw_hist hist;		/* the window's merge */
	uint64_t timeouts;
	uint64_t missed;		/* slots missed, timeouts included */
	uint64_t errors;		/* reads that failed */
	uint64_t window_ms;		/* the time the figures cover */
	uint64_t reads;			/* reads issued since start */
	unsigned read_size;		/* bytes a read; 0 before the open */
	unsigned rate;
};

struct tw_probe;
struct tw_probe_readers;

/* Open the device. Always gives a probe (NULL only when memory runs
 * out): a device that cannot be opened is a probe in state open-failed or
 * odirect-refused, so the MIB can say so. */
struct tw_probe *tw_probe_open(const struct tw_probe_params *pp);

/* Start its reading thread in rs (after a daemon's fork, which threads do
 * not survive; the open may come before, while the process still has
 * root). Without an open device there is nothing to read; a thread that
 * cannot be started leaves it open-failed, with the reason. */
void tw_probe_run(struct tw_probe *p, struct tw_probe_readers *rs);

/* Nothing can read for it: state open-failed, with the reason. */
void tw_probe_fail(struct tw_probe *p, const char *reason);

/* Stop reading and free the probe; one whose read is still outstanding
 * is freed by its thread when the read ends (or left behind, rather than
 * freed under the kernel). */
void tw_probe_stop(struct tw_probe *p);

/* Start a new interval: the oldest histogram of the window is dropped.
 * now_ms: tw_clock_ms(). */
void tw_probe_rotate(struct tw_probe *p, uint64_t now_ms);

/* Hold reads (idle-skipped, vanished) or let them go on. The state word is
 * the caller's while paused. */
void tw_probe_pause(struct tw_probe *p, enum tw_probe_state why, const char *reason);
void tw_probe_resume(struct tw_probe *p);

/* The window's figures now. A read outstanding past the timeout is
 * counted as a timeout here, once. */
void tw_probe_report(struct tw_probe *p, uint64_t now_ms, struct tw_probe_report *r);

/* Reads issued so far (to tell the device's own I/O from the probe's). */
uint64_t tw_probe_reads(struct tw_probe *p);

/* The memory one probe holds, for the benchmark. */
size_t tw_probe_memory(unsigned intervals);

#endif
