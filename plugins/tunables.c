/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "tunables.h"

#include <string.h>

#include "util/error.h"

void
tw_tunables_init(struct tw_tunables *t, const struct tw_snmp_target *snmp,
    struct tw_snmp_stats *stats)
{
	t->snmp = snmp;
	t->stats = stats;
	tw_view_init(&t->view);
	t->rc = TW_OK;
	t->err[0] = '\0';
}

/* One read, whatever it gives: a table the agent does not have is not
 * asked for again for each name that is missing from it. */
static void
read_table(struct tw_tunables *t)
{
	struct tw_snmp_stats more;

	memset(&more, 0, sizeof(more));
	t->rc = tw_snmp_fetch(t->snmp, TW_FETCH_TUNABLES, &t->view, &more, t->err,
	    sizeof(t->err));
	t->snmp = NULL;
	if (t->stats != NULL) {
		t->stats->requests += more.requests;
		t->stats->varbinds += more.varbinds;
	}
}

const char *
tw_tunables_get(struct tw_tunables *t, const struct tw_view *v, const char *name)
{
	const char *value = v != NULL ? tw_view_tunable(v, name) : NULL;

	if (value != NULL || t == NULL)
		return value;
	if (t->snmp != NULL)
		read_table(t);
	return t->rc == TW_OK ? tw_view_tunable(&t->view, name) : NULL;
}

void
tw_tunables_free(struct tw_tunables *t)
{
	tw_view_free(&t->view);
}
