/* SPDX-License-Identifier: ISC */
/* tunewatchd's hooks for the active probe (lib/probe/probeset.h): the
 * devices are opened while the agent still has root, read from threads
 * started after it has gone into the background, and their figures put
 * into the view after each sample. Their news goes to snmp_log. */
#ifndef TW_AGENT_PROBES_H
#define TW_AGENT_PROBES_H

#include "monitor/monitor.h"
#include "options.h"

/* Open the probed devices (none without probe lines), and have m put
 * their figures into twProbeTable at each sample. Returns 0, or -1 when
 * memory runs out. */
int tw_agent_probes_open(struct tw_monitor *m, const struct tw_agent_options *o,
    unsigned intervals);

/* Start reading; after netsnmp_daemonize(). */
void tw_agent_probes_run(void);

void tw_agent_probes_close(void);

#endif
