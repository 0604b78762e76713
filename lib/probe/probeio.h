/* SPDX-License-Identifier: ISC */
/* The state of a probe (its schedule, its figures, under its lock) and
 * what its reading thread (probereader.c) does to it (probeio.c). The
 * probe's own calls (probe.c) keep the same state, so it is here, below
 * both: the thread and the probe then never include each other. Only
 * lib/probe/ uses it.
 *
 * The thread asks the probe whether a read is due (tw_probe_io_take),
 * makes the read and gives the probe its result and its time
 * (tw_probe_io_done); both under the probe's own lock, so that the
 * agent's thread takes the figures at any time. */
#ifndef TW_PROBEIO_H
#define TW_PROBEIO_H

#include <pthread.h>
#include <stdint.h>

#include "probe/histogram.h"
#include "probe/probestate.h"

struct tw_probe_reader;

/* One interval of the window. */
struct tw_probe_slot {
	struct tw_hist hist;
	uint64_t timeouts, missed, errors;
	uint64_t start_ms;
	int used;
};

struct tw_probe {
	pthread_mutex_t lock;
	struct tw_probe_reader *reader;	/* NULL until it runs */
	int paused;
	int resync;		/* back from a pause: catch the clock up, miss nothing */
	/* Set at the open, never changed. */
	int fd;
	void *buf;
	unsigned bs;
	uint64_t nblocks;
	uint64_t period_ns;
	uint64_t timeout_ns;
	/* Under the lock. */
	uint64_t rng;
	uint64_t due_ns;	/* the next slot */
	enum tw_probe_state state;
	char reason[TW_PROBE_REASON_LEN];
	enum tw_probe_state run_state;	/* what the reads last said */
	char run_reason[TW_PROBE_REASON_LEN];
	int outstanding;
	uint64_t out_start_ns;
	int out_counted;	/* its timeout already counted by a report */
	uint64_t reads;
	unsigned rate;
	unsigned nslots, cur;
	struct tw_probe_slot slots[];
};

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
