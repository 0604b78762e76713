/* SPDX-License-Identifier: ISC */
/* TCP's time in memory pressure, in milliseconds, including the episode
 * under way.
 *
 * The kernel adds an episode's length to TcpExt TCPMemoryPressuresChrono
 * only when TCP leaves pressure (tcp_leave_memory_pressure), and counts
 * the entry (TCPMemoryPressures) only when it begins: while an episode
 * lasts, neither moves. Measured here with eight senders that never rest:
 * pressure held for 8 s, both counters still; the chrono rose by 8,040 ms
 * when the senders stopped. /proc/net/protocols says whether TCP is in
 * pressure now, so the clock adds the time it has seen an episode last to
 * the kernel's figure for those that ended:
 *
 *   total = chrono + (in pressure since the last reading, with no episode
 *            ended in between ? the time seen in it : 0)
 *
 * When an episode ends the chrono grows by all of it, which is at least
 * what the clock had seen of it, so the total never falls; it is also
 * held never to fall where the kernel's rounding (jiffies) would. A kernel
 * without the chrono (before 4.15) gets the time seen in pressure alone:
 * each interval that began and ended in it. */
#ifndef TW_PRESSURECLOCK_H
#define TW_PRESSURECLOCK_H

#include <stdint.h>

struct tw_pressure_clock {
	int started;		/* a reading was taken */
	int in;			/* in pressure at the last reading */
	int had_chrono;
	uint64_t chrono;	/* the kernel's figure at the last reading */
	uint64_t last_ms;	/* when (monotonic) */
	uint64_t ongoing;	/* ms seen of the episode under way */
	uint64_t seen;		/* without a chrono: ms seen in pressure */
	uint64_t total;		/* the last total given */
};

void tw_pressure_clock_init(struct tw_pressure_clock *c);

/* One reading at now_ms (monotonic): whether TCP is in pressure, and the
 * kernel's chrono (have_chrono 0: it has none). Returns the total. */
uint64_t tw_pressure_clock_step(struct tw_pressure_clock *c, uint64_t now_ms, int in_pressure,
    int have_chrono, uint64_t chrono);

#endif
