/* SPDX-License-Identifier: ISC */
/* The record of a change in tunewatchd: the monitor keeps it
 * (tw_monitor_changes) and publishes it in twChangeTable; after each
 * sample this announces what happened through the master:
 * twTunableChanged when a change is seen, twTunableChangeEvaluated when
 * the window after it is complete. */
#ifndef TW_AGENT_CHANGENOTIFY_H
#define TW_AGENT_CHANGENOTIFY_H

#include "monitor/monitor.h"

/* After a successful tw_monitor_sample(m). */
void tw_agent_changes_step(const struct tw_monitor *m);

#endif
