/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "probe/probeio.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t
tw_probe_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* xorshift64*: offsets need to be uniform, not secret. */
static uint64_t
next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

/* Count a finished read; under the lock. */
static void
count_read(struct tw_probe *p, int res, uint64_t elapsed_ns)
{
	struct tw_probe_slot *s = &p->slots[p->cur];

	if (res == (int)p->bs) {
		if (elapsed_ns > p->timeout_ns) {
			if (!p->out_counted) {
				s->timeouts++;
				s->missed++;
			}
			p->run_state = TW_PROBE_ERRORS;
			snprintf(p->run_reason, sizeof(p->run_reason), "a read took %llu ms",
			    (unsigned long long)(elapsed_ns / 1000000u));
			return;
		}
		tw_hist_add(&s->hist, (elapsed_ns + 500) / 1000);
		p->run_state = TW_PROBE_PROBING;
		p->run_reason[0] = '\0';
		return;
	}
	s->errors++;
	if (res >= 0) {
		p->run_state = TW_PROBE_ERRORS;
		snprintf(p->run_reason, sizeof(p->run_reason), "short read of %d bytes", res);
	} else if (res == -EINVAL) {
		/* The block is aligned and sized as the device asks: EINVAL
		 * is direct I/O refused by the driver. */
		p->run_state = TW_PROBE_ODIRECT_REFUSED;
		snprintf(p->run_reason, sizeof(p->run_reason), "O_DIRECT read refused: %s",
		    strerror(-res));
	} else {
		p->run_state = TW_PROBE_ERRORS;
		snprintf(p->run_reason, sizeof(p->run_reason), "read: %s", strerror(-res));
	}
}

/* Reads nothing now or later: paused, never opened, or refused for good. */
static int
inactive(const struct tw_probe *p)
{
	return p->paused || p->fd < 0 || p->run_state == TW_PROBE_ODIRECT_REFUSED;
}

void
tw_probe_io_attach(struct tw_probe *p, uint64_t epoch_ns, uint64_t now_ns)
{
	pthread_mutex_lock(&p->lock);
	/* The first slot of the common clock from now on. */
	p->due_ns = epoch_ns;
	if (now_ns > epoch_ns)
		p->due_ns += (now_ns - epoch_ns + p->period_ns - 1) / p->period_ns * p->period_ns;
	pthread_mutex_unlock(&p->lock);
}

int
tw_probe_io_take(struct tw_probe *p, uint64_t now_ns, uint64_t *next,
    struct tw_probe_read *rd)
{
	int take = 0;

	pthread_mutex_lock(&p->lock);
	if (p->outstanding || inactive(p))
		goto out;
	if (p->due_ns > now_ns) {
		if (p->due_ns < *next)
			*next = p->due_ns;
		goto out;
	}
	/* Slots that passed since the one due: while paused they were not
	 * probed (the clock kept, nothing missed); else the reads were late
	 * and the slots are missed, as when a read is outstanding. */
	if (now_ns - p->due_ns >= p->period_ns) {
		uint64_t late = (now_ns - p->due_ns) / p->period_ns;

		if (!p->resync)
			p->slots[p->cur].missed += late;
		p->due_ns += late * p->period_ns;
	}
	p->resync = 0;
	p->due_ns += p->period_ns;
	if (p->due_ns < *next)
		*next = p->due_ns;
	rd->fd = p->fd;
	rd->buf = p->buf;
	rd->len = p->bs;
	rd->off = next_random(&p->rng) % p->nblocks * p->bs;
	p->outstanding = 1;
	p->out_counted = 0;
	p->out_start_ns = now_ns;
	p->reads++;
	take = 1;
out:
	pthread_mutex_unlock(&p->lock);
	return take;
}

void
tw_probe_io_done(struct tw_probe *p, int res, uint64_t t0_ns, uint64_t t1_ns)
{
	pthread_mutex_lock(&p->lock);
	p->outstanding = 0;
	count_read(p, res, t1_ns > t0_ns ? t1_ns - t0_ns : 0);
	/* Slots that came due while the read was outstanding. */
	if (t1_ns >= p->due_ns) {
		uint64_t late = (t1_ns - p->due_ns) / p->period_ns + 1;

		p->slots[p->cur].missed += late;
		p->due_ns += late * p->period_ns;
	}
	pthread_mutex_unlock(&p->lock);
}

void
tw_probe_io_free(struct tw_probe *p)
{
	if (p->fd >= 0)
		close(p->fd);
	free(p->buf);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
