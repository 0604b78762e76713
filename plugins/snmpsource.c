/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "snmpsource.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snmpdecode.h"
#include "snmpscalars.h"
#include "snmpsession.h"
#include "snmpwalk.h"
#include "collect/diskstats.h"
#include "util/error.h"
#include "view/record_disk.h"

/* Repetitions in the disk table's first GETBULK: enough for the one or two
 * disks of most hosts, and to see where the table ends, in one round trip.
 * A longer table takes a second, fuller one. */
#define DISK_FIRST_REPS 3
/* The same for the sockets that dropped: most hosts have none or a few,
 * and each repetition costs snmpd a round trip to tunewatchd. */
#define SOCK_FIRST_REPS 3

static int
cmp_disk(const void *a, const void *b)
{
	const struct tw_view_disk *x = a, *y = b;
	uint64_t ka = tw_disk_key(x->major, x->minor), kb = tw_disk_key(y->major, y->minor);

	return ka < kb ? -1 : ka > kb;
}

static int
cmp_pool(const void *a, const void *b)
{
	const struct tw_view_pool *x = a, *y = b;
	uint64_t ka = (uint64_t)x->cls << 32 | x->instance, kb = (uint64_t)y->cls << 32 | y->instance;

	return ka < kb ? -1 : ka > kb;
}

static int
cmp_sock(const void *a, const void *b)
{
	const struct tw_view_sock *x = a, *y = b;
	uint64_t ka = (uint64_t)x->proto << 32 | x->inode, kb = (uint64_t)y->proto << 32 | y->inode;

	return ka < kb ? -1 : ka > kb;
}

