/* SPDX-License-Identifier: ISC */
/* Between a probe (probe.c: its schedule and its figures) and the loop
 * that reads for all probes (probeloop.c). Only these two files use it.
 *
 * The loop asks each probe whether a read is due (tw_probe_io_take), hands
 * the read to the kernel, and gives the probe its result as soon as it has
 * reaped it (tw_probe_io_done); all under the probe's own lock, so that
 * the agent's thread takes the figures at any time. */
#ifndef TW_PROBEIO_H
#define TW_PROBEIO_H

#include <stdint.h>

#include "probe/probe.h"

struct tw_probe_read {
	int fd;
	void *buf;
	unsigned len;
	uint64_t off;
};

/* Whether p has a read due at now; if so it is counted as outstanding
 * from now and *rd says what to read. Either way *next is lowered to the
 * time p's next read is due, when that is known (not while a read is
 * outstanding, paused or refused for good). */
int tw_probe_io_take(struct tw_probe *p, uint64_t now_ns, uint64_t *next,
    struct tw_probe_read *rd);

/* The read taken last went to the kernel at t0_ns: its time starts here. */
void tw_probe_io_started(struct tw_probe *p, uint64_t t0_ns);

/* The read's result (bytes, or -errno), reaped at t1_ns. Returns 1 when
 * the probe was let go of (tw_probe_stop) while the read was out: the
 * caller frees it now with tw_probe_io_free. */
int tw_probe_io_done(struct tw_probe *p, int res, uint64_t t1_ns);

/* Let go of p: 1 when no read is out (free it now), 0 when one is (it is
 * freed when tw_probe_io_done says so). */
int tw_probe_io_detach(struct tw_probe *p);
void tw_probe_io_free(struct tw_probe *p);

/* The schedule: reads are due at epoch + k / rate s, the same instants
 * for every probe of the same rate, so that reads due together are
 * handed to the kernel together. */
void tw_probe_io_attach(struct tw_probe *p, uint64_t epoch_ns, uint64_t now_ns);

uint64_t tw_probe_now_ns(void);

#endif
