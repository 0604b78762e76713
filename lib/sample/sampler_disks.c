/* SPDX-License-Identifier: ISC */
/* The disk registry: every device of /proc/diskstats, remembered by its
 * number between samples with the filter's decision, its queue tunables
 * and its names, read when it appears and re-read a slice at a time. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sample/sampler_priv.h"
#include "util/error.h"

static uint64_t
disk_key(const struct tw_disk_stat *d)
{
	return tw_disk_key(d->major, d->minor);
}

static int
cmp_disk(const void *a, const void *b)
{
	uint64_t ka = disk_key(a), kb = disk_key(b);

	return ka < kb ? -1 : ka > kb;
}

/* Sort this sample's devices by key and drop duplicate keys (a kernel never
 * prints two lines for one device; a damaged file might). diskstats is
 * usually in registration order, not sorted, so sort unless it already is. */
static void
sort_unique(struct tw_disk_set *all, struct tw_parse_stats *ps)
{
	size_t i, n = 0;

	for (i = 1; i < all->count; i++)
		if (disk_key(&all->disks[i - 1]) > disk_key(&all->disks[i]))
			break;
	if (i < all->count)
		qsort(all->disks, all->count, sizeof(all->disks[0]), cmp_disk);
	for (i = 0; i < all->count; i++) {
		if (n > 0 && disk_key(&all->disks[n - 1]) == disk_key(&all->disks[i])) {
			ps->malformed++;
			continue;
		}
		if (n != i)
			all->disks[n] = all->disks[i];
		n++;
	}
	all->count = n;
}

/* The queue tunables and the names: both change rarely, so both are read
 * when a device appears and re-read in the same slices. */
static void
read_queue(struct tw_sampler *sp, struct tw_dev *d)
{
	enum tw_disk_type was = d->ident.type;

	tw_queue_init(&d->queue);
	(void)tw_queue_read(sp->roots.sys_fd, d->raw_name, &d->queue);
	(void)tw_ident_read(sp->roots.sys_fd, d->raw_name, &d->ident);
	if (d->ident.type != was)
		sp->paths_stale = 1;
}

static struct tw_dev *
find_dev(struct tw_sampler *sp, const char *name)
{
	size_t i;

	for (i = 0; i < sp->ndevs; i++)
		if (strcmp(sp->devs[i].raw_name, name) == 0)
			return &sp->devs[i];
	return NULL;
}

static void
mark_path(const char *name, void *ctx)
{
	struct tw_dev *d = find_dev(ctx, name);

	if (d != NULL)
		d->path = 1;
}

/* With the default filter, the paths under a multipath head (its slaves)
 * are hidden while the head is present: the head carries their I/O, and a
 * path's figures alone alert on half a device. Recomputed only when the
 * device set or a type changes, which is rare. */
static void
mark_paths(struct tw_sampler *sp)
{
	size_t i;

	if (!sp->paths_stale)
		return;
	sp->paths_stale = 0;
	for (i = 0; i < sp->ndevs; i++)
		sp->devs[i].path = 0;
	if (sp->hide_paths)
		for (i = 0; i < sp->ndevs; i++)
			if (sp->devs[i].pass &&
			    sp->devs[i].ident.type == TW_DISK_TYPE_MULTIPATH)
				(void)tw_ident_slaves(sp->roots.sys_fd, sp->devs[i].raw_name,
				    mark_path, sp);
	for (i = 0; i < sp->ndevs; i++)
		sp->devs[i].keep = sp->devs[i].pass && !sp->devs[i].path;
}

/* Carry the registry over to this sample's devices (all of them, sorted):
 * same key and name keep their decision and queue; anything else is a new
 * device. */
