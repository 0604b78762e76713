/* SPDX-License-Identifier: ISC */
/* Whether a dropping socket's receiver is short of CPU: over the
 * intervals of the window in which the socket dropped, each weighted by
 * its drops, how much of a CPU its owner's threads ran and waited to run
 * (/proc/PID/task/TID/schedstat: time on a CPU and time runnable on a run
 * queue, in ns), and how many of the drops fell in intervals that began
 * or ended with its queue at least half its buffer. The drops the window
 * counts are what is judged: once a flood stops, the receiver catches up
 * and sleeps, and the flood's last interval, begun full, ends drained and
 * partly idle. While the window still holds drops but too
 * few intervals of them to say, the figures of the episode's last window
 * that could say are kept.
 *
 * A receiver that cannot keep up at any buffer size (a fixed cost per
 * datagram above what one CPU does in the time, or its CPU taken by
 * others) is never off a CPU for want of data: it runs or waits to run
 * the whole time, and its queue stays full while the excess is dropped.
 * A bigger buffer then fills in a moment and drops the same; only the
 * receiver's CPU (or its code) would help. A receiver that stalls in
 * bursts, which a buffer does help, sleeps between them and is seen with
 * its queue empty at most samples.
 *
 * The owner is read only while its socket drops (in the window) and its
 * owner is known, so a quiet host pays nothing; a process of more than
 * TW_SOCK_BUSY_THREADS threads is not read (its figures stay unknown). */
#ifndef TW_SOCKBUSY_H
#define TW_SOCKBUSY_H

#include <stdint.h>

#define TW_SOCK_BUSY_THREADS 64

/* One interval of the window. */
struct tw_busy_slot {
	uint64_t run_ns;	/* the owner's threads on a CPU */
	uint64_t wait_ns;	/* runnable, waiting for one */
	uint64_t span_ns;	/* the interval, by the clock; 0: not read */
	uint64_t drops;		/* the socket's drops in it */
	int full;		/* dropped, queue >= half its buffer at its
				 * start or its end */
	int drained;		/* dropped, full at its start and not at its
				 * end: its CPU is not counted */
};

/* The window's figures, over the intervals in which the socket dropped,
 * weighted by their drops: the queue's from two such intervals (one is a
 * moment, not a steady excess), the CPU's from one read (the first
 * interval of drops, in which its owner is found, is not: the CPU must be
 * known by the next, or a flood over two intervals would leave it
 * unknown). The CPU leaves out an interval that began with the queue
 * full and ended drained: the receiver caught up in it and may have slept
 * (a flood's last interval), which says nothing of its CPU under the
 * excess, and that pulled a receiver short of CPU under TW_SHORT_CPU_BUSY
 * in the flood's tail (the lab's neg-udp-cpu, --quick). An interval never
 * seen full (or whose queue is not known) still counts: its full share
 * decides. */
#define TW_SOCK_BUSY_MIN 2
#define TW_SOCK_BUSY_MIN_CPU 1
struct tw_busy_window {
	unsigned dropped;	/* intervals the socket dropped in */
	int have_full;		/* TW_SOCK_BUSY_MIN of them */
	double full_share;	/* of the drops, in intervals ending full */
	int have_cpu;		/* TW_SOCK_BUSY_MIN_CPU of them were read */
	double run_share;	/* of one CPU, over those read, drained ones
				 * left out */
	double wait_share;
};

struct tw_sock_busy {
	struct tw_busy_slot *ring;	/* the window's intervals */
	unsigned intervals;
	int32_t pid;			/* the last reading was of; 0: none */
	uint64_t run_ns, wait_ns;	/* that reading */
	uint64_t at_ns;			/* when it was taken */
	int full_before;		/* the queue was full at the last step */
	struct tw_busy_window kept;	/* the episode's last whole figures */
};

int tw_sockbusy_init(struct tw_sock_busy *b, unsigned intervals);
void tw_sockbusy_free(struct tw_sock_busy *b);

/* One reading of an owner (tw_sockbusy_read). */
struct tw_busy_reading {
	int32_t pid;		/* 0: not read */
	uint64_t run_ns, wait_ns;
};

/* The interval that ends now (ring slot `slot`): the socket's drops in
 * it, and whether its queue holds at least half its buffer now (full; the
 * interval counts as full if it did at its start or its end); rd is its
 * owner read at now_ns (NULL, or pid 0: not read, unknown for this
 * interval). */
void tw_sockbusy_step(struct tw_sock_busy *b, unsigned slot, uint64_t drops, int full,
    const struct tw_busy_reading *rd, uint64_t now_ns);

/* The figures over the window as it stands (tw_sockbusy_step keeps the
 * episode's last whole ones where the window no longer has enough). */
void tw_sockbusy_window(const struct tw_sock_busy *b, struct tw_busy_window *out);

/* The sum of run and wait ns over pid's threads under proc_fd; TW_E_ABSENT
 * when the process is gone or unreadable, TW_E_TOOBIG past
 * TW_SOCK_BUSY_THREADS threads. */
int tw_sockbusy_read(int proc_fd, int32_t pid, uint64_t *run_ns, uint64_t *wait_ns);

#endif
