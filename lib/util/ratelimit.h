/* A limit of so many events a minute, for notifications: thousands of
 * disks in trouble at once must not become thousands of traps a minute.
 *
 * A fixed one-minute window on the monotonic clock: simple to state in a
 * MIB description ("at most N a minute") and to test. What the limit holds
 * back is counted, never queued: the MIB still holds every finding. */
#ifndef TW_RATELIMIT_H
#define TW_RATELIMIT_H

#include <stdint.h>

struct tw_ratelimit {
	unsigned per_minute;		/* 0: no limit */
	uint64_t minute_start_ms;
	unsigned used;			/* events allowed in this minute */
	uint64_t suppressed;		/* events held back, ever */
};

void tw_ratelimit_init(struct tw_ratelimit *r, unsigned per_minute);

/* Whether one more event may go at now_ms (tw_clock_ms()): 1 and counted
 * when it may, 0 and counted in suppressed when the minute is used up. */
int tw_ratelimit_allow(struct tw_ratelimit *r, uint64_t now_ms);

#endif
