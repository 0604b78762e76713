/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "changes.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "threshold/perfdata.h"
#include "tunewatch_oids.h"
#include "util/error.h"

/* A figure as the checks print numbers: 152, 48.5, 0.33. */
static void
figure(char *buf, size_t len, double x)
{
	if (tw_perf_number(x, 2, buf, len) != TW_OK)
		snprintf(buf, len, "?");
}

/* "10:14" on the day of now, "2026-11-29 10:14" on another, local time. */
static void
clock_time(char *buf, size_t len, time_t t, time_t now)
{
	struct tm tm, today;

	if (localtime_r(&t, &tm) == NULL || localtime_r(&now, &today) == NULL) {
		snprintf(buf, len, "?");
		return;
	}
	strftime(buf, len, tm.tm_year == today.tm_year && tm.tm_yday == today.tm_yday ?
	    "%H:%M" : "%Y-%m-%d %H:%M", &tm);
}

static void
one_line(const struct tw_view *v, const struct tw_view_change *c, time_t now, struct tw_out *out)
{
	time_t when = (time_t)c->col[TW_OID_CHANGE_TIME];
	char at[32], due[32], before[48], after[80], subject[40] = "";
	int evaluated = tw_view_has(c, TW_OID_CHANGE_EVALUATED) &&
	    c->col[TW_OID_CHANGE_EVALUATED] == 1;

	clock_time(at, sizeof(at), when, now);
	if (strcmp(c->subject, "host") != 0 && c->subject[0] != '\0')
		snprintf(subject, sizeof(subject), "%s ", c->subject);
	if (!tw_view_has(c, TW_OID_CHANGE_FIGURE)) {
		tw_out_line(out, "change: %s%s %s -> %s at %s; no figure watches it", subject,
		    c->tunable, c->old_value, c->new_value, at);
		return;
	}
	if (tw_view_has(c, TW_OID_CHANGE_BEFORE)) {
		figure(before, sizeof(before), tw_view_num(c, TW_OID_CHANGE_BEFORE));
		snprintf(before + strlen(before), sizeof(before) - strlen(before), " %s", c->unit);
	} else {
		snprintf(before, sizeof(before), "no figure");
	}
	if (tw_view_has(c, TW_OID_CHANGE_AFTER)) {
		figure(after, sizeof(after), tw_view_num(c, TW_OID_CHANGE_AFTER));
		snprintf(after + strlen(after), sizeof(after) - strlen(after), " %s after", c->unit);
	} else if (evaluated) {
		snprintf(after, sizeof(after), "no figure after");
	} else {
		clock_time(due, sizeof(due), when + (time_t)v->agent.col[TW_OID_AGENT_WINDOW], now);
		snprintf(after, sizeof(after), "after: pending, window completes at %s", due);
	}
	tw_out_line(out, "change: %s%s %s -> %s at %s; %s %s before, %s", subject, c->tunable,
	    c->old_value, c->new_value, at, c->figure, before, after);
}

int
tw_plugin_changes(const struct tw_view *v, enum tw_change_family family, struct tw_out *out)
{
	time_t now = time(NULL);
	size_t i;
	int n = 0;

	/* The view keeps them newest first, as the agent lists them. */
	for (i = 0; i < v->nchanges && n < TW_PLUGIN_CHANGE_LINES; i++) {
		const struct tw_view_change *c = &v->changes[i];

		if (!tw_view_has(c, TW_OID_CHANGE_TUNABLE) ||
		    tw_change_family_of(c->tunable) != family)
			continue;
		one_line(v, c, now, out);
		n++;
	}
	return n;
}
