/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include "probes.h"

#include "probe/probeset.h"
#include "util/clock.h"
#include "util/error.h"

static struct tw_probeset *probes;

static void
log_line(void *ctx, int warning, const char *line)
{
	(void)ctx;
	snmp_log(warning ? LOG_WARNING : LOG_NOTICE, TW_AGENT_NAME ": %s\n", line);
}

int
tw_agent_probes_open(const struct tw_agent_options *o, unsigned intervals)
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
	return tw_probeset_open(&probes, &c) == TW_OK ? 0 : -1;
}

void
tw_agent_probes_run(void)
{
	if (probes != NULL)
		tw_probeset_run(probes);
}

void
tw_agent_probes_tick(struct tw_view *v)
{
	const struct tw_probe_row *rows;
	uint64_t now;
	size_t n;

	if (probes == NULL)
		return;
	now = tw_clock_ms();
	tw_probeset_tick(probes, now);
	rows = tw_probeset_rows(probes, now, &n);
	if (tw_view_put_probes(v, rows, n) != TW_OK)
		snmp_log(LOG_ERR, TW_AGENT_NAME ": no memory for twProbeTable; serving the "
		    "previous one\n");
}

void
tw_agent_probes_close(void)
{
	tw_probeset_close(probes);
	probes = NULL;
}
