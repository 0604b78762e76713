#include "config.h"

#include "util/ratelimit.h"

#include <string.h>

#define MINUTE_MS 60000u

void
tw_ratelimit_init(struct tw_ratelimit *r, unsigned per_minute)
{
	memset(r, 0, sizeof(*r));
	r->per_minute = per_minute == 0 || per_minute > TW_RATELIMIT_CEILING ?
	    TW_RATELIMIT_CEILING : per_minute;
}

int
tw_ratelimit_allow(struct tw_ratelimit *r, uint64_t now_ms)
{
	/* A new minute starts at the first event after the last one ended;
	 * a clock that went backwards (it cannot: monotonic) starts one too. */
	if (r->used == 0 || now_ms < r->minute_start_ms ||
	    now_ms - r->minute_start_ms >= MINUTE_MS) {
		r->minute_start_ms = now_ms;
		r->used = 0;
	}
	if (r->used >= r->per_minute) {
		r->suppressed++;
		return 0;
	}
	r->used++;
	return 1;
}
