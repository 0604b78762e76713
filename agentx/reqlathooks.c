/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "reqlathooks.h"

#include <string.h>

#include "reqlat/reqlat.h"
#include "util/error.h"

static enum tw_reqlat_state logged = TW_REQLAT_NSTATES;

static void
log_state(const struct tw_monitor *m)
{
	const char *reason;
	enum tw_reqlat_state st = tw_monitor_reqlat_state(m, &reason);

	if (st == logged)
		return;
	logged = st;
	if (st == TW_REQLAT_TIMING)
		snmp_log(LOG_NOTICE, TW_AGENT_NAME ": timing every request of the published disks "
		    "(BPF on the block tracepoints)\n");
	else if (st == TW_REQLAT_OFF)
		snmp_log(LOG_INFO, TW_AGENT_NAME ": request latency off: %s\n", reason);
	else
		snmp_log(LOG_WARNING, TW_AGENT_NAME ": request latency not timed (%s): %s\n",
		    tw_reqlat_state_name(st), reason);
}

int
tw_agent_reqlat_open(struct tw_monitor *m, const struct tw_agent_options *o)
{
	struct tw_reqlat_config c;

	memset(&c, 0, sizeof(c));
	c.devices = o->reqlat_devices;
	c.program_clock = o->reqlat_program_clock;
	if (o->reqlat_off) {
		c.off = 1;
		c.off_reason = "requestLatency no";
	} else if (o->proc_root != NULL || o->sys_root != NULL) {
		/* A fixture's devices are not the kernel's: timing the kernel's
		 * under their numbers would publish figures of other disks. */
		c.off = 1;
		c.off_reason = "a procRoot or sysRoot is set: the kernel's requests are not of "
		    "those devices";
	}
	if (tw_monitor_reqlat(m, &c) != TW_OK)
		return -1;
	log_state(m);
	return 0;
}

void
tw_agent_reqlat_tick(const struct tw_monitor *m)
{
	log_state(m);
}
