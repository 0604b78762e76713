/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/ratchet.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/blockqueue.h"
#include "view/record_change.h"
#include "view/record_pool.h"

/* Two values the same, whatever blanks separate a vector's fields. */
static int
same_value(const char *a, const char *b)
{
	for (;;) {
		while (*a == ' ' || *a == '\t')
			a++;
		while (*b == ' ' || *b == '\t')
			b++;
		if (*a == '\0' || *b == '\0')
			return *a == *b;
		if (*a != *b)
			return 0;
		a++;
		b++;
		/* A run of blanks in one must be a run in the other. */
		if ((*a == ' ' || *a == '\t') != (*b == ' ' || *b == '\t'))
			return 0;
	}
}

/* Whether the figure got better from before to after: higher for the
 * read hit ratio, lower for every other. */
static int
better(const struct tw_change_record *c)
{
	if (c->figure != NULL && strcmp(c->figure, "read hit ratio") == 0)
		return c->after > c->before;
	return c->after < c->before;
}

/* Whether TCP, raised to new_value, still holds at least its first
 * value, below which alone it leaves memory pressure (sock.c,
 * sk_leave_memory_pressure). A doubling makes the new first value the old
 * second, the very level above which TCP entered pressure, so a steady
 * workload that entered it stays in it after the first doubling whatever
 * the raise gave: its time in pressure cannot fall, and an unchanged share
 * is no evidence that the raise did not help (the lab's net-tcp-mem: 100 %
 * of the time before and after 3072 6144 12288 -> 6144 12288 24576 while
 * the delivered rate rose, the pressure gone only at the third doubling).
 * A raise after which TCP holds less than the new first value, and yet
 * its share did not fall, is held back as any other. */
static int
tcp_cannot_leave(const struct tw_view *v, const char *tunable, const char *new_value)
{
	struct tw_pool_class_record pc;
	unsigned long long first;
	char *end;

	if (strcmp(tunable, "net.ipv4.tcp_mem") != 0 || new_value == NULL)
		return 0;
	tw_view_pool_class_record(v, TW_DBLOCK_TCP_MEMORY, &pc);
	if (!pc.found || !tw_fig_has(pc.busiest.in_use))
		return 0;
	errno = 0;
	first = strtoull(new_value, &end, 10);
	if (errno != 0 || end == new_value || first == 0)
		return 0;
	return pc.busiest.in_use >= (double)first;
}

int
tw_ratchet_pending(const struct tw_view *v, const char *tunable, struct tw_change_record *c)
{
	size_t i;

	if (v == NULL || tunable == NULL || c == NULL)
		return 0;
	/* The view keeps them newest first. */
	for (i = 0; i < v->nchanges; i++) {
		tw_view_change_record(&v->changes[i], c);
		if (c->tunable == NULL || strcmp(c->tunable, tunable) != 0 ||
		    c->subject == NULL || strcmp(c->subject, "host") != 0)
			continue;
		return c->evaluated == 0;
	}
	return 0;
}

int
tw_ratchet_held(const struct tw_view *v, const struct tw_suggestion *s, char *why,
    size_t len)
{
	size_t i;

	if (v == NULL || s == NULL || s->name == NULL || s->proposed[0] == '\0' ||
	    s->current[0] == '\0' || s->dir != TW_ADV_UP || tw_queue_attr(s->name) != NULL)
		return 0;
	/* The view keeps them newest first. */
	for (i = 0; i < v->nchanges; i++) {
		struct tw_change_record c;

		tw_view_change_record(&v->changes[i], &c);
		if (c.tunable == NULL || strcmp(c.tunable, s->name) != 0 || c.subject == NULL ||
		    strcmp(c.subject, "host") != 0)
			continue;
		/* Its newest change set another value: not ours to judge. */
		if (c.new_value == NULL || !same_value(c.new_value, s->current))
			return 0;
		if (c.evaluated != 1) {
			snprintf(why, len, "%s was raised to %s (from %s) and the window after the "
			    "change has not closed: not raised again until the change history says "
			    "whether that helped", s->name, s->current, c.old_value != NULL ?
			    c.old_value : "?");
			return 1;
		}
		if (!tw_fig_has(c.before) || !tw_fig_has(c.after) || better(&c) ||
		    tcp_cannot_leave(v, s->name, c.new_value))
			return 0;
		snprintf(why, len, "%s was raised to %s (from %s) and %s did not get better (%g "
		    "before, %g after): not raised again without new evidence", s->name,
		    s->current, c.old_value != NULL ? c.old_value : "?", c.figure != NULL ?
		    c.figure : "its figure", c.before, c.after);
		return 1;
	}
	return 0;
}
