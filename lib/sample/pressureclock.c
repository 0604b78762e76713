/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "sample/pressureclock.h"

#include <string.h>

void
tw_pressure_clock_init(struct tw_pressure_clock *c)
{
	memset(c, 0, sizeof(*c));
}

uint64_t
tw_pressure_clock_step(struct tw_pressure_clock *c, uint64_t now_ms, int in_pressure,
    int have_chrono, uint64_t chrono)
{
	uint64_t dt = c->started && now_ms > c->last_ms ? now_ms - c->last_ms : 0, total;
	/* The same episode as at the last reading: in it then and now, and
	 * none ended in between (the chrono would have grown). */
	int same = c->started && c->in && in_pressure &&
	    (!have_chrono || (c->had_chrono && chrono == c->chrono));

	c->ongoing = same ? c->ongoing + dt : 0;
	if (c->started && c->in && in_pressure)
		c->seen += dt;
	total = have_chrono ? chrono + c->ongoing : c->seen;
	if (total < c->total)
		total = c->total;
	c->started = 1;
	c->in = in_pressure != 0;
	c->had_chrono = have_chrono;
	c->chrono = chrono;
	c->last_ms = now_ms;
	c->total = total;
	return total;
}
