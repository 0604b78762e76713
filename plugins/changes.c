/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "changes.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "threshold/perfdata.h"
#include "util/error.h"
#include "view/record_agent.h"
#include "view/record_change.h"

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

/* A text of the change as the check prints it: "" when the row has none. */
static const char *
shown(const char *s)
{
	return s != NULL ? s : "";
}

static void
one_line(const struct tw_agent_record *agent, const struct tw_change_record *c, time_t now,
    struct tw_out *out)
{
	time_t when = tw_fig_has(c->time_s) ? (time_t)c->time_s : 0;
	char at[32], due[32], before[48], after[80], subject[TW_VIEW_SUBJECT + 24] = "";
	const char *unit = shown(c->unit);
	size_t used = 0;

	clock_time(at, sizeof(at), when, now);
	if (c->finding_id != NULL && c->finding_id[0] != '\0')
		used = (size_t)snprintf(subject, sizeof(subject), "%s ", c->finding_id);
	if (c->subject != NULL && strcmp(c->subject, "host") != 0 && c->subject[0] != '\0' &&
	    used < sizeof(subject))
		snprintf(subject + used, sizeof(subject) - used, "%s ", c->subject);
	if (c->figure == NULL) {
		tw_out_line(out, "change: %s%s %s -> %s at %s; no figure watches it", subject,
		    shown(c->tunable), shown(c->old_value), shown(c->new_value), at);
		return;
	}
	if (tw_fig_has(c->before)) {
		figure(before, sizeof(before), c->before);
		snprintf(before + strlen(before), sizeof(before) - strlen(before), " %s", unit);
	} else {
		snprintf(before, sizeof(before), "no figure");
	}
	if (tw_fig_has(c->after)) {
		figure(after, sizeof(after), c->after);
		snprintf(after + strlen(after), sizeof(after) - strlen(after), " %s after", unit);
	} else if (c->evaluated == 1) {
		snprintf(after, sizeof(after), "no figure after");
	} else {
		clock_time(due, sizeof(due), when + (tw_fig_has(agent->window_s) ?
		    (time_t)agent->window_s : 0), now);
		snprintf(after, sizeof(after), "after: pending, window completes at %s", due);
	}
	tw_out_line(out, "change: %s%s %s -> %s at %s; %s %s before, %s", subject,
	    shown(c->tunable), shown(c->old_value), shown(c->new_value), at, c->figure, before,
	    after);
}

int
tw_plugin_change_is_cgroup(const struct tw_change_record *c)
{
	return (c->finding_id != NULL && c->finding_id[0] != '\0') ||
	    (c->figure != NULL && strcmp(c->figure, "cgroup refaults") == 0);
}

int
tw_plugin_changes(const struct tw_view *v, enum tw_change_family family,
    int (*shown_by)(const struct tw_view *, const struct tw_change_record *), struct tw_out *out)
{
	time_t now = time(NULL);
	struct tw_agent_record agent;
	struct tw_change_record c;
	size_t i;
	int n = 0;

	tw_view_agent_record(&v->agent, &agent);
	/* The view keeps them newest first, as the agent lists them. */
	for (i = 0; i < v->nchanges && n < TW_PLUGIN_CHANGE_LINES; i++) {
		tw_view_change_record(&v->changes[i], &c);
		if (c.tunable == NULL || tw_change_family_of(c.tunable) != family ||
		    (shown_by != NULL && !shown_by(v, &c)))
			continue;
		one_line(&agent, &c, now, out);
		n++;
	}
	return n;
}
