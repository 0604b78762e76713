/* SPDX-License-Identifier: ISC */
/* The rescan: every cgroupRescan seconds a walk of the whole hierarchy
 * carries each cgroup's index over and publishes the busiest cgroupMax of
 * those that qualify, so that a sample reads only those. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sample/cgroups_priv.h"
#include "util/array.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/sorted.h"

static int
cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct known *)a)->path, ((const struct known *)b)->path);
}

struct path_at { const struct known *known; const char *path; };

static int
path_before(const void *ctx, size_t i)
{
	const struct path_at *at = ctx;

	return strcmp(at->known[i].path, at->path) < 0;
}

static struct known *
find_known(struct tw_cgroups *r, const char *path)
{
	struct path_at at = { r->known, path };
	size_t i = tw_sorted_first(r->nknown, path_before, &at);

	return i < r->nknown && strcmp(r->known[i].path, path) == 0 ? &r->known[i] : NULL;
}

static uint32_t
new_index(struct tw_cgroups *r)
{
	if (++r->last_index == 0)
		r->last_index = 1;
	return r->last_index;
}

static uint64_t
io_bytes(const struct tw_cgroup *cg)
{
	return cg->v[TW_CG_READ_BYTES] + cg->v[TW_CG_WRITE_BYTES];
}

/* Whether k has a limit, reading as few of its limit files as it takes:
 * first the one it had alone at the last rescan (limits seldom change),
 * else memory.max, the one systemd's MemoryMax= and container runtimes
 * set. The others are read when k is published (tw_cgroups_sample).
 * name is k's path relative to the open directory parent_fd. */
static int
has_limit(struct tw_cgroups *r, struct known *k, const struct known *old, int parent_fd,
    const char *name, const char *path)
{
	unsigned order[2] = { TW_CG_READ_MAX, TW_CG_READ_HIGH };
	size_t i;

	if (old != NULL && old->limits == TW_CG_BIT(TW_CG_HIGH)) {
		order[0] = TW_CG_READ_HIGH;
		order[1] = TW_CG_READ_MAX;
	}
	for (i = 0; i < 2 && k->limits == 0; i++) {
		if (!(order[i] & tw_cgroups_limit_files(r)))
			continue;
		if (tw_cgroup_read_at(parent_fd, name, r->sys_fd, r->ver, path, order[i],
		    r->scratch, &r->cg, r->ps) == TW_OK)
			tw_cgroups_note_limits(k, &r->cg, order[i]);
	}
	return k->limits != 0;
}

/* Whether io.stat gave this cgroup's figures (an empty file is no I/O,
 * which is a figure; an absent file is none). */
static int
io_read(const struct tw_cgroup *cg)
{
	return (cg->present & TW_CG_BIT(TW_CG_READ_BYTES)) != 0;
}

/* What a cgroup's parent said of its subtree (the walk's *quiet): its
 * I/O, or its refaults and limit events, are what they were at the last
 * rescan, so none of its descendants' moved either. */
#define QUIET_IO	0x1
#define QUIET_MEMORY	0x2

/* Whether k hurts: its pages were read back, or (v2) it met its limit,
 * since the rescan before. Such a cgroup ranks before any other. */
static int
hurts(const struct known *k)
{
	return k->refault_score > 0 || k->event_score > 0;
}

/* One cgroup met by a rescan's walk: carried over or new. It qualifies by
 * its refaults and limit events since the last rescan, or its I/O, read
 * here, or by a limit, read after the walk only as far as the bound needs
 * (limits_to_bound).
 *
 * The kernel sums these up the tree: a v2 io.stat counts the cgroup's
 * descendants' I/O too, and memory.stat's refaults (v2, and v1's total_
 * lines) and v2's memory.events are hierarchical too. So a cgroup whose
 * sum is the very one of the last rescan had none of it below it either:
 * its subtree is walked (cgroups come and go, and may qualify by a limit)
 * without reading that file again, which is most of a walk's system
 * calls where whole slices sit idle. Equal, not lower: an older kernel
 * drops a removed child's share from the sum, which could hide a
 * sibling's growth by a lower sum, never by the same one. v1's blkio
 * hierarchy need not mirror the memory one, and is read cgroup by cgroup;
 * v1's memory.failcnt counts the cgroup's own limit only, and a walk does
 * not read it (a thrashing cgroup's refaults show it). With cgroup2's
 * memory_localevents a child's events alone move no parent's: it is then
 * seen by its refaults. */
