/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "probe/probeloop.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "probe/probeio.h"
#include "probe/uring.h"

/* Reads handed to the kernel by one system call. A read's time starts
 * just before its call, and the kernel submits the reads of a call one
 * after the other (about 5 us each on a loop device here): the last of 64
 * in one call would count the submission of the 63 before it. 8 bounds
 * that to a few tens of microseconds for a few calls more. */
#define BATCH 8
#define DRAIN_NS 1000000000u

struct tw_probe_loop {
	pthread_mutex_t lock;	/* guards probes, n, cap, stop, out */
	pthread_t thread;
	int stop;
	int efd;		/* written to wake the thread */
	struct tw_uring ring;
	uint64_t epoch_ns;	/* the slots' common clock */
	struct tw_probe **probes;
	size_t n, cap;
	unsigned out;		/* reads in the kernel */
	/* The thread's own: the reads due in one turn. */
	struct tw_probe **due;
	struct tw_probe_read *rd;
	size_t tcap;
};

struct reaped {
	struct tw_probe_loop *l;
	uint64_t t1;
};

static void
done(void *ctx, uint64_t tag, int res)
{
	struct reaped *r = ctx;
	struct tw_probe *p = (struct tw_probe *)(uintptr_t)tag;

	r->l->out--;
	if (tw_probe_io_done(p, res, r->t1))
		tw_probe_io_free(p);
}

/* Take the results there now, timed now. */
static void
reap(struct tw_probe_loop *l)
{
	struct reaped r = { l, tw_probe_now_ns() };

	pthread_mutex_lock(&l->lock);
	tw_uring_reap(&l->ring, done, &r);
	pthread_mutex_unlock(&l->lock);
}

/* A read taken but never handed to the kernel. */
static void
give_up(struct tw_probe_loop *l, struct tw_probe *p)
{
	struct reaped r = { l, tw_probe_now_ns() };

	pthread_mutex_lock(&l->lock);
	done(&r, (uint64_t)(uintptr_t)p, -EAGAIN);
	pthread_mutex_unlock(&l->lock);
}

/* Hand k reads to the kernel, BATCH at a time, reaping between. */
static void
submit(struct tw_probe_loop *l, size_t k)
{
	size_t i, j, m;

	for (i = 0; i < k; i += m) {
		uint64_t t0;

		m = k - i < BATCH ? k - i : BATCH;
		for (j = i; j < i + m; j++)
			if (tw_uring_read(&l->ring, l->rd[j].fd, l->rd[j].buf, l->rd[j].len,
			    l->rd[j].off, (uint64_t)(uintptr_t)l->due[j]) != 0) {
				/* The queue is full (the last call failed): this
				 * read is not made, and says so. */
				give_up(l, l->due[j]);
				l->due[j] = NULL;
			}
		t0 = tw_probe_now_ns();
		for (j = i; j < i + m; j++)
			if (l->due[j] != NULL)
				tw_probe_io_started(l->due[j], t0);
		/* A failed call leaves them queued for the next one. */
		tw_uring_submit(&l->ring);
		reap(l);
	}
}

/* Sleep until next, a result or a wake-up, whichever is first. */
static void
wait_until(struct tw_probe_loop *l, uint64_t next)
{
	struct pollfd fds[2] = { { l->ring.fd, POLLIN, 0 }, { l->efd, POLLIN, 0 } };
	struct timespec ts;
	uint64_t now = tw_probe_now_ns(), v;

	if (next <= now)
		return;
	ts.tv_sec = (time_t)((next - now) / 1000000000u);
	ts.tv_nsec = (long)((next - now) % 1000000000u);
	if (ppoll(fds, 2, next == UINT64_MAX ? NULL : &ts, NULL) > 0 &&
	    (fds[1].revents & POLLIN) && read(l->efd, &v, sizeof(v)) < 0)
		v = 0;
	reap(l);
}

/* Room for every probe's read in one turn; under the lock. */
static void
fit(struct tw_probe_loop *l)
{
	struct tw_probe **d;
	struct tw_probe_read *r;

	if (l->tcap >= l->n)
		return;
	d = realloc(l->due, l->n * sizeof(*d));
	if (d != NULL)
		l->due = d;
	r = d != NULL ? realloc(l->rd, l->n * sizeof(*r)) : NULL;
	if (r != NULL) {
		l->rd = r;
		l->tcap = l->n;
	}
}

