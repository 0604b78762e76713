/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/lookup.h"

#include <stdio.h>
#include <string.h>

#include "advice/advice.h"

const char *
tw_view_queue_value(const struct tw_view_disk *d, const char *name, char *buf, size_t len)
{
	unsigned col;

	if (d == NULL || name == NULL)
		return NULL;
	if (strcmp(name, "queue/scheduler") == 0)
		return tw_view_has(d, TW_OID_DISK_SCHEDULER) ? d->scheduler : NULL;
	if (strcmp(name, "queue/nr_requests") == 0)
		col = TW_OID_DISK_NR_REQUESTS;
	else if (strcmp(name, "queue/read_ahead_kb") == 0)
		col = TW_OID_DISK_READ_AHEAD_KB;
	else if (strcmp(name, "queue/wbt_lat_usec") == 0)
		col = TW_OID_DISK_WBT_LATENCY;
	else
		return NULL;
	if (!tw_view_has(d, col))
		return NULL;
	/* wbt_lat_usec is an Integer32: -1 is the kernel's default. */
	if (col == TW_OID_DISK_WBT_LATENCY)
		snprintf(buf, len, "%lld", (long long)(int64_t)d->col[col]);
	else
		snprintf(buf, len, "%llu", (unsigned long long)d->col[col]);
	return buf;
}

const char *
tw_view_lookup(void *ctx, const char *name)
{
	struct tw_view_lookup *c = ctx;
	const char *sys = c->v->agent.system;

	if (strcmp(name, TW_ADVICE_OSRELEASE) == 0) {
		if (!tw_view_has(&c->v->agent, TW_OID_AGENT_SYSTEM) ||
		    strncmp(sys, "Linux ", 6) != 0 || sys[6] == '\0')
			return NULL;
		return sys + 6;
	}
	if (strncmp(name, "queue/", 6) != 0)
		return tw_view_tunable(c->v, name);
	return tw_view_queue_value(c->d, name, c->buf, sizeof(c->buf));
}
