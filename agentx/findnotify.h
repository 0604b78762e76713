/* SPDX-License-Identifier: ISC */
/* The notifications of findings: twFindingRaised, twFindingCleared and
 * twFindingSeverityChanged, one per event of the tracker's last sample,
 * each carrying the finding's columns so that a receiver needs no GET.
 * They go through agentx/notify.h, under its one limit a minute. */
#ifndef TW_AGENT_FINDNOTIFY_H
#define TW_AGENT_FINDNOTIFY_H

#include "monitor/monitor.h"

/* Send the events of m's last sample; returns how many were sent. */
unsigned tw_findnotify_send(const struct tw_monitor *m);

#endif
