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
	if (q->ring == NULL)
		return TW_E_NOMEM;
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
	memset(q, 0, sizeof(*q));
}

int
tw_sendq_push(struct tw_sendq *q, void *item)
{
	/* The newest is the one dropped: the older ones were announced
	 * first, and a receiver sees what it gets in the order it happened. */
	if (q->n == q->cap) {
		q->free_item(item);
		q->dropped++;
		return 1;
	}
	q->ring[(q->head + q->n) % q->cap] = item;
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
