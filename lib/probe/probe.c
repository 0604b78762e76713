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
	return sizeof(struct tw_probe) + (size_t)intervals * sizeof(struct tw_probe_slot) +
	    TW_PROBE_READ_SIZE;
}

struct tw_probe *
tw_probe_open(const struct tw_probe_params *pp)
{
	unsigned n = pp->intervals > 0 ? pp->intervals : 1;
	struct tw_probe *p = calloc(1, sizeof(*p) + n * sizeof(struct tw_probe_slot));

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
	struct tw_probe_slot *s;

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
		const struct tw_probe_slot *s = &p->slots[i];

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
