/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "probes.h"

#include "probe/probeset.h"
#include "util/error.h"

static struct tw_probeset *probes;

static void
log_line(void *ctx, int warning, const char *line)
{
	(void)ctx;
	snmp_log(warning ? LOG_WARNING : LOG_NOTICE, TW_AGENT_NAME ": %s\n", line);
}

int
tw_agent_probes_open(struct tw_monitor *m, const struct tw_agent_options *o, unsigned intervals)
{
	struct tw_probeset_config c;

	if (o->nprobes == 0)
		return 0;
	memset(&c, 0, sizeof(c));
	c.specs = o->probes;
	c.nspecs = o->nprobes;
	c.sys_root = o->sys_root;
	c.timeout_ms = o->probe_timeout_s * 1000;
	c.idle_s = o->probe_idle_s;
	c.intervals = intervals > 0 ? intervals : 1;
	c.log = log_line;
	if (tw_probeset_open(&probes, &c) != TW_OK)
		return -1;
	tw_monitor_probes(m, probes);
	return 0;
}

void
tw_agent_probes_run(void)
{
	if (probes != NULL)
		tw_probeset_run(probes);
}

void
tw_agent_probes_close(void)
{
	tw_probeset_close(probes);
	probes = NULL;
}
