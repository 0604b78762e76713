/* SPDX-License-Identifier: ISC */
/* Between a probe (probe.c: its schedule and its figures) and the thread
 * that reads for it (probereader.c). Only these two files use it.
 *
 * The thread asks the probe whether a read is due (tw_probe_io_take),
 * makes the read and gives the probe its result and its time
 * (tw_probe_io_done); both under the probe's own lock, so that the
 * agent's thread takes the figures at any time. */
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
 * time p's next read is due, when that is known (not while paused or
 * refused for good). */
int tw_probe_io_take(struct tw_probe *p, uint64_t now_ns, uint64_t *next,
    struct tw_probe_read *rd);

/* The read taken last ran from t0_ns to t1_ns with this result (bytes,
 * or -errno). */
void tw_probe_io_done(struct tw_probe *p, int res, uint64_t t0_ns, uint64_t t1_ns);

/* The schedule: reads are due at epoch + k / rate s (epoch: the set's
 * clock plus the probe's phase). */
void tw_probe_io_attach(struct tw_probe *p, uint64_t epoch_ns, uint64_t now_ns);

/* Free p: its device, its buffer, itself. */
void tw_probe_io_free(struct tw_probe *p);

uint64_t tw_probe_now_ns(void);

#endif