static void *
run(void *arg)
{
	struct tw_probe_loop *l = arg;
	uint64_t deadline;

	pthread_mutex_lock(&l->lock);
	while (!l->stop) {
		uint64_t now = tw_probe_now_ns(), next = UINT64_MAX;
		size_t i, k = 0;

		fit(l);
		for (i = 0; i < l->n && k < l->tcap; i++)
			if (tw_probe_io_take(l->probes[i], now, &next, &l->rd[k]))
				l->due[k++] = l->probes[i];
		l->out += (unsigned)k;
		pthread_mutex_unlock(&l->lock);
		submit(l, k);
		wait_until(l, next);
		pthread_mutex_lock(&l->lock);
	}
	/* Give the reads still out a second to end. */
	deadline = tw_probe_now_ns() + DRAIN_NS;
	while (l->out > 0) {
		uint64_t now = tw_probe_now_ns();

		if (now >= deadline)
			break;
		pthread_mutex_unlock(&l->lock);
		tw_uring_submit(&l->ring);
		wait_until(l, deadline);
		pthread_mutex_lock(&l->lock);
	}
	pthread_mutex_unlock(&l->lock);
	return NULL;
}

void
tw_probe_loop_wake(struct tw_probe_loop *l)
{
	uint64_t one = 1;

	/* Fails only when the counter is full: then it wakes anyway. */
	if (write(l->efd, &one, sizeof(one)) < 0)
		return;
}

int
tw_probe_loop_start(struct tw_probe_loop **out)
{
	struct tw_probe_loop *l = calloc(1, sizeof(*l));
	int err;

	*out = NULL;
	if (l == NULL)
		return ENOMEM;
	l->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (l->efd < 0) {
		err = errno;
		free(l);
		return err;
	}
	err = tw_uring_init(&l->ring, BATCH);
	if (err != 0) {
		close(l->efd);
		free(l);
		return err;
	}
	l->epoch_ns = tw_probe_now_ns();
	pthread_mutex_init(&l->lock, NULL);
	err = pthread_create(&l->thread, NULL, run, l);
	if (err != 0) {
		pthread_mutex_destroy(&l->lock);
		tw_uring_free(&l->ring);
		close(l->efd);
		free(l);
		return err;
	}
	*out = l;
	return 0;
}

int
tw_probe_loop_add(struct tw_probe_loop *l, struct tw_probe *p)
{
	pthread_mutex_lock(&l->lock);
	if (l->n == l->cap) {
		size_t cap = l->cap > 0 ? 2 * l->cap : 16;
		struct tw_probe **grown = realloc(l->probes, cap * sizeof(*grown));

		if (grown == NULL) {
			pthread_mutex_unlock(&l->lock);
			return -1;
		}
		l->probes = grown;
		l->cap = cap;
	}
	tw_probe_io_attach(p, l->epoch_ns, tw_probe_now_ns());
	l->probes[l->n++] = p;
	pthread_mutex_unlock(&l->lock);
	tw_probe_loop_wake(l);
	return 0;
}

void
tw_probe_loop_remove(struct tw_probe_loop *l, struct tw_probe *p)
{
	size_t i;

	pthread_mutex_lock(&l->lock);
	for (i = 0; i < l->n; i++)
		if (l->probes[i] == p) {
			l->probes[i] = l->probes[--l->n];
			break;
		}
	if (tw_probe_io_detach(p))
		tw_probe_io_free(p);
	pthread_mutex_unlock(&l->lock);
}

void
tw_probe_loop_stop(struct tw_probe_loop *l)
{
	size_t i;

	if (l == NULL)
		return;
	pthread_mutex_lock(&l->lock);
	l->stop = 1;
	pthread_mutex_unlock(&l->lock);
	tw_probe_loop_wake(l);
	pthread_join(l->thread, NULL);
	for (i = 0; i < l->n; i++)
		if (tw_probe_io_detach(l->probes[i]))
			tw_probe_io_free(l->probes[i]);
	/* A read still out after its second: its probe and buffer stay
	 * where the kernel may yet write. The ring itself can go: closing
	 * it does not free the buffer. */
	tw_uring_free(&l->ring);
	close(l->efd);
	pthread_mutex_destroy(&l->lock);
	free(l->probes);
	free(l->due);
	free(l->rd);
	free(l);
}
