/* A limit of so many events a minute, for notifications: thousands of
 * disks in trouble at once must not become thousands of traps a minute.
 * The limit has a ceiling, whatever is asked for: every notification goes
 * through snmpd to every trap sink it has, and a receiver such as snmptt
 * starts a process for each, so "no limit" (0) is the ceiling.
 *
 * A fixed one-minute window on the monotonic clock: simple to state in a
 * MIB description ("at most N a minute") and to test. What the limit holds
 * back is counted, never queued: the MIB still holds every finding. */
#ifndef TW_RATELIMIT_H
#define TW_RATELIMIT_H

#include <stdint.h>

/* At most this many a minute, ten a second on average. */
#define TW_RATELIMIT_CEILING 600

struct tw_ratelimit {
	unsigned per_minute;		/* 1 to TW_RATELIMIT_CEILING */
	uint64_t minute_start_ms;
	unsigned used;			/* events allowed in this minute */
	uint64_t suppressed;		/* events held back, ever */
};

/* per_minute 0, or above TW_RATELIMIT_CEILING, is the ceiling. */
void tw_ratelimit_init(struct tw_ratelimit *r, unsigned per_minute);

/* Whether one more event may go at now_ms (tw_clock_ms()): 1 and counted
 * when it may, 0 and counted in suppressed when the minute is used up. */
int tw_ratelimit_allow(struct tw_ratelimit *r, uint64_t now_ms);

#endif