static int
visit(void *ctx, int parent_fd, const char *name, const char *path, uint64_t ino, int *quiet)
{
	struct tw_cgroups *r = ctx;
	const struct tw_cgroup *cg = &r->cg;
	struct known *k, *old;
	unsigned what = 0;
	void *p;
	uint64_t io, refaults, events;
	int seen, mseen, q = *quiet;

	old = find_known(r, path);
	if (old != NULL && old->ino != ino)
		old = NULL;
	if (!(q & QUIET_IO))
		what |= TW_CG_READ_IO;
	if (!(q & QUIET_MEMORY))
		what |= TW_CG_READ_STAT | (r->ver == TW_CG_V2 ? TW_CG_READ_EVENTS : 0);
	if (what != 0 && tw_cgroup_read_at(parent_fd, name, r->sys_fd, r->ver, path, what,
	    r->scratch, &r->cg, r->ps) != TW_OK)
		return TW_OK;
	/* Quiet above: the figure of the last rescan, or none for one made
	 * since (all of its own would have moved the sum). */
	if (q & QUIET_IO) {
		io = old != NULL ? old->io : 0;
		seen = old != NULL ? old->io_seen : 1;
	} else {
		io = io_bytes(cg);
		seen = io_read(cg);
		if (r->ver == TW_CG_V2 && seen && old != NULL && old->io_seen && io == old->io)
			q |= QUIET_IO;
	}
	if (q & QUIET_MEMORY) {
		refaults = old != NULL ? old->refaults : 0;
		events = old != NULL ? old->events : 0;
		mseen = old != NULL ? old->mem_seen : 1;
	} else {
		refaults = cg->v[TW_CG_REFAULTS];
		events = r->ver == TW_CG_V2 ? cg->v[TW_CG_LIMIT_EVENTS] : 0;
		mseen = (cg->present & TW_CG_BIT(TW_CG_REFAULTS)) != 0;
		if (mseen && old != NULL && old->mem_seen && refaults == old->refaults &&
		    events == old->events)
			q |= QUIET_MEMORY;
	}
	*quiet = q;
	if (tw_array_grow(r->next, &r->next_cap, r->nnext + 1, sizeof(*r->next), &p) != TW_OK) {
		r->nomem = 1;
		return TW_E_NOMEM;
	}
	r->next = p;
	k = &r->next[r->nnext];
	memset(k, 0, sizeof(*k));
	if ((k->path = strdup(path)) == NULL) {
		r->nomem = 1;
		return TW_E_NOMEM;
	}
	r->nnext++;
	k->ino = ino;
	tw_cg_keep_init(&k->keep);
	if (old != NULL) {
		k->index = old->index;
		k->anon_seen = old->anon_seen;	/* the window's, by index */
		k->anon = old->anon;
		k->anon_up = old->anon_up;
		k->anon_down = old->anon_down;
		k->score = io >= old->io ? io - old->io : 0;
		k->refault_score = refaults >= old->refaults ? refaults - old->refaults : 0;
		k->event_score = events >= old->events ? events - old->events : 0;
	} else {
		k->index = new_index(r);
		k->score = io;
		k->refault_score = refaults;
		k->event_score = events;
	}
	k->io = io;
	k->io_seen = seen;
	k->refaults = refaults;
	k->events = events;
	k->mem_seen = mseen;
	k->qualifies = hurts(k) || k->score > 0;
	return TW_OK;
}

