#include "config.h"

#include "sample/sampler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/namefilter.h"
#include "util/readfile.h"
#include "util/error.h"

/* What the sampler remembers of a device between samples. */
struct tw_dev {
	uint64_t key;		/* tw_disk_key() */
	char raw_name[TW_DISK_NAME_LEN];	/* the kernel's: its sysfs directory */
	int pass;		/* the filter's decision, made once */
	int path;		/* a path of a multipath head that is present */
	int keep;		/* pass and not path */
	struct tw_queue queue;
	struct tw_blockident ident;
};

struct tw_sampler {
	struct tw_roots roots;
	struct tw_namefilter filter;
	struct tw_buf scratch;
	struct tw_dev *devs;	/* sorted by key */
	size_t ndevs;
	size_t devs_cap;
	struct tw_dev *spare;
	size_t spare_cap;
	size_t cursor;		/* next device whose queue is re-read */
	unsigned queue_refresh;
	int hide_paths;		/* the default filter: hide multipath paths */
	int paths_stale;	/* devices came, went or changed type */
	int procio;
	int32_t self_pid;
	uint32_t page_size;
	struct tw_cgroups *cgroups;	/* NULL: not read */
};

int
tw_sampler_open(struct tw_sampler **out, const struct tw_sampler_config *cfg,
    char *err, size_t errlen)
{
	const char *proc = cfg->proc_root ? cfg->proc_root : "/proc";
	const char *sys = cfg->sys_root ? cfg->sys_root : "/sys";
	struct tw_sampler *sp;
	long pg;
	int rc;

	*out = NULL;
	sp = calloc(1, sizeof(*sp));
	if (sp == NULL)
		return TW_E_NOMEM;
	rc = tw_namefilter_init(&sp->filter, cfg->disk_include,
	    cfg->disk_exclude != NULL ? cfg->disk_exclude : TW_DISK_EXCLUDE_DEFAULT, err, errlen);
	if (rc != TW_OK) {
		free(sp);
		return rc;
	}
	rc = tw_roots_open(&sp->roots, proc, sys);
	if (rc != TW_OK) {
		if (errlen > 0)
			snprintf(err, errlen, "cannot open proc root %s: %s", proc, tw_strerror(rc));
		tw_namefilter_free(&sp->filter);
		free(sp);
		return TW_E_ABSENT;
	}
	if (!cfg->no_cgroups &&
	    tw_cgroups_open(&sp->cgroups, cfg->cgroup_max, cfg->cgroup_rescan) != TW_OK) {
		tw_roots_close(&sp->roots);
		tw_namefilter_free(&sp->filter);
		free(sp);
		return TW_E_NOMEM;
	}
	tw_buf_init(&sp->scratch);
	sp->queue_refresh = cfg->queue_refresh;
	sp->hide_paths = cfg->disk_exclude == NULL;
	sp->procio = cfg->procio;
	sp->self_pid = (int32_t)getpid();
	pg = sysconf(_SC_PAGESIZE);
	sp->page_size = pg > 0 ? (uint32_t)pg : 4096;
	*out = sp;
	return TW_OK;
}

void
tw_sampler_close(struct tw_sampler *sp)
{
	if (sp == NULL)
		return;
	tw_roots_close(&sp->roots);
	tw_namefilter_free(&sp->filter);
	tw_cgroups_close(sp->cgroups);
	tw_buf_free(&sp->scratch);
	free(sp->devs);
	free(sp->spare);
	free(sp);
}

int
tw_sampler_proc_fd(const struct tw_sampler *sp)
{
	return sp->roots.proc_fd;
}

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
static int
sample_disks(struct tw_sampler *sp, struct tw_sample *s)
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

/* Record a source's outcome; only running out of memory stops a sample. */
static int
note(struct tw_sample *s, enum tw_source src, int rc)
{
	s->err[src] = rc;
	if (rc == TW_OK)
		s->have |= TW_SRC_BIT(src);
	return rc == TW_E_NOMEM ? rc : TW_OK;
}

int
tw_sampler_take(struct tw_sampler *sp, struct tw_sample *s)
{
	int fd = sp->roots.proc_fd;
	struct tw_buf *b = &sp->scratch;
	struct tw_parse_stats *ps = &s->parse;
	int rc;

	tw_sample_clear(s);
	s->mono_ms = tw_clock_ms();
	s->page_size = sp->page_size;

	if ((rc = sample_disks(sp, s)) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_MEMINFO, tw_meminfo_read(fd, b, &s->mem, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_VMSTAT, tw_vmstat_read(fd, b, &s->vm, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_PSI_MEMORY,
	    tw_psi_read(fd, "memory", b, &s->psi_memory, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_PSI_IO, tw_psi_read(fd, "io", b, &s->psi_io, ps))) != TW_OK)
		return rc;
	if (sp->procio &&
	    (rc = note(s, TW_SRC_PROCIO,
	    tw_procio_read_all(fd, sp->self_pid, b, &s->procs, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_SOFTNET, tw_softnet_read(fd, b, &s->softnet, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_SOCKSTAT, tw_sockstat_read(fd, b, &s->sock, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_NETSTAT, tw_netstat_read(fd, b, &s->net, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_BUDDYINFO, tw_buddyinfo_read(fd, b, &s->buddy, ps))) != TW_OK)
		return rc;
	if ((rc = note(s, TW_SRC_SYSCTL, tw_sysctl_read_all(fd, &s->sysctl))) != TW_OK)
		return rc;
	if (sp->cgroups != NULL)
		return note(s, TW_SRC_CGROUPS, tw_cgroups_sample(sp->cgroups, sp->roots.sys_fd, b,
		    &s->cgroups, ps));
	return TW_OK;
}
