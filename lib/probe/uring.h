/* SPDX-License-Identifier: ISC */
/* The few io_uring calls the probe needs, through syscall(2): no library.
 *
 * One ring, used by one thread: reads are queued (tw_uring_read), handed
 * to the kernel with tw_uring_submit, and their results taken from the
 * completion ring (tw_uring_reap), which is memory shared with the kernel:
 * looking at it costs no system call. io_uring rather than a thread per
 * device: on this kind of machine a thread's wake-up costs more CPU than
 * the read it waits for, and one thread reading for all devices wakes
 * once for all reads that are due together. Rather than Linux AIO:
 * io_uring never blocks in submission (a read that would wait for a tag
 * or a throttle goes to a kernel worker), so one slow device cannot hold
 * the other devices' reads back. */
#ifndef TW_URING_H
#define TW_URING_H

#include <stddef.h>
#include <stdint.h>

struct tw_uring {
	int fd;
	void *ring;		/* the rings' shared memory */
	size_t ring_len;
	void *sqes;
	size_t sqes_len;
	unsigned *sq_tail, *sq_array, sq_mask, sq_entries;
	unsigned *cq_head, *cq_tail, cq_mask;
	void *cqes;
	unsigned queued;	/* reads queued, not yet submitted */
};

/* A ring with room for sq reads queued at once. 0, or an errno value
 * (ENOSYS: no io_uring; EPERM: kernel.io_uring_disabled; EINVAL: a
 * kernel older than 5.5). */
int tw_uring_init(struct tw_uring *u, unsigned sq);
void tw_uring_free(struct tw_uring *u);

/* Queue a read of len bytes at off into buf; tag comes back with its
 * result. 0, or -1 when the submission queue is full. */
int tw_uring_read(struct tw_uring *u, int fd, void *buf, unsigned len, uint64_t off,
    uint64_t tag);

/* Hand the queued reads to the kernel. 0, or an errno value (then they
 * stay queued). Waiting for results is poll(2) on u->fd, which is
 * readable when one is there: a wait that valgrind and strace know. */
int tw_uring_submit(struct tw_uring *u);

/* Call done(ctx, tag, res) for each result there now (res: bytes read,
 * or -errno); the number of results. No system call. */
unsigned tw_uring_reap(struct tw_uring *u, void (*done)(void *ctx, uint64_t tag, int res),
    void *ctx);

#endif
