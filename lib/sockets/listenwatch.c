/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "sockets/listenwatch.h"

#include <stdlib.h>
#include <string.h>

#include "collect/sockdiag.h"
#include "util/error.h"

int
tw_listenwatch_init(struct tw_listenwatch *w, unsigned intervals, int enabled)
{
	memset(w, 0, sizeof(*w));
	if (intervals < 1)
		return TW_E_INVAL;
	if ((w->ring = calloc(intervals, sizeof(*w->ring))) == NULL)
		return TW_E_NOMEM;
	w->intervals = intervals;
	w->enabled = enabled;
	w->dump_rc = TW_E_ABSENT;
	return TW_OK;
}

void
tw_listenwatch_free(struct tw_listenwatch *w)
{
	free(w->ring);
	memset(w, 0, sizeof(*w));
}

/* A listener's queue at its backlog is full: the next connection
 * overflows it. */
static void
one(void *ctx, uint32_t uid, unsigned port, uint32_t queued, uint32_t backlog)
{
	struct tw_listen_slot *s = ctx;

	(void)port;
	if (queued == 0 || queued < backlog)
		return;
	if (!s->seen) {
		s->seen = 1;
		s->uid = uid;
	} else if (s->uid != uid) {
		s->mixed = 1;
	}
}

void
tw_listenwatch_step(struct tw_listenwatch *w, const struct tw_netstat_set *net)
{
	struct tw_listen_slot *slot = &w->ring[w->seq % w->intervals];
	uint64_t v = 0;
	int have = net != NULL && tw_netstat_get(net, "TcpExt", "ListenOverflows", &v) == TW_OK;

	memset(slot, 0, sizeof(*slot));
	if (w->enabled && have && w->gate_valid && v > w->gate)
		w->dump_rc = tw_sockdiag_listeners(one, slot);
	w->gate_valid = have;
	w->gate = v;
	w->seq++;
}

int
tw_listenwatch_owner(const struct tw_listenwatch *w, uint32_t *uid)
{
	unsigned i;
	int seen = 0;

	for (i = 0; i < w->intervals; i++) {
		const struct tw_listen_slot *s = &w->ring[i];

		if (!s->seen)
			continue;
		if (s->mixed || (seen && s->uid != *uid))
			return 0;
		*uid = s->uid;
		seen = 1;
	}
	return seen;
}
