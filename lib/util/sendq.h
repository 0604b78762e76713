/* SPDX-License-Identifier: ISC */
/* A bounded queue of messages for a peer that answers each one (an AgentX
 * master answers every Notify with a Response), sent only when sending
 * cannot block.
 *
 * Two peers that both write to a stream socket before they read from it
 * stop for good once both directions are full: tunewatchd sent hundreds
 * of notifications in a row while snmpd's answers to them filled the
 * socket the other way, and each then waited in the kernel for the other
 * to read. So a message goes only while fewer than max_inflight are
 * unanswered (the answers then always fit in the peer's socket buffer)
 * and poll says the socket is writable (the message then fits in ours);
 * the rest wait here, at most cap of them, and one more is dropped and
 * counted. Nothing is ever sent twice or lost uncounted:
 * pushed = sent + dropped + queued.
 *
 * Items may have a class (up to TW_SENDQ_CLASSES): a full queue takes one
 * more of a class that holds less than its share (cap / classes) by
 * dropping the newest of the class that holds the most, so that a burst
 * of one class leaves room for every other's. */
#ifndef TW_SENDQ_H
#define TW_SENDQ_H

#include <stddef.h>
#include <stdint.h>

typedef void tw_sendq_free_fn(void *item);

#define TW_SENDQ_CLASSES 4

struct tw_sendq {
	void **ring;
	unsigned char *cls;		/* each slot's class */
	size_t held[TW_SENDQ_CLASSES];	/* queued items of each class */
	size_t cap, head, n;
	unsigned inflight, max_inflight;
	uint64_t sent;		/* handed to the peer */
	uint64_t dropped;	/* found the queue full, or failed to go */
	tw_sendq_free_fn *free_item;
};

/* cap and max_inflight of at least 1. TW_OK, TW_E_INVAL or TW_E_NOMEM. */
int tw_sendq_init(struct tw_sendq *q, size_t cap, unsigned max_inflight,
    tw_sendq_free_fn *free_item);
/* Free what is still queued (not counted: the program ends). */
void tw_sendq_free(struct tw_sendq *q);

/* Take item in every case: 0 when queued, 1 when the queue was full (item
 * freed and counted in dropped). */
int tw_sendq_push(struct tw_sendq *q, void *item);

/* The same for an item of class cls of nclasses (at most
 * TW_SENDQ_CLASSES): 0 when queued, which may have dropped (and counted)
 * the newest item of the class that held the most; 1 when the queue was
 * full and cls held its share already (item freed and counted). */
int tw_sendq_push_class(struct tw_sendq *q, void *item, unsigned cls, unsigned nclasses);

/* The oldest queued item, taken off the queue, when it may go to fd now
 * (fewer than max_inflight unanswered, and fd writable: see
 * tw_fd_writable); NULL otherwise. The caller sends it, then calls
 * tw_sendq_sent, or tw_sendq_failed when it could not go. */
void *tw_sendq_next(struct tw_sendq *q, int fd);
void tw_sendq_sent(struct tw_sendq *q);
void tw_sendq_failed(struct tw_sendq *q);

/* One answer came (or the wait for it ended): one fewer in flight. */
void tw_sendq_answered(struct tw_sendq *q);
/* The peer went away: nothing in flight will be answered. */
void tw_sendq_forget_inflight(struct tw_sendq *q);

/* Whether a write to fd would not block now: poll(2) with no wait says
 * POLLOUT. On Linux a stream socket is writable while what it holds
 * unread is at most a quarter of its send buffer, so a message of a few
 * KiB fits whole. 0 on an error or a hang-up. */
int tw_fd_writable(int fd);

#endif
