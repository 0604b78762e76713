/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/ratchet.h"

#include <stdio.h>
#include <string.h>

#include "collect/blockqueue.h"
#include "view/fig_change.h"

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
better(const struct tw_change_fig *c)
{
	if (c->figure != NULL && strcmp(c->figure, "read hit ratio") == 0)
		return c->after > c->before;
	return c->after < c->before;
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
		struct tw_change_fig c;

		tw_view_change_figures(&v->changes[i], &c);
		if (c.tunable == NULL || strcmp(c.tunable, s->name) != 0 || c.subject == NULL ||
		    strcmp(c.subject, "host") != 0)
			continue;
		/* Its newest change set another value: not ours to judge. */
		if (c.new_value == NULL || !same_value(c.new_value, s->current))
			return 0;
		if (c.evaluated != 1) {
			snprintf(why, len, "%s was raised to %s (from %s) and the window after the "
			    "change has not closed: not raised again until the change record says "
			    "whether that helped", s->name, s->current, c.old_value != NULL ?
			    c.old_value : "?");
			return 1;
		}
		if (!tw_fig_has(c.before) || !tw_fig_has(c.after) || better(&c))
			return 0;
		snprintf(why, len, "%s was raised to %s (from %s) and %s did not get better (%g "
		    "before, %g after): not raised again without new evidence", s->name,
		    s->current, c.old_value != NULL ? c.old_value : "?", c.figure != NULL ?
		    c.figure : "its figure", c.before, c.after);
		return 1;
	}
	return 0;
}
