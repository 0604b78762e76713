/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "probe/probe.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "probe/probeio.h"
#include "probe/probeopen.h"
#include "probe/probereader.h"

static const char *const state_names[TW_PROBE_NSTATES] = {
	[TW_PROBE_PROBING] = "probing",
	[TW_PROBE_IDLE_SKIPPED] = "idle-skipped",
	[TW_PROBE_OPEN_FAILED] = "open-failed",
	[TW_PROBE_ODIRECT_REFUSED] = "odirect-refused",
	[TW_PROBE_ERRORS] = "errors",
	[TW_PROBE_VANISHED] = "vanished",
};

const char *
tw_probe_state_name(enum tw_probe_state s)
{
	return (unsigned)s < TW_PROBE_NSTATES ? state_names[s] : "unknown";
}

/* One interval of the window. */
struct slot {
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
	struct slot slots[];
};

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

static void
open_device(struct tw_probe *p, const struct tw_probe_params *pp)
{
	struct tw_probe_device d;

	p->run_state = tw_probe_open_device(pp->path, &d, p->run_reason, sizeof(p->run_reason));
	p->fd = d.fd;
	p->buf = d.buf;
	p->bs = d.bs;
	p->nblocks = d.nblocks;
}

/* Count a finished read; under the lock. */
static void
count_read(struct tw_probe *p, int res, uint64_t elapsed_ns)
{
	struct slot *s = &p->slots[p->cur];

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
tw_probe_fail(struct tw_probe *p, const char *reason)
{
	pthread_mutex_lock(&p->lock);
	p->run_state = TW_PROBE_OPEN_FAILED;
	snprintf(p->run_reason, sizeof(p->run_reason), "%s", reason);
	pthread_mutex_unlock(&p->lock);
}

size_t
tw_probe_memory(unsigned intervals)
{
	return sizeof(struct tw_probe) + (size_t)intervals * sizeof(struct slot) +
	    TW_PROBE_READ_SIZE;
}

struct tw_probe *
tw_probe_open(const struct tw_probe_params *pp)
{
	unsigned n = pp->intervals > 0 ? pp->intervals : 1;
	struct tw_probe *p = calloc(1, sizeof(*p) + n * sizeof(struct slot));

	if (p == NULL)
		return NULL;
	p->nslots = n;
	p->rate = pp->rate >= 1 && pp->rate <= TW_PROBE_MAX_RATE ? pp->rate :
	    TW_PROBE_DEFAULT_RATE;
	p->period_ns = 1000000000u / p->rate;
	p->timeout_ns = (uint64_t)(pp->timeout_ms > 0 ? pp->timeout_ms :
	    TW_PROBE_DEFAULT_TIMEOUT_MS) * 1000000u;
	if (getrandom(&p->rng, sizeof(p->rng), 0) != (ssize_t)sizeof(p->rng) || p->rng == 0)
		p->rng = tw_probe_now_ns() | 1;
	p->slots[0].used = 1;
	p->slots[0].start_ms = tw_probe_now_ns() / 1000000u;
	open_device(p, pp);
	pthread_mutex_init(&p->lock, NULL);
	return p;
}

void
tw_probe_run(struct tw_probe *p, struct tw_probe_readers *rs)
{
	char reason[TW_PROBE_REASON_LEN];
	int err;

	if (p == NULL || p->fd < 0 || p->reader != NULL || rs == NULL)
		return;
	err = tw_probe_reader_start(rs, p, &p->reader);
	if (err != 0) {
		snprintf(reason, sizeof(reason), "cannot start its reading thread: %s",
		    strerror(err));
		tw_probe_fail(p, reason);
	}
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

void
tw_probe_stop(struct tw_probe *p)
{
	if (p == NULL)
		return;
	if (p->reader != NULL)
		tw_probe_reader_stop(p->reader);	/* frees it, now or when its read ends */
	else
		tw_probe_io_free(p);
}

void
tw_probe_rotate(struct tw_probe *p, uint64_t now_ms)
{
	struct slot *s;

	pthread_mutex_lock(&p->lock);
	p->cur = (p->cur + 1) % p->nslots;
	s = &p->slots[p->cur];
	memset(s, 0, sizeof(*s));
	s->used = 1;
	s->start_ms = now_ms;
	pthread_mutex_unlock(&p->lock);
}

void
tw_probe_pause(struct tw_probe *p, enum tw_probe_state why, const char *reason)
{
	pthread_mutex_lock(&p->lock);
	p->paused = 1;
	p->state = why;
	snprintf(p->reason, sizeof(p->reason), "%s", reason != NULL ? reason : "");
	pthread_mutex_unlock(&p->lock);
}

void
tw_probe_resume(struct tw_probe *p)
{
	int was;

	pthread_mutex_lock(&p->lock);
	was = p->paused;
	p->paused = 0;
	if (was)
		p->resync = 1;
	pthread_mutex_unlock(&p->lock);
	/* Its thread sleeps until woken: tell it. */
	if (was && p->reader != NULL)
		tw_probe_reader_wake(p->reader);
}

uint64_t
tw_probe_reads(struct tw_probe *p)
{
	uint64_t n;

	pthread_mutex_lock(&p->lock);
	n = p->reads;
	pthread_mutex_unlock(&p->lock);
	return n;
}

void
tw_probe_report(struct tw_probe *p, uint64_t now_ms, struct tw_probe_report *r)
{
	uint64_t oldest = now_ms;
	unsigned i;

	memset(r, 0, sizeof(*r));
	pthread_mutex_lock(&p->lock);
	if (p->outstanding && !p->out_counted && tw_probe_now_ns() - p->out_start_ns > p->timeout_ns) {
		p->slots[p->cur].timeouts++;
		p->slots[p->cur].missed++;
		p->out_counted = 1;
	}
	for (i = 0; i < p->nslots; i++) {
		const struct slot *s = &p->slots[i];

		if (!s->used)
			continue;
		tw_hist_merge(&r->hist, &s->hist);
		r->timeouts += s->timeouts;
		r->missed += s->missed;
		r->errors += s->errors;
		if (s->start_ms < oldest)
			oldest = s->start_ms;
	}
	r->window_ms = now_ms - oldest;
	if (p->paused) {
		r->state = p->state;
		snprintf(r->reason, sizeof(r->reason), "%s", p->reason);
	} else if (p->outstanding && p->out_counted) {
		r->state = TW_PROBE_ERRORS;
		snprintf(r->reason, sizeof(r->reason), "a read has been outstanding for %llu s",
		    (unsigned long long)((tw_probe_now_ns() - p->out_start_ns) / 1000000000u));
	} else {
		r->state = p->run_state;
		snprintf(r->reason, sizeof(r->reason), "%s", p->run_reason);
	}
	r->reads = p->reads;
	r->read_size = p->fd >= 0 ? p->bs : 0;
	r->rate = p->rate;
	pthread_mutex_unlock(&p->lock);
}
