/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "findnotify.h"

#include "finding/tracker.h"
#include "notify.h"
#include "view/notice.h"

unsigned
tw_findnotify_send(const struct tw_monitor *m)
{
	size_t i, n;
	const struct tw_finding_event *events = tw_monitor_events(m, &n);
	struct tw_notice notice;
	unsigned sent = 0;
	int rc;

	for (i = 0; i < n; i++) {
		tw_notice_finding(&notice, (unsigned)events[i].kind, &events[i].finding);
		rc = tw_notify_send_notice(&notice);
		if (rc < 0)
			snmp_log(LOG_ERR, "tunewatchd: cannot build a notification: out of memory\n");
		else if (rc == 0)
			sent++;
	}
	return sent;
}
