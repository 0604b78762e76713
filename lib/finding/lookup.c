/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/lookup.h"

#include <stdio.h>
#include <string.h>

#include "advice/advice.h"
#include "collect/blockqueue.h"
#include "view/record_agent.h"

const char *
tw_view_queue_value(const struct tw_disk_record *d, const char *name, char *buf, size_t len)
{
	int64_t n;

	if (d == NULL || name == NULL)
		return NULL;
	if (strcmp(name, "queue/scheduler") == 0)
		return d->scheduler;
	if (strcmp(name, "queue/nr_requests") == 0)
		n = d->nr_requests;
	else if (strcmp(name, "queue/read_ahead_kb") == 0)
		n = d->read_ahead_kb;
	else if (strcmp(name, "queue/wbt_lat_usec") == 0) {
		/* An Integer32: -1 is the kernel's default, not an absence. */
		if (!tw_fig_has(d->wbt_lat_us))
			return NULL;
		snprintf(buf, len, "%lld", (long long)d->wbt_lat_us);
		return buf;
	} else
		return NULL;
	if (n < 0)
		return NULL;
	snprintf(buf, len, "%lld", (long long)n);
	return buf;
}

const char *
tw_view_lookup(void *ctx, const char *name)
{
	struct tw_view_lookup *c = ctx;
	struct tw_agent_record agent;

	if (strcmp(name, TW_ADVICE_OSRELEASE) == 0) {
		tw_view_agent_record(&c->v->agent, &agent);
		if (agent.system == NULL || strncmp(agent.system, "Linux ", 6) != 0 ||
		    agent.system[6] == '\0')
			return NULL;
		return agent.system + 6;
	}
	if (tw_queue_attr(name) == NULL)
		return tw_view_tunable(c->v, name);
	return tw_view_queue_value(c->d, name, c->buf, sizeof(c->buf));
}
