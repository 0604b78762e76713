/* SPDX-License-Identifier: ISC */
/* The record of a change in tunewatchd: after each sample, compare the
 * tunables with the previous sample's (lib/change/), publish the history
 * in twChangeTable and announce what happened through the master:
 * twTunableChanged when a change is seen, twTunableChangeEvaluated when
 * the window after it is complete. */
#ifndef TW_AGENT_CHANGES_H
#define TW_AGENT_CHANGES_H

#include "monitor/monitor.h"

/* window_s: the window after a change that evaluates it. */
void tw_agent_changes_init(unsigned window_s);
void tw_agent_changes_free(void);

/* After a successful tw_monitor_sample(m). */
void tw_agent_changes_step(struct tw_monitor *m);

#endif
