/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "probe/probereader.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "probe/probeio.h"

/* A reader needs little stack: a pread and a line of text. */
#define STACK_SIZE (256u * 1024u)
#define DRAIN_NS 1000000000u

struct tw_probe_readers {
	pthread_mutex_t lock;	/* guards everything below */
	pthread_cond_t ended;	/* a thread ended */
	uint64_t epoch_ns;	/* a whole second of CLOCK_MONOTONIC */
	unsigned char *phase_used;
	unsigned nphases;
	unsigned live;		/* threads not yet ended */
};

struct tw_probe_reader {
	struct tw_probe_readers *rs;
	struct tw_probe *probe;
	unsigned phase;
	pthread_mutex_t lock;	/* guards stop and wakes */
	pthread_cond_t cond;
	int stop;
	unsigned wakes;
};

uint64_t
tw_probe_phase_ns(unsigned k)
{
	uint32_t r = 0;
	unsigned i;

	for (i = 0; i < 32; i++)
		r |= ((k >> i) & 1u) << (31 - i);
	return (uint64_t)r * TW_PROBE_PHASE_SPAN_NS >> 32;
}

static void
abs_time(uint64_t ns, struct timespec *ts)
{
	ts->tv_sec = (time_t)(ns / 1000000000u);
	ts->tv_nsec = (long)(ns % 1000000000u);
}

static int
cond_init_monotonic(pthread_cond_t *c)
{
	pthread_condattr_t a;
	int err;

	if ((err = pthread_condattr_init(&a)) != 0)
		return err;
	err = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	if (err == 0)
		err = pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
	return err;
}

/* The lowest phase no live reader holds; under rs->lock. */
static int
take_phase(struct tw_probe_readers *rs, unsigned *out)
{
	unsigned k;

	for (k = 0; k < rs->nphases; k++)
		if (!rs->phase_used[k])
			break;
	if (k == rs->nphases) {
		unsigned n = rs->nphases > 0 ? 2 * rs->nphases : 16;
		unsigned char *grown = realloc(rs->phase_used, n);

		if (grown == NULL)
			return ENOMEM;
		memset(grown + rs->nphases, 0, n - rs->nphases);
		rs->phase_used = grown;
		rs->nphases = n;
	}
	rs->phase_used[k] = 1;
	*out = k;
	return 0;
}

static void
reader_free(struct tw_probe_reader *r)
{
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

/* The thread's end: its probe, itself and its phase go, the set last, so
 * that once the set has seen it end nothing of it is left to free. */
static void
finish(struct tw_probe_reader *r)
{
	struct tw_probe_readers *rs = r->rs;
	unsigned phase = r->phase;

	tw_probe_io_free(r->probe);
	reader_free(r);
	pthread_mutex_lock(&rs->lock);
	rs->phase_used[phase] = 0;
	rs->live--;
	pthread_cond_broadcast(&rs->ended);
	pthread_mutex_unlock(&rs->lock);
}

/* Read when a slot is due, else sleep until the next slot, a wake-up or
 * the stop. The read's time is the pread's alone. */
static void *
read_loop(void *arg)
{
	struct tw_probe_reader *r = arg;

	pthread_mutex_lock(&r->lock);
	while (!r->stop) {
		unsigned seen = r->wakes;
		uint64_t next = UINT64_MAX;
		struct tw_probe_read rd;

		pthread_mutex_unlock(&r->lock);
		if (tw_probe_io_take(r->probe, tw_probe_now_ns(), &next, &rd)) {
			uint64_t t0, t1;
			ssize_t n;

			t0 = tw_probe_now_ns();
			n = pread(rd.fd, rd.buf, rd.len, (off_t)rd.off);
			t1 = tw_probe_now_ns();
			tw_probe_io_done(r->probe, n >= 0 ? (int)n : -errno, t0, t1);
			pthread_mutex_lock(&r->lock);
			continue;	/* take again: it says when the next slot is */
		}
		pthread_mutex_lock(&r->lock);
		while (!r->stop && r->wakes == seen) {
			struct timespec ts;

			if (next == UINT64_MAX) {
				pthread_cond_wait(&r->cond, &r->lock);
				continue;
			}
			abs_time(next, &ts);
			if (pthread_cond_timedwait(&r->cond, &r->lock, &ts) == ETIMEDOUT)
				break;
		}
	}
	pthread_mutex_unlock(&r->lock);
	finish(r);
	return NULL;
}

int
tw_probe_readers_start(struct tw_probe_readers **out)
{
	struct tw_probe_readers *rs = calloc(1, sizeof(*rs));

	*out = NULL;
	if (rs == NULL)
		return ENOMEM;
	if (cond_init_monotonic(&rs->ended) != 0) {
		free(rs);
		return ENOMEM;
	}
	pthread_mutex_init(&rs->lock, NULL);
	rs->epoch_ns = tw_probe_now_ns() / 1000000000u * 1000000000u;
	*out = rs;
	return 0;
}

/* The thread with every signal blocked: they are the agent's to take. */
static int
spawn(struct tw_probe_reader *r)
{
	pthread_attr_t attr;
	pthread_t t;
	sigset_t all, old;
	int err;

	if ((err = pthread_attr_init(&attr)) != 0)
		return err;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, STACK_SIZE);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&t, &attr, read_loop, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return err;
}

int
tw_probe_reader_start(struct tw_probe_readers *rs, struct tw_probe *p,
    struct tw_probe_reader **out)
{
	struct tw_probe_reader *r = calloc(1, sizeof(*r));
	int err;

	*out = NULL;
	if (r == NULL)
		return ENOMEM;
	if (cond_init_monotonic(&r->cond) != 0) {
		free(r);
		return ENOMEM;
	}
	pthread_mutex_init(&r->lock, NULL);
	r->rs = rs;
	r->probe = p;
	pthread_mutex_lock(&rs->lock);
	err = take_phase(rs, &r->phase);
	if (err == 0) {
		tw_probe_io_attach(p, rs->epoch_ns + tw_probe_phase_ns(r->phase), tw_probe_now_ns());
		err = spawn(r);
		if (err == 0)
			rs->live++;
		else
			rs->phase_used[r->phase] = 0;
	}
	pthread_mutex_unlock(&rs->lock);
	if (err != 0) {
		reader_free(r);
		return err;
	}
	*out = r;
	return 0;
}

static void
poke(struct tw_probe_reader *r, int stop)
{
	pthread_mutex_lock(&r->lock);
	if (stop)
		r->stop = 1;
	r->wakes++;
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

void
tw_probe_reader_wake(struct tw_probe_reader *r)
{
	poke(r, 0);
}

void
tw_probe_reader_stop(struct tw_probe_reader *r)
{
	poke(r, 1);
}

void
tw_probe_readers_stop(struct tw_probe_readers *rs)
{
	struct timespec ts;
	int left;

	if (rs == NULL)
		return;
	abs_time(tw_probe_now_ns() + DRAIN_NS, &ts);
	pthread_mutex_lock(&rs->lock);
	while (rs->live > 0)
		if (pthread_cond_timedwait(&rs->ended, &rs->lock, &ts) == ETIMEDOUT)
			break;
	left = rs->live > 0;
	pthread_mutex_unlock(&rs->lock);
	if (left)
		return;		/* a thread stuck in a read still refers to the set */
	pthread_cond_destroy(&rs->ended);
	pthread_mutex_destroy(&rs->lock);
	free(rs->phase_used);
	free(rs);
}
