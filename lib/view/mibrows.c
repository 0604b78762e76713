/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/mibrows.h"

/* Which cells a row has, and of what type, the column table says
 * (tw_column_load): here are only where the rows are and their indexes. */

static size_t
pool_rows(const struct tw_view *v)
{
	return v->npools;
}

static const void *
pool_row(const struct tw_view *v, size_t i)
{
	return &v->pools[i];
}

static void
pool_index(const struct tw_view *v, size_t i, uint32_t *idx)
{
	idx[0] = v->pools[i].cls;
	idx[1] = v->pools[i].instance;
}

static size_t
disk_rows(const struct tw_view *v)
{
	return v->ndisks;
}

static const void *
disk_row(const struct tw_view *v, size_t i)
{
	return &v->disks[i];
}

static void
disk_index(const struct tw_view *v, size_t i, uint32_t *idx)
{
	idx[0] = v->disks[i].major;
	idx[1] = v->disks[i].minor;
}

static size_t
tunable_rows(const struct tw_view *v)
{
	return v->ntunables;
}

static const void *
tunable_row(const struct tw_view *v, size_t i)
{
	return &v->tunables[i];
}

static void
tunable_index(const struct tw_view *v, size_t i, uint32_t *idx)
{
	idx[0] = v->tunables[i].index;
}

/* twChangeTable: the view keeps its rows by index, newest first. */
static size_t
change_rows(const struct tw_view *v)
{
	return v->nchanges;
}

static const void *
change_row(const struct tw_view *v, size_t i)
{
	return &v->changes[i];
}

static void
change_index(const struct tw_view *v, size_t i, uint32_t *idx)
{
	idx[0] = v->changes[i].index;
}

static size_t
sock_rows(const struct tw_view *v)
{
	return v->nsocks;
}

static const void *
sock_row(const struct tw_view *v, size_t i)
{
	return &v->socks[i];
}

static void
sock_index(const struct tw_view *v, size_t i, uint32_t *idx)
{
	idx[0] = v->socks[i].proto;
	idx[1] = v->socks[i].inode;
}

static size_t
probe_rows(const struct tw_view *v)
{
	return v->nprobes;
}

static const void *
probe_row(const struct tw_view *v, size_t i)
{
	return &v->probes[i];
}

static void
probe_index(const struct tw_view *v, size_t i, uint32_t *idx)
{
	idx[0] = v->probes[i].major;
	idx[1] = v->probes[i].minor;
}

/* ---- Findings: twFindings' scalars, and twFindingTable one
 * level below them, at twObjects.6.8. */
static size_t
finding_rows(const struct tw_view *v)
{
	return v->nfindings;
}

static const void *
finding_row(const struct tw_view *v, size_t i)
{
	return &v->findings[i];
}

static void
finding_index(const struct tw_view *v, size_t i, uint32_t *idx)
{
	idx[0] = v->findings[i].index;
}


static size_t
cgroup_rows(const struct tw_view *v)
{
	return v->ncgroups;
}

static const void *
cgroup_row(const struct tw_view *v, size_t i)
{
	return &v->cgroups[i];
}

static void
cgroup_index(const struct tw_view *v, size_t i, uint32_t *idx)
{
	idx[0] = v->cgroups[i].index;
}

static size_t
reqlat_rows(const struct tw_view *v)
{
	return v->nreqlats;
}

static const void *
reqlat_row(const struct tw_view *v, size_t i)
{
	return &v->reqlats[i];
}

static void
reqlat_index(const struct tw_view *v, size_t i, uint32_t *idx)
{
	idx[0] = v->reqlats[i].major;
	idx[1] = v->reqlats[i].minor;
	idx[2] = v->reqlats[i].dir;
}

static size_t
reqhist_rows(const struct tw_view *v)
{
	return v->nreqhists;
}

static const void *
reqhist_row(const struct tw_view *v, size_t i)
{
	return &v->reqhists[i];
}

static void
reqhist_index(const struct tw_view *v, size_t i, uint32_t *idx)
{
	idx[0] = v->reqhists[i].major;
	idx[1] = v->reqhists[i].minor;
	idx[2] = v->reqhists[i].dir;
	idx[3] = v->reqhists[i].bound;
}

/* In twObjects' order. The findings table is keyed by its scalar group's
 * number: it is the only table below twObjects.6. */
static const struct tw_mv_table tables[] = {
	{ TW_OID_DBLOCK_TABLE, pool_rows, pool_row, pool_index },
	{ TW_OID_DISK_TABLE, disk_rows, disk_row, disk_index },
	{ TW_OID_TUNABLE_TABLE, tunable_rows, tunable_row, tunable_index },
	{ TW_OID_FINDINGS, finding_rows, finding_row, finding_index },
	{ TW_OID_CHANGE_TABLE, change_rows, change_row, change_index },
	{ TW_OID_PROBE_TABLE, probe_rows, probe_row, probe_index },
	{ TW_OID_CGROUP_TABLE, cgroup_rows, cgroup_row, cgroup_index },
	{ TW_OID_SOCKDROP_TABLE, sock_rows, sock_row, sock_index },
	{ TW_OID_REQLAT_TABLE, reqlat_rows, reqlat_row, reqlat_index },
	{ TW_OID_REQHIST_TABLE, reqhist_rows, reqhist_row, reqhist_index },
};

const void *
tw_mv_scalar_row(const struct tw_view *v, uint32_t id)
{
	if (id == TW_OID_FINDINGS)
		return &v->findsum;
	return id == TW_OID_AGENT ? (const void *)&v->agent : (const void *)&v->bc;
}

const struct tw_mv_table *
tw_mv_table(uint32_t id)
{
	size_t i;

	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (tables[i].id == id)
			return &tables[i];
	return NULL;
}
