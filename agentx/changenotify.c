/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "changenotify.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "change/history.h"
#include "notify.h"
#include "options.h"
#include "util/error.h"
#include "view/notice.h"

/* One notification about change c; a failure to build it is logged. */
static void
announce(int evaluated, const struct tw_change_record *c)
{
	struct tw_notice notice;

	tw_notice_change(&notice, evaluated, c);
	if (tw_notify_send_notice(&notice) < 0)
		snmp_log(LOG_WARNING, TW_AGENT_NAME ": cannot build a notification for the "
		    "change of %s\n", c->tunable);
}

void
tw_agent_changes_step(const struct tw_monitor *m)
{
	const struct tw_change_history *h = tw_monitor_change_history(m);
	struct tw_change_record list[TW_CHANGE_MAX];
	size_t i, n;
	int rc = tw_monitor_change_status(m);

	if (rc != TW_OK)
		snmp_log(LOG_ERR, TW_AGENT_NAME ": cannot keep the tunables for the change "
		    "history: %s\n", tw_strerror(rc));
	if (h == NULL)
		return;
	n = tw_change_history_list(h, list);
	/* Oldest first, so that a receiver sees changes in the order made. */
	for (i = n; i-- > 0;) {
		unsigned events = tw_change_history_at(h, i)->events;

		if (events & TW_CHANGE_EV_SEEN)
			announce(0, &list[i]);
		if (events & TW_CHANGE_EV_EVALUATED)
			announce(1, &list[i]);
	}
}
