/* SPDX-License-Identifier: ISC */
/* The one thread that reads for every probed device of a tunewatchd.
 *
 * It sleeps until the next slot of any probe, hands all the reads due
 * then to the kernel through one io_uring (uring.h), a few at a time, and
 * wakes when a read ends, which it times as it reaps it: a read's latency
 * runs from just before the system call that submits it to the moment its
 * result is seen. Probes of the same rate share the same slots, so 64
 * devices at one read a second wake the thread about twice a second, not
 * 128 times. The agent's thread never waits for a read: it adds and
 * removes probes and takes their figures under locks the loop holds only
 * to count. */
#ifndef TW_PROBELOOP_H
#define TW_PROBELOOP_H

#include "probe/probe.h"

/* Set up the ring and start the thread (after a daemon's fork). 0, or an
 * errno value (no io_uring, or no thread); then *out is NULL. */
int tw_probe_loop_start(struct tw_probe_loop **out);

/* Read for p from now on. 0, or -1 when memory runs out. */
int tw_probe_loop_add(struct tw_probe_loop *l, struct tw_probe *p);

/* Stop reading for p and free it: now, or when its outstanding read
 * ends. */
void tw_probe_loop_remove(struct tw_probe_loop *l, struct tw_probe *p);

/* Have the thread look at its probes again (one came back from a pause). */
void tw_probe_loop_wake(struct tw_probe_loop *l);

/* Stop the thread and free the loop with the probes still in it. A read
 * still outstanding is given a second; after that its probe and buffer
 * are left behind, never freed under the kernel's feet. */
void tw_probe_loop_stop(struct tw_probe_loop *l);

#endif
