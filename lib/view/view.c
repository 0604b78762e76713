/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/view.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"
#include "view/columns.h"

void
tw_view_init(struct tw_view *v)
{
	memset(v, 0, sizeof(*v));
}

void
tw_view_free(struct tw_view *v)
{
	free(v->disks);
	free(v->pools);
	free(v->tunables);
	free(v->socks);
	free(v->probes);
	free(v->findings);
	free(v->cgroups);
	free(v->reqlats);
	free(v->reqhists);
	memset(v, 0, sizeof(*v));
}

int
tw_view_reserve_disks(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->disks, &v->disks_cap, n, sizeof(*v->disks), &p);

	/* The rows are about to change: their records are no longer theirs
	 * until they are decoded again. */
	v->disks = p;
	return rc;
}

int
tw_view_reserve_pools(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->pools, &v->pools_cap, n, sizeof(*v->pools), &p);

	v->pools = p;
	return rc;
}

int
tw_view_reserve_tunables(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->tunables, &v->tunables_cap, n, sizeof(*v->tunables), &p);

	v->tunables = p;
	return rc;
}

int
tw_view_reserve_findings(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->findings, &v->findings_cap, n, sizeof(*v->findings), &p);

	v->findings = p;
	return rc;
}

int
tw_view_reserve_cgroups(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->cgroups, &v->cgroups_cap, n, sizeof(*v->cgroups), &p);

	v->cgroups = p;
	return rc;
}

static double
num(uint32_t group, uint32_t has, const uint64_t *col, unsigned c)
{
	const struct tw_column *tc = tw_column(group, c);

	if (tc == NULL || !(has & TW_VIEW_BIT(c)))
		return 0.0;
	return tw_column_decode(tc, col[c]);
}

double
tw_view_agent_num(const struct tw_view_agent *a, unsigned col)
{
	return num(TW_OID_AGENT, a->has, a->col, col);
}

double
tw_view_bc_num(const struct tw_view_bufcache *bc, unsigned col)
{
	return num(TW_OID_BUFCACHE, bc->has, bc->col, col);
}

double
tw_view_disk_num(const struct tw_view_disk *d, unsigned col)
{
	return num(TW_OID_DISK_TABLE, d->has, d->col, col);
}

double
tw_view_pool_num(const struct tw_view_pool *p, unsigned col)
{
	return num(TW_OID_DBLOCK_TABLE, p->has, p->col, col);
}

double
tw_view_cgroup_num(const struct tw_view_cgroup *c, unsigned col)
{
	return num(TW_OID_CGROUP_TABLE, c->has, c->col, col);
}

const char *
tw_view_tunable(const struct tw_view *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->ntunables; i++)
		if (strcmp(v->tunables[i].name, name) == 0)
			return v->tunables[i].value;
	return NULL;
}

int
tw_view_reserve_probes(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->probes, &v->probes_cap, n, sizeof(*v->probes), &p);

	v->probes = p;
	return rc;
}

double
tw_view_probe_num(const struct tw_view_probe *p, unsigned col)
{
	return num(TW_OID_PROBE_TABLE, p->has, p->col, col);
}

int
tw_view_reserve_reqlats(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->reqlats, &v->reqlats_cap, n, sizeof(*v->reqlats), &p);

	v->reqlats = p;
	return rc;
}

int
tw_view_reserve_reqhists(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->reqhists, &v->reqhists_cap, n, sizeof(*v->reqhists), &p);

	v->reqhists = p;
	return rc;
}

double
tw_view_reqlat_num(const struct tw_view_reqlat *r, unsigned col)
{
	return num(TW_OID_REQLAT_TABLE, r->has, r->col, col);
}

int
tw_view_reserve_socks(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->socks, &v->socks_cap, n, sizeof(*v->socks), &p);

	v->socks = p;
	return rc;
}

double
tw_view_sock_num(const struct tw_view_sock *s, unsigned col)
{
	return num(TW_OID_SOCKDROP_TABLE, s->has, s->col, col);
}

double
tw_view_change_num(const struct tw_view_change *c, unsigned col)
{
	return num(TW_OID_CHANGE_TABLE, c->has, c->col, col);
}
