/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "sample/cgroups.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "collect/cgfiles.h"
#include "sample/cgroups_priv.h"
#include "util/array.h"
#include "util/error.h"

void
tw_sample_cgroups_init(struct tw_sample_cgroups *s)
{
	memset(s, 0, sizeof(*s));
}

void
tw_sample_cgroups_free(struct tw_sample_cgroups *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}

int
tw_cgroups_open(struct tw_cgroups **out, size_t max_rows, unsigned rescan)
{
	struct tw_cgroups *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (r == NULL)
		return TW_E_NOMEM;
	r->max_rows = max_rows == 0 ? TW_CGROUPS_MAX_DEFAULT :
	    max_rows > TW_CGROUPS_MAX_LIMIT ? TW_CGROUPS_MAX_LIMIT : max_rows;
	r->rescan = rescan > 1 ? rescan : 1;
	r->proc_fd = -1;
	*out = r;
	return TW_OK;
}

void
tw_cgroups_set_proc(struct tw_cgroups *r, int proc_fd)
{
	r->proc_fd = proc_fd;
}

/* Free the paths of n entries of k. */
void
tw_cgroups_free_paths(struct known *k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(k[i].path);
		k[i].path = NULL;
	}
}

/* Close what the published cgroups keep open: before a walk, which may
 * publish others (and reopens, so files made since are found). */
void
tw_cgroups_close_kept(struct tw_cgroups *r)
{
	size_t i;

	for (i = 0; i < r->nknown; i++)
		tw_cg_keep_close(&r->known[i].keep);
}

void
tw_cgroups_close(struct tw_cgroups *r)
{
	if (r == NULL)
		return;
	tw_cgroups_close_kept(r);
	tw_cgroups_free_paths(r->known, r->nknown);
	tw_cgroups_free_paths(r->next, r->nnext);
	free(r->known);
	free(r->next);
	free(r->pub);
	free(r);
}

/* The limit files there are: v1 has no memory.high. */
unsigned
tw_cgroups_limit_files(const struct tw_cgroups *r)
{
	return r->ver == TW_CG_V1 ? TW_CG_READ_MAX : TW_CG_READ_LIMITS;
}

/* Keep the limits cg holds of the files which were read. */
void
tw_cgroups_note_limits(struct known *k, const struct tw_cgroup *cg, unsigned which)
{
	uint32_t bits = 0;

	if (which & TW_CG_READ_HIGH) {
		bits |= TW_CG_BIT(TW_CG_HIGH);
		k->high = cg->v[TW_CG_HIGH];
	}
	if (which & TW_CG_READ_MAX) {
		bits |= TW_CG_BIT(TW_CG_MAX);
		k->max = cg->v[TW_CG_MAX];
	}
	k->limits = (k->limits & ~bits) | (cg->present & bits);
	k->limits_read |= which;
}

/* Read every sample: the counters and gauges that move. */
#define SAMPLED (TW_CG_READ_IO | TW_CG_READ_MEMORY)
/* Read every SLOW_EVERY-th sample, a published cgroup's turn: pressure is
 * the kernel's own average over 10 s, memory.events counts rare events
 * (their rate is taken between the samples they were read in, see
 * window/cgtrack.c). */
#define SLOW (TW_CG_READ_EVENTS | TW_CG_READ_PSI)
#define SLOW_BITS (TW_CG_BIT(TW_CG_LIMIT_EVENTS) | TW_CG_BIT(TW_CG_MEM_PSI) | \
    TW_CG_BIT(TW_CG_IO_PSI))
#define LIMIT_BITS (TW_CG_BIT(TW_CG_HIGH) | TW_CG_BIT(TW_CG_MAX))

/* Hold what this sample read of SLOW, or put the held figures in. */
static void
slow_figures(struct known *k, struct tw_sample_cgroup *row, int read)
{
	size_t f;

	row->held = 0;
	for (f = 0; f < TW_CG_NFIELDS; f++) {
		if (!(SLOW_BITS & TW_CG_BIT(f)))
			continue;
		if (read) {
			k->slow_v[f] = row->cg.v[f];
		} else {
			row->cg.v[f] = k->slow_v[f];
			row->held |= TW_CG_BIT(f);
		}
	}
	if (read) {
		k->slow_present = row->cg.present & SLOW_BITS;
		k->slow_read = 1;
	} else {
		row->cg.present = (row->cg.present & ~SLOW_BITS) | k->slow_present;
	}
}

/* Memory within this share of its limit: where the cache is bounded by
 * the limit, and the file set sizes the limit it needs (the advice's
 * TW_ADVICE_CGROUP_AT_LIMIT). */
#define FILESET_AT_LIMIT 0.9

static int
near_limit(const struct tw_cgroup *cg)
{
	uint64_t limit = 0;

	if (cg->present & TW_CG_BIT(TW_CG_MAX))
		limit = cg->v[TW_CG_MAX];
	if ((cg->present & TW_CG_BIT(TW_CG_HIGH)) && (limit == 0 || cg->v[TW_CG_HIGH] < limit))
		limit = cg->v[TW_CG_HIGH];
	return limit > 0 && (cg->present & TW_CG_BIT(TW_CG_USAGE)) &&
	    (double)cg->v[TW_CG_USAGE] >= (double)limit * FILESET_AT_LIMIT;
}

/* The file set of a cgroup near its limit, measured at every sample (a
 * walk of its processes' descriptors, a few system calls a file): it grows
 * while a job first reads its files, and a figure held from then would
 * size a limit short of them. None for a cgroup below its limit, whose
 * cache its limit does not bound. */