static int
cmp_index_known(const void *a, const void *b)
{
	const struct known *x = *(const struct known *const *)a;
	const struct known *y = *(const struct known *const *)b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* A cgroup that qualifies by a limit alone ranks after every one that
 * hurts or did I/O, and among those by its index (cmp_busy): so the bound
 * needs limits read in that order, and only until it is filled, not of
 * every cgroup (where cgroupMax cgroups hurt or did I/O since the last
 * rescan, of none). What is published is the same as if every limit were
 * read. */
static int
limits_to_bound(struct tw_cgroups *r)
{
	struct known **quiet, *old;
	size_t i, n = 0, io = 0, found = 0;
	int fd;

	for (i = 0; i < r->nnext; i++)
		io += r->next[i].qualifies != 0;
	if (io >= r->max_rows)
		return TW_OK;
	quiet = malloc((r->nnext - io + 1) * sizeof(*quiet));
	if (quiet == NULL)
		return TW_E_NOMEM;
	for (i = 0; i < r->nnext; i++)
		if (!r->next[i].qualifies)
			quiet[n++] = &r->next[i];
	qsort(quiet, n, sizeof(*quiet), cmp_index_known);
	fd = tw_cgroup_open_hierarchy(r->sys_fd, r->ver);
	for (i = 0; fd >= 0 && i < n && io + found < r->max_rows; i++) {
		old = find_known(r, quiet[i]->path);
		if (old != NULL && old->ino != quiet[i]->ino)
			old = NULL;
		/* Paths start with '/': relative to the hierarchy's root. */
		quiet[i]->qualifies = has_limit(r, quiet[i], old, fd, quiet[i]->path + 1,
		    quiet[i]->path);
		found += quiet[i]->qualifies != 0;
	}
	if (fd >= 0)
		close(fd);
	free(quiet);
	return TW_OK;
}

/* A symptom outranks an idle limit: refaults first (pages read back while
 * still in use, what hurts), then limit events, then I/O, each since the
 * rescan before; a cgroup with none of them (a limit alone) by index. */
static int
cmp_busy(const void *a, const void *b)
{
	const struct known *x = *(const struct known *const *)a;
	const struct known *y = *(const struct known *const *)b;

	if (x->refault_score != y->refault_score)
		return x->refault_score > y->refault_score ? -1 : 1;
	if (x->event_score != y->event_score)
		return x->event_score > y->event_score ? -1 : 1;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int
cmp_published(const void *a, const void *b)
{
	const struct published *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

static int
list_published(struct tw_cgroups *r)
{
	size_t i, n = 0;

	free(r->pub);
	r->npub = 0;
	r->pub = malloc((r->nknown ? r->nknown : 1) * sizeof(*r->pub));
	if (r->pub == NULL)
		return TW_E_NOMEM;
	for (i = 0; i < r->nknown; i++)
		if (r->known[i].published) {
			r->pub[n].index = r->known[i].index;
			r->pub[n++].at = i;
		}
	qsort(r->pub, n, sizeof(*r->pub), cmp_published);
	r->npub = n;
	return TW_OK;
}

/* The owner of the cgroup directory at path; UINT32_MAX when unread. */
static uint32_t
dir_owner(const struct tw_cgroups *r, const char *path)
{
	const char *root = r->ver == TW_CG_V1 ? "fs/cgroup/memory" : "fs/cgroup";
	size_t len = strlen(root) + strlen(path) + 1;
	char *rel = malloc(len);
	struct stat st;
	int ok;

	if (rel == NULL)
		return UINT32_MAX;
	snprintf(rel, len, "%s%s", root, path);
	ok = fstatat(r->sys_fd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0;
	free(rel);
	return ok ? (uint32_t)st.st_uid : UINT32_MAX;
}

/* Who owns a published cgroup: told by its path alone, once a rescan.
 * The path is read shown (util/escape.h), as the checks read it from the
 * MIB, so that the agent and a check tell the same owner and unit. */
static int
publish_owner(const struct tw_cgroups *r, struct known *k)
{
	struct tw_cg_owner o;
	char *shown = malloc(TW_ESCAPE_SIZE(strlen(k->path)));

	if (shown == NULL)
		return TW_E_NOMEM;
	(void)tw_escape_str(shown, TW_ESCAPE_SIZE(strlen(k->path)), k->path);
	tw_cgroup_owner(shown, &o);
	k->owner = o.kind;
	k->owner_uid = o.uid;
	/* A plain cgroup is its directory's owner: who made it, or to whom
	 * it was delegated (chown; systemd's Delegate=), who sets its limit. */
	if (o.kind == TW_CG_OWNER_CGROUP)
		k->owner_uid = dir_owner(r, k->path);
	tw_cgroup_unit(shown, k->unit, sizeof(k->unit));
	free(shown);
	return TW_OK;
}

/* Walk the hierarchy, carry indexes over, and publish the busiest. */
int
tw_cgroups_rescan(struct tw_cgroups *r)
{
	struct known **rank, *swap;
	size_t i, n = 0, cap, was;
	int rc;

	tw_cgroups_close_kept(r);
	tw_cgroups_free_paths(r->next, r->nnext);
	r->nnext = 0;
	memset(&r->cuts, 0, sizeof(r->cuts));
	r->nomem = 0;
	rc = tw_cgroup_walk(r->sys_fd, r->ver, visit, r, &r->cuts, NULL);
	if (r->nomem)
		return TW_E_NOMEM;
	if (rc != TW_OK) {
		tw_cgroups_free_paths(r->next, r->nnext);
		r->nnext = 0;
	}
	/* Found: visited and still there to be read. */
	r->walked = r->nnext;
	if ((rc = limits_to_bound(r)) != TW_OK)
		return rc;
	qsort(r->next, r->nnext, sizeof(*r->next), cmp_path);
	rank = malloc((r->nnext ? r->nnext : 1) * sizeof(*rank));
	if (rank == NULL)
		return TW_E_NOMEM;
	for (i = 0; i < r->nnext; i++)
		if (r->next[i].qualifies)
			rank[n++] = &r->next[i];
	qsort(rank, n, sizeof(*rank), cmp_busy);
	r->qualified = (uint32_t)n;
	for (i = 0; i < n && i < r->max_rows; i++) {
		rank[i]->published = 1;
		if (publish_owner(r, rank[i]) != TW_OK) {
			free(rank);
			return TW_E_NOMEM;
		}
		rank[i]->turn = (unsigned)(i % TW_CGROUPS_SLOW_EVERY);
	}
	free(rank);
	swap = r->known;
	cap = r->known_cap;
	was = r->nknown;
	r->known = r->next;
	r->known_cap = r->next_cap;
	r->nknown = r->nnext;
	r->next = swap;
	r->next_cap = cap;
	/* The old entries' paths: the new ones have copies of their own. */
	tw_cgroups_free_paths(r->next, was);
	r->nnext = 0;
	return list_published(r);
}
