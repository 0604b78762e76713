/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "probe/uring.h"

#include <errno.h>
#include <linux/io_uring.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CQ_ENTRIES 1024	/* results pending at once before the kernel keeps them aside */

int
tw_uring_init(struct tw_uring *u, unsigned sq)
{
	struct io_uring_params p;
	size_t sq_len, cq_len;
	int fd, err;

	memset(u, 0, sizeof(*u));
	u->fd = -1;
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE;
	p.cq_entries = CQ_ENTRIES;
	fd = (int)syscall(SYS_io_uring_setup, sq, &p);
	if (fd < 0)
		return errno;
	/* One mapping for both rings (5.4); results never dropped when
	 * many are pending (5.5). */
	if (!(p.features & IORING_FEAT_SINGLE_MMAP) || !(p.features & IORING_FEAT_NODROP)) {
		close(fd);
		return EINVAL;
	}
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	u->ring_len = sq_len > cq_len ? sq_len : cq_len;
	u->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	u->ring = mmap(NULL, u->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
	    IORING_OFF_SQ_RING);
	if (u->ring == MAP_FAILED) {
		err = errno;
		close(fd);
		return err;
	}
	u->sqes = mmap(NULL, u->sqes_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
	    IORING_OFF_SQES);
	if (u->sqes == MAP_FAILED) {
		err = errno;
		munmap(u->ring, u->ring_len);
		close(fd);
		return err;
	}
	u->fd = fd;
	u->sq_tail = (unsigned *)((char *)u->ring + p.sq_off.tail);
	u->sq_array = (unsigned *)((char *)u->ring + p.sq_off.array);
	u->sq_mask = *(unsigned *)((char *)u->ring + p.sq_off.ring_mask);
	u->sq_entries = p.sq_entries;
	u->cq_head = (unsigned *)((char *)u->ring + p.cq_off.head);
	u->cq_tail = (unsigned *)((char *)u->ring + p.cq_off.tail);
	u->cq_mask = *(unsigned *)((char *)u->ring + p.cq_off.ring_mask);
	u->cqes = (char *)u->ring + p.cq_off.cqes;
	return 0;
}

void
tw_uring_free(struct tw_uring *u)
{
	if (u->fd < 0)
		return;
	munmap(u->sqes, u->sqes_len);
	munmap(u->ring, u->ring_len);
	close(u->fd);
	u->fd = -1;
}

/* The next free entry, cleared; NULL when the queue is full. */
static struct io_uring_sqe *
next_sqe(struct tw_uring *u)
{
	unsigned tail = *u->sq_tail;	/* only this thread moves it */
	struct io_uring_sqe *q;

	if (u->queued >= u->sq_entries)
		return NULL;
	q = (struct io_uring_sqe *)u->sqes + (tail & u->sq_mask);
	memset(q, 0, sizeof(*q));
	return q;
}

static void
queue_sqe(struct tw_uring *u)
{
	unsigned tail = *u->sq_tail;

	u->sq_array[tail & u->sq_mask] = tail & u->sq_mask;
	/* The entry is written before the kernel can see the new tail. */
	__atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
	u->queued++;
}

int
tw_uring_read(struct tw_uring *u, int fd, void *buf, unsigned len, uint64_t off, uint64_t tag)
{
	struct io_uring_sqe *q = next_sqe(u);

	if (q == NULL)
		return -1;
	q->opcode = IORING_OP_READ;
	q->fd = fd;
	q->addr = (uint64_t)(uintptr_t)buf;
	q->len = len;
	q->off = off;
	q->user_data = tag;
	queue_sqe(u);
	return 0;
}

int
tw_uring_submit(struct tw_uring *u)
{
	long n;

	if (u->queued == 0)
		return 0;
	n = syscall(SYS_io_uring_enter, u->fd, u->queued, 0, 0, NULL, 0);
	if (n < 0)
		return errno;
	/* An entry the kernel refused comes back as a result, not here;
	 * one it did not get to stays queued. */
	u->queued -= (unsigned)n < u->queued ? (unsigned)n : u->queued;
	return 0;
}

unsigned
tw_uring_reap(struct tw_uring *u, void (*done)(void *ctx, uint64_t tag, int res), void *ctx)
{
	unsigned head = *u->cq_head;
	unsigned tail = __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE);
	unsigned n = 0;

	for (; head != tail; head++, n++) {
		const struct io_uring_cqe *c = (const struct io_uring_cqe *)u->cqes + (head & u->cq_mask);

		done(ctx, c->user_data, c->res);
	}
	/* The entries are read before the kernel may write over them. */
	__atomic_store_n(u->cq_head, head, __ATOMIC_RELEASE);
	return n;
}
