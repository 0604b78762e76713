/* SPDX-License-Identifier: ISC */
/* tunewatchd's hooks for the distribution of every request
 * (lib/reqlat/): the BPF program is loaded before the agent gives up root,
 * and its state goes to snmp_log once when set and once when it changes,
 * never at every sample. */
#ifndef TW_AGENT_REQLATHOOKS_H
#define TW_AGENT_REQLATHOOKS_H

#include "monitor/monitor.h"
#include "options.h"

/* Set the source up in m, as o says (off by requestLatency no, or with a
 * --proc-root or --sys-root, whose devices are not the kernel's). Returns
 * 0, or -1 when memory runs out. */
int tw_agent_reqlat_open(struct tw_monitor *m, const struct tw_agent_options *o);

/* After each sample: say so once if the source's state changed. */
void tw_agent_reqlat_tick(const struct tw_monitor *m);

#endif