static int
merge_registry(struct tw_sampler *sp, const struct tw_disk_set *all)
{
	struct tw_dev *next, *old;
	size_t i, j = 0, old_cap;

	if (all->count > sp->spare_cap) {
		next = realloc(sp->spare, all->count * sizeof(*next));
		if (next == NULL)
			return TW_E_NOMEM;
		sp->spare = next;
		sp->spare_cap = all->count;
	}
	next = sp->spare;
	for (i = 0; i < all->count; i++) {
		const struct tw_disk_stat *d = &all->disks[i];
		uint64_t key = disk_key(d);

		while (j < sp->ndevs && sp->devs[j].key < key)
			j++;
		if (j < sp->ndevs && sp->devs[j].key == key &&
		    strcmp(sp->devs[j].raw_name, d->raw_name) == 0) {
			next[i] = sp->devs[j];
			continue;
		}
		next[i].key = key;
		memcpy(next[i].raw_name, d->raw_name, sizeof(next[i].raw_name));
		next[i].pass = tw_namefilter_keep(&sp->filter, d->name);
		next[i].path = 0;
		next[i].keep = next[i].pass;
		tw_queue_init(&next[i].queue);
		tw_ident_init(&next[i].ident);
		if (next[i].pass)
			read_queue(sp, &next[i]);
		sp->paths_stale = 1;
	}
	if (all->count != sp->ndevs)
		sp->paths_stale = 1;
	old = sp->devs;
	old_cap = sp->devs_cap;
	sp->devs = next;
	sp->devs_cap = sp->spare_cap;
	sp->ndevs = all->count;
	sp->spare = old;
	sp->spare_cap = old_cap;
	return TW_OK;
}

/* Re-reading a device's queue costs five file reads (some twenty system
 * calls): a slice of at least QUEUE_SLICE_MIN devices is re-read per
 * sample and never more than QUEUE_SLICE_MAX, so that the re-reading costs
 * no more with 10,000 disks than with 1,536; such a host simply takes
 * longer than a window to go round them all. */
#define QUEUE_SLICE_MIN 64
#define QUEUE_SLICE_MAX 128

/* Re-read the queue tunables of a slice of the devices. */
static void
refresh_queues(struct tw_sampler *sp)
{
	size_t budget, i;

	if (sp->ndevs == 0)
		return;
	if (sp->queue_refresh <= 1) {
		budget = sp->ndevs;
	} else {
		budget = (sp->ndevs + sp->queue_refresh - 1) / sp->queue_refresh;
		if (budget < QUEUE_SLICE_MIN)
			budget = QUEUE_SLICE_MIN;
		if (budget > QUEUE_SLICE_MAX)
			budget = QUEUE_SLICE_MAX;
	}
	if (budget > sp->ndevs)
		budget = sp->ndevs;
	for (i = 0; i < budget; i++) {
		struct tw_dev *d;

		if (sp->cursor >= sp->ndevs)
			sp->cursor = 0;
		d = &sp->devs[sp->cursor++];
		if (d->pass)
			read_queue(sp, d);
	}
}

/* Every device is parsed into the sample itself and those the filter
 * leaves out are then squeezed out in place: no second copy of thousands
 * of rows, in memory or in time. */
int
tw_sampler_disks(struct tw_sampler *sp, struct tw_sample *s)
{
	struct tw_disk_set *all = &s->disks;
	size_t i, n = 0;
	int rc;

	rc = tw_diskstats_read(sp->roots.proc_fd, &sp->scratch, all, &s->parse);
	s->err[TW_SRC_DISKSTATS] = rc;
	if (rc == TW_E_NOMEM) {
		all->count = 0;
		return rc;
	}
	if (rc != TW_OK)
		all->count = 0;
	sort_unique(all, &s->parse);
	rc = merge_registry(sp, all);
	if (rc == TW_OK) {
		refresh_queues(sp);
		mark_paths(sp);
		for (i = 0; i < sp->ndevs; i++)
			n += sp->devs[i].keep;
		rc = tw_sample_reserve_queues(s, n);
	}
	if (rc != TW_OK || s->err[TW_SRC_DISKSTATS] != TW_OK) {
		all->count = 0;
		return rc;
	}
	n = 0;
	for (i = 0; i < sp->ndevs; i++) {
		if (!sp->devs[i].keep)
			continue;
		if (n != i)
			all->disks[n] = all->disks[i];
		s->queues[n] = sp->devs[i].queue;
		s->idents[n] = sp->devs[i].ident;
		n++;
	}
	all->count = n;
	s->have |= TW_SRC_BIT(TW_SRC_DISKSTATS);
	return TW_OK;
}