static void
fileset(struct tw_cgroups *r, struct known *k, struct tw_sample_cgroup *row)
{
	struct tw_cg_fileset fs;
	int dir = k->keep.dir, own = 0;

	if (r->proc_fd < 0 || !near_limit(&row->cg))
		return;
	if (dir < 0) {
		int h = tw_cgroup_open_hierarchy(r->sys_fd, r->ver);

		dir = h < 0 ? -1 : openat(h, k->path[1] != '\0' ? k->path + 1 : ".",
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (h >= 0)
			close(h);
		own = 1;
	}
	if (dir >= 0 && tw_cgroup_fileset(dir, r->proc_fd, r->scratch, &fs) == TW_OK) {
		row->cg.v[TW_CG_FILESET] = fs.bytes;
		row->cg.present |= TW_CG_BIT(TW_CG_FILESET);
	}
	if (own && dir >= 0)
		close(dir);
}

/* Its memory besides the page cache as two counters that only grow, the
 * sums of its rises and of its falls since first seen: the window takes
 * their increases, how much that memory rose and fell in it (a leak whose
 * process then ended rose, and fell, all the same). Not one counter that
 * goes both ways: a tracked counter's decrease is a reset, which drops
 * the whole interval's time. */
static void
anon_counters(struct known *k, struct tw_sample_cgroup *row)
{
	const struct tw_cgroup *cg = &row->cg;
	uint64_t a;

	if (!(cg->present & TW_CG_BIT(TW_CG_USAGE)) || !(cg->present & TW_CG_BIT(TW_CG_CACHE))) {
		k->anon_seen = 0;
		return;
	}
	a = cg->v[TW_CG_USAGE] > cg->v[TW_CG_CACHE] ? cg->v[TW_CG_USAGE] - cg->v[TW_CG_CACHE] : 0;
	if (k->anon_seen && a > k->anon)
		k->anon_up += a - k->anon;
	else if (k->anon_seen)
		k->anon_down += k->anon - a;
	k->anon = a;
	k->anon_seen = 1;
	row->cg.v[TW_CG_ANON_UP] = k->anon_up;
	row->cg.v[TW_CG_ANON_DOWN] = k->anon_down;
	row->cg.present |= TW_CG_BIT(TW_CG_ANON_UP) | TW_CG_BIT(TW_CG_ANON_DOWN);
}

int
tw_cgroups_sample(struct tw_cgroups *r, int sys_fd, struct tw_buf *scratch,
    struct tw_sample_cgroups *out, struct tw_parse_stats *ps)
{
	size_t i, kept = 0;
	unsigned what, limits;
	void *p;
	int rc, slow;

	out->count = 0;
	r->sys_fd = sys_fd;
	r->scratch = scratch;
	r->ps = ps;
	if (r->countdown == 0) {
		/* A host may gain its controllers (or a test its fixture)
		 * after start: look again at every rescan while there are
		 * none. */
		if (r->ver == TW_CG_NONE)
			r->ver = tw_cgroup_detect(sys_fd);
		if (r->ver != TW_CG_NONE && (rc = tw_cgroups_rescan(r)) != TW_OK)
			return rc;
		r->countdown = r->rescan;
	}
	r->countdown--;
	out->version = r->ver;
	out->qualified = r->qualified;
	out->walked = r->walked;
	out->unpublished = r->walked - r->npub;
	out->cuts = r->cuts;
	if (r->ver == TW_CG_NONE)
		return TW_E_ABSENT;
	for (i = 0; i < r->npub; i++) {
		struct known *k = &r->known[r->pub[i].at];
		struct tw_sample_cgroup *row;

		if (!k->published)
			continue;
		rc = tw_array_grow(out->rows, &out->cap, out->count + 1, sizeof(*out->rows), &p);
		if (rc != TW_OK)
			return rc;
		out->rows = p;
		row = &out->rows[out->count];
		/* The limits a rescan did not need, once, and SLOW with the
		 * limits in its turn (all of it at the first sample after a
		 * rescan): a limit is a tunable whose change the change watch
		 * must see within a window, not at the next walk. */
		slow = !k->slow_read || k->turn == r->tick % TW_CGROUPS_SLOW_EVERY;
		limits = slow ? tw_cgroups_limit_files(r) : tw_cgroups_limit_files(r) & ~k->limits_read;
		what = SAMPLED | limits | (slow ? SLOW : 0);
		if (kept < KEEP_MAX)
			rc = tw_cgroup_read_kept(sys_fd, r->ver, k->path, what, &k->keep, scratch,
			    &row->cg, ps);
		else
			rc = tw_cgroup_read(sys_fd, r->ver, k->path, what, scratch, &row->cg, ps);
		kept++;
		if (rc != TW_OK) {
			/* Removed: its index dies with it. */
			k->published = 0;
			k->ino = 0;
			continue;
		}
		/* Limits as their turn read them: they change when an
		 * administrator changes them, seldom, and a sample of many
		 * cgroups is cheaper without them in every sample. */
		if (limits != 0)
			tw_cgroups_note_limits(k, &row->cg, limits);
		slow_figures(k, row, slow);
		row->cg.present = (row->cg.present & ~LIMIT_BITS) | k->limits;
		row->cg.v[TW_CG_HIGH] = k->high;
		row->cg.v[TW_CG_MAX] = k->max;
		fileset(r, k, row);
		anon_counters(k, row);
		memcpy(row->cg.path, k->path, strlen(k->path) + 1);
		row->cg.ino = k->ino;
		row->index = k->index;
		memcpy(row->unit, k->unit, sizeof(row->unit));
		row->owner = k->owner;
		row->owner_uid = k->owner_uid;
		out->count++;
	}
	r->tick++;
	return TW_OK;
}
