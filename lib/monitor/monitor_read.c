/* SPDX-License-Identifier: ISC */
/* What a monitor lets its callers read: the view, the findings' events,
 * the tracker, the change history and the request-latency state. */
#include "config.h"

#include "monitor/monitor_priv.h"

#include "util/error.h"

const struct tw_view *
tw_monitor_view(const struct tw_monitor *m)
{
	return &m->view;
}

const struct tw_finding_event *
tw_monitor_events(const struct tw_monitor *m, size_t *n)
{
	*n = m->findings ? m->tracker.nevents : 0;
	return m->tracker.events;
}

const struct tw_tracker *
tw_monitor_tracker(const struct tw_monitor *m)
{
	return m->findings ? &m->tracker : NULL;
}

const struct tw_change_history *
tw_monitor_change_history(const struct tw_monitor *m)
{
	return m->changes ? &m->watch.history : NULL;
}

int
tw_monitor_change_status(const struct tw_monitor *m)
{
	return m->changes ? m->changes_rc : TW_OK;
}

enum tw_reqlat_state
tw_monitor_reqlat_state(const struct tw_monitor *m, const char **reason)
{
	if (m->reqlat == NULL) {
		*reason = "";
		return TW_REQLAT_NSTATES;
	}
	return tw_reqlat_state(m->reqlat, reason);
}
