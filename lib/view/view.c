/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/view.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"
#include "util/sorted.h"

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

int
tw_view_reserve_socks(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->socks, &v->socks_cap, n, sizeof(*v->socks), &p);

	v->socks = p;
	return rc;
}

/* Each table's rows in the order of their index (tw_sorted_find). */
static uint64_t
disk_key(const void *base, size_t i)
{
	const struct tw_view_disk *d = (const struct tw_view_disk *)base + i;

	return (uint64_t)d->major << 32 | d->minor;
}

static uint64_t
pool_key(const void *base, size_t i)
{
	const struct tw_view_pool *p = (const struct tw_view_pool *)base + i;

	return (uint64_t)p->cls << 32 | p->instance;
}

static uint64_t
cgroup_key(const void *base, size_t i)
{
	return ((const struct tw_view_cgroup *)base)[i].index;
}

const struct tw_view_disk *
tw_view_find_disk(const struct tw_view *v, uint32_t major, uint32_t minor)
{
	size_t i = tw_sorted_find(v->disks, v->ndisks, disk_key, (uint64_t)major << 32 | minor);

	return i < v->ndisks ? &v->disks[i] : NULL;
}

const struct tw_view_pool *
tw_view_find_pool(const struct tw_view *v, uint32_t cls, uint32_t instance)
{
	size_t i = tw_sorted_find(v->pools, v->npools, pool_key, (uint64_t)cls << 32 | instance);

	return i < v->npools ? &v->pools[i] : NULL;
}

const struct tw_view_cgroup *
tw_view_find_cgroup(const struct tw_view *v, uint32_t index)
{
	size_t i = tw_sorted_find(v->cgroups, v->ncgroups, cgroup_key, index);

	return i < v->ncgroups ? &v->cgroups[i] : NULL;
}