static int
cmp_tunable(const void *a, const void *b)
{
	const struct tw_view_tunable *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

static int
cmp_probe(const void *a, const void *b)
{
	const struct tw_view_probe *x = a, *y = b;

	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	return x->minor < y->minor ? -1 : x->minor > y->minor;
}

static int
cmp_reqlat(const void *a, const void *b)
{
	const struct tw_view_reqlat *x = a, *y = b;

	if (x->major != y->major)
		return x->major < y->major ? -1 : 1;
	if (x->minor != y->minor)
		return x->minor < y->minor ? -1 : 1;
	return x->dir < y->dir ? -1 : x->dir > y->dir;
}

static int
cmp_cgroup(const void *a, const void *b)
{
	const struct tw_view_cgroup *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* A label is never empty: a row the agent sent without a name is called
 * by its index. */
static void
name_unnamed(struct tw_view *v)
{
	size_t i;

	for (i = 0; i < v->ndisks; i++)
		if (v->disks[i].name[0] == '\0')
			snprintf(v->disks[i].name, sizeof(v->disks[i].name), "%u.%u",
			    v->disks[i].major, v->disks[i].minor);
	for (i = 0; i < v->npools; i++)
		if (v->pools[i].name[0] == '\0')
			snprintf(v->pools[i].name, sizeof(v->pools[i].name), "%u.%u",
			    v->pools[i].cls, v->pools[i].instance);
	for (i = 0; i < v->ncgroups; i++)
		if (v->cgroups[i].path[0] == '\0')
			snprintf(v->cgroups[i].path, sizeof(v->cgroups[i].path), "cgroup %u",
			    v->cgroups[i].index);
}

int
tw_snmp_fetch(const struct tw_snmp_target *t, unsigned what, struct tw_view *v,
    struct tw_snmp_stats *stats, char *err, size_t errlen)
{
	const unsigned tables = TW_FETCH_DISKS | TW_FETCH_POOLS | TW_FETCH_TUNABLES |
	    TW_FETCH_CHANGES | TW_FETCH_SOCKS | TW_FETCH_PROBES | TW_FETCH_CGROUPS |
	    TW_FETCH_REQLATS;
	struct tw_snmp_scalars scalars;
	struct tw_snmp_bad bad;
	struct tw_snmp_stats dummy;
	struct tw_snmp_conn c;
	int rc = TW_OK;

	memset(&c, 0, sizeof(c));
	memset(&bad, 0, sizeof(bad));
	c.t = t;
	c.stats = stats != NULL ? stats : &dummy;
	memset(c.stats, 0, sizeof(*c.stats));
	c.err = err;
	c.errlen = errlen;
	c.scalars = &scalars;
	c.bad = &bad;
	tw_snmp_scalars_init(&scalars, what);
	v->ndisks = v->npools = v->ntunables = v->nchanges = v->nsocks = v->nprobes = 0;
	v->ncgroups = v->nreqlats = v->nreqhists = 0;
	memset(&v->agent, 0, sizeof(v->agent));
	memset(&v->bc, 0, sizeof(v->bc));

	if ((rc = tw_snmp_open(&c)) != TW_OK)
		return rc;
	/* v1 has no GETBULK: there the scalars take a GET of their own, as
	 * they do when no table is wanted; otherwise the first table's first
	 * request carries them. */
	if (t->version == 1 || !(what & tables)) {
		rc = tw_snmp_scalars_get(&c, v);
		if (rc == TW_OK && !scalars.registered)
			rc = TW_E_ABSENT;
	}
	if (rc == TW_OK && (what & TW_FETCH_DISKS))
		rc = tw_snmp_walk(&c, v, TW_OID_DISK_TABLE, DISK_FIRST_REPS);
	if (rc == TW_OK && (what & TW_FETCH_POOLS))
		rc = tw_snmp_walk(&c, v, TW_OID_DBLOCK_TABLE, 0);
	if (rc == TW_OK && (what & TW_FETCH_SOCKS))
		rc = tw_snmp_walk(&c, v, TW_OID_SOCKDROP_TABLE, SOCK_FIRST_REPS);
	if (rc == TW_OK && (what & TW_FETCH_TUNABLES))
		rc = tw_snmp_walk(&c, v, TW_OID_TUNABLE_TABLE, 0);
	if (rc == TW_OK && (what & TW_FETCH_CHANGES))
		rc = tw_snmp_walk(&c, v, TW_OID_CHANGE_TABLE, 0);
	if (rc == TW_OK && (what & TW_FETCH_PROBES))
		rc = tw_snmp_walk(&c, v, TW_OID_PROBE_TABLE, 0);
	if (rc == TW_OK && (what & TW_FETCH_CGROUPS))
		rc = tw_snmp_walk(&c, v, TW_OID_CGROUP_TABLE, 0);
	if (rc == TW_OK && (what & TW_FETCH_REQLATS))
		rc = tw_snmp_walk(&c, v, TW_OID_REQLAT_TABLE, DISK_FIRST_REPS);
	tw_snmp_close(&c);
	if (rc == TW_E_ABSENT && !scalars.registered)
		snprintf(err, errlen, "tunewatchd is not registered with the SNMP agent at %s:%u "
		    "(no twAgentVersion)", t->host, t->port);
	if (rc == TW_OK && bad.set) {
		char what_bad[300];

		tw_snmp_bad_message(&bad, v, what_bad, sizeof(what_bad));
		snprintf(err, errlen, "the agent at %s:%u sent garbage: %s", t->host, t->port,
		    what_bad);
		rc = TW_E_INVAL;
	}
	if (rc != TW_OK)
		return rc;
	name_unnamed(v);
	/* Rows come in walk order, column by column; the view wants them by
	 * index. (qsort must not see the NULL of an empty table.) */
	if (v->ndisks > 1)
		qsort(v->disks, v->ndisks, sizeof(*v->disks), cmp_disk);
	if (v->npools > 1)
		qsort(v->pools, v->npools, sizeof(*v->pools), cmp_pool);
	if (v->nsocks > 1)
		qsort(v->socks, v->nsocks, sizeof(*v->socks), cmp_sock);
	if (v->ntunables > 1)
		qsort(v->tunables, v->ntunables, sizeof(*v->tunables), cmp_tunable);
	if (v->nprobes > 1)
		qsort(v->probes, v->nprobes, sizeof(*v->probes), cmp_probe);
	if (v->ncgroups > 1)
		qsort(v->cgroups, v->ncgroups, sizeof(*v->cgroups), cmp_cgroup);
	if (v->nreqlats > 1)
		qsort(v->reqlats, v->nreqlats, sizeof(*v->reqlats), cmp_reqlat);
	return TW_OK;
}
