/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "util/sendq.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

int
tw_sendq_init(struct tw_sendq *q, size_t cap, unsigned max_inflight,
    tw_sendq_free_fn *free_item)
{
	memset(q, 0, sizeof(*q));
	if (cap == 0 || max_inflight == 0 || free_item == NULL)
		return TW_E_INVAL;
	q->ring = calloc(cap, sizeof(*q->ring));
	q->cls = calloc(cap, sizeof(*q->cls));
	if (q->ring == NULL || q->cls == NULL) {
		free(q->ring);
		free(q->cls);
		return TW_E_NOMEM;
	}
	q->cap = cap;
	q->max_inflight = max_inflight;
	q->free_item = free_item;
	return TW_OK;
}

void
tw_sendq_free(struct tw_sendq *q)
{
	while (q->n > 0) {
		q->free_item(q->ring[q->head]);
		q->head = (q->head + 1) % q->cap;
		q->n--;
	}
	free(q->ring);
	free(q->cls);
	memset(q, 0, sizeof(*q));
}

int
tw_sendq_push(struct tw_sendq *q, void *item)
{
	return tw_sendq_push_class(q, item, 0, 1);
}

/* Drop the newest queued item of class cls, closing the gap. */
static void
drop_newest(struct tw_sendq *q, unsigned cls)
{
	size_t k = q->n, at, next;

	while (k-- > 0)
		if (q->cls[(q->head + k) % q->cap] == cls)
			break;
	at = (q->head + k) % q->cap;
	q->free_item(q->ring[at]);
	q->dropped++;
	q->held[cls]--;
	for (; k + 1 < q->n; k++) {
		next = (q->head + k + 1) % q->cap;
		q->ring[at] = q->ring[next];
		q->cls[at] = q->cls[next];
		at = next;
	}
	q->n--;
}

int
tw_sendq_push_class(struct tw_sendq *q, void *item, unsigned cls, unsigned nclasses)
{
	size_t share, at;
	unsigned c, most = 0;

	if (nclasses < 1 || nclasses > TW_SENDQ_CLASSES || cls >= nclasses) {
		cls = 0;
		nclasses = 1;
	}
	if (q->n == q->cap) {
		/* The newest is the one dropped: the older ones were
		 * announced first, and a receiver sees what it gets in the
		 * order it happened; but a class under its share takes the
		 * place of the newest of the class that holds the most. */
		share = q->cap / nclasses;
		for (c = 1; c < nclasses; c++)
			if (q->held[c] > q->held[most])
				most = c;
		if (q->held[cls] >= share || most == cls || q->held[most] <= share) {
			q->free_item(item);
			q->dropped++;
			return 1;
		}
		drop_newest(q, most);
	}
	at = (q->head + q->n) % q->cap;
	q->ring[at] = item;
	q->cls[at] = (unsigned char)cls;
	q->held[cls]++;
	q->n++;
	return 0;
}

int
tw_fd_writable(int fd)
{
	struct pollfd p;
	int rc;

	if (fd < 0)
		return 0;
	p.fd = fd;
	p.events = POLLOUT;
	p.revents = 0;
	do
		rc = poll(&p, 1, 0);
	while (rc < 0 && errno == EINTR);
	return rc == 1 && (p.revents & POLLOUT) && !(p.revents & (POLLERR | POLLHUP | POLLNVAL));
}

void *
tw_sendq_next(struct tw_sendq *q, int fd)
{
	void *item;

	if (q->n == 0 || q->inflight >= q->max_inflight || !tw_fd_writable(fd))
		return NULL;
	item = q->ring[q->head];
	q->ring[q->head] = NULL;
	q->held[q->cls[q->head]]--;
	q->head = (q->head + 1) % q->cap;
	q->n--;
	return item;
}

void
tw_sendq_sent(struct tw_sendq *q)
{
	q->inflight++;
	q->sent++;
}

void
tw_sendq_failed(struct tw_sendq *q)
{
	q->dropped++;
}

void
tw_sendq_answered(struct tw_sendq *q)
{
	if (q->inflight > 0)
		q->inflight--;
}

void
tw_sendq_forget_inflight(struct tw_sendq *q)
{
	q->inflight = 0;
}
