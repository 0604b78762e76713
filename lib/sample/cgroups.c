#include "config.h"

#include "sample/cgroups.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/array.h"
#include "util/error.h"
#include "util/escape.h"

/* What is remembered of a cgroup between samples. */
struct known {
	char *path;		/* an allocation of its own: up to PATH_MAX */
	char unit[TW_CG_UNIT_LEN];	/* of a published one, found at the rescan */
	enum tw_cg_owner_kind owner;	/* the same */
	uint32_t owner_uid;
	uint64_t ino;
	uint32_t index;
	uint64_t io;		/* bytes read and written, at the last rescan */
	int io_seen;		/* io is io.stat's figure, not a want of one */
	uint64_t score;		/* of those, since the rescan before */
	uint64_t refaults;	/* memory.stat's, at the last rescan */
	uint64_t events;	/* memory.events' high + max (v2), then */
	int mem_seen;		/* refaults is memory.stat's figure */
	uint64_t refault_score;	/* refaults since the rescan before */
	uint64_t event_score;	/* limit events since then */
	uint64_t high, max;	/* its limits at the last rescan */
	uint32_t limits;	/* TW_CG_BIT of those it has */
	unsigned limits_read;	/* TW_CG_READ_HIGH, _MAX: which of them were read */
	int qualifies;
	int published;
	unsigned turn;		/* the sample (modulo SLOW_EVERY) it reads SLOW in */
	int slow_read;		/* SLOW read since the rescan; then held below */
	uint32_t slow_present;
	uint64_t slow_v[TW_CG_NFIELDS];
	struct tw_cg_keep keep;	/* open while published, up to KEEP_MAX */
};

struct published {
	uint32_t index;
	size_t at;		/* in known[] */
};

/* Published cgroups whose files are kept open: the default cgroupMax's
 * 16 take 9 descriptors each; past this (cgroupMax up to 4096) the rest
 * are read by path, so that a large cgroupMax cannot run tunewatchd out
 * of descriptors (1024 by default). */
#define KEEP_MAX 64

struct tw_cgroups {
	enum tw_cg_version ver;
	struct known *known;	/* sorted by path */
	size_t nknown, known_cap;
	struct known *next;	/* built by a rescan, then swapped in */
	size_t nnext, next_cap;
	/* The published, in index order, the order of a sample's rows: made
	 * at a rescan, so that a sample neither looks at every known cgroup
	 * nor sorts its rows. */
	struct published *pub;
	size_t npub;
	uint32_t last_index;
	size_t max_rows;
	unsigned rescan, countdown;
	unsigned tick;		/* samples taken, for the SLOW files' turns */
	uint32_t qualified;
	struct tw_cg_cuts cuts;
	size_t walked;
	int nomem;
	/* A rescan's scratch. */
	int sys_fd;
	struct tw_buf *scratch;
	struct tw_parse_stats *ps;
	struct tw_cgroup cg;
};

void
tw_cgroup_set_init(struct tw_cgroup_set *s)
{
	memset(s, 0, sizeof(*s));
}

void
tw_cgroup_set_free(struct tw_cgroup_set *s)
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
	*out = r;
	return TW_OK;
}

/* Free the paths of n entries of k. */
static void
free_paths(struct known *k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(k[i].path);
		k[i].path = NULL;
	}
}

/* Close what the published cgroups keep open: before a walk, which may
 * publish others (and reopens, so files made since are found). */
static void
close_kept(struct tw_cgroups *r)
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
	close_kept(r);
	free_paths(r->known, r->nknown);
	free_paths(r->next, r->nnext);
	free(r->known);
	free(r->next);
	free(r->pub);
	free(r);
}

static int
cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct known *)a)->path, ((const struct known *)b)->path);
}

/* By hand rather than bsearch, which would need the path copied into a
 * struct known to compare: once for each cgroup a walk meets. */
static struct known *
find_known(struct tw_cgroups *r, const char *path)
{
	size_t lo = 0, hi = r->nknown;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(path, r->known[mid].path);

		if (c == 0)
			return &r->known[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
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

/* The limit files there are: v1 has no memory.high. */
static unsigned
limit_files(const struct tw_cgroups *r)
{
	return r->ver == TW_CG_V1 ? TW_CG_READ_MAX : TW_CG_READ_LIMITS;
}

/* Keep the limits cg holds of the files which were read. */
static void
note_limits(struct known *k, const struct tw_cgroup *cg, unsigned which)
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
		if (!(order[i] & limit_files(r)))
			continue;
		if (tw_cgroup_read_at(parent_fd, name, r->sys_fd, r->ver, path, order[i],
		    r->scratch, &r->cg, r->ps) == TW_OK)
			note_limits(k, &r->cg, order[i]);
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

/* Who owns a published cgroup: told by its path alone, once a rescan.
 * The path is read shown (util/escape.h), as the checks read it from the
 * MIB, so that the agent and a check tell the same owner and unit. */
static int
publish_owner(struct known *k)
{
	struct tw_cg_owner o;
	char *shown = malloc(TW_ESCAPE_SIZE(strlen(k->path)));

	if (shown == NULL)
		return TW_E_NOMEM;
	(void)tw_escape_str(shown, TW_ESCAPE_SIZE(strlen(k->path)), k->path);
	tw_cgroup_owner(shown, &o);
	k->owner = o.kind;
	k->owner_uid = o.uid;
	tw_cgroup_unit(shown, k->unit, sizeof(k->unit));
	free(shown);
	return TW_OK;
}

/* Walk the hierarchy, carry indexes over, and publish the busiest. */
static int
rescan(struct tw_cgroups *r)
{
	struct known **rank, *swap;
	size_t i, n = 0, cap, was;
	int rc;

	close_kept(r);
	free_paths(r->next, r->nnext);
	r->nnext = 0;
	memset(&r->cuts, 0, sizeof(r->cuts));
	r->nomem = 0;
	rc = tw_cgroup_walk(r->sys_fd, r->ver, visit, r, &r->cuts, NULL);
	if (r->nomem)
		return TW_E_NOMEM;
	if (rc != TW_OK) {
		free_paths(r->next, r->nnext);
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
		if (publish_owner(rank[i]) != TW_OK) {
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
	free_paths(r->next, was);
	r->nnext = 0;
	return list_published(r);
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
slow_figures(struct known *k, struct tw_cgroup_row *row, int read)
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

int
tw_cgroups_sample(struct tw_cgroups *r, int sys_fd, struct tw_buf *scratch,
    struct tw_cgroup_set *out, struct tw_parse_stats *ps)
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
		if (r->ver != TW_CG_NONE && (rc = rescan(r)) != TW_OK)
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
		struct tw_cgroup_row *row;

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
		limits = slow ? limit_files(r) : limit_files(r) & ~k->limits_read;
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
			note_limits(k, &row->cg, limits);
		slow_figures(k, row, slow);
		row->cg.present = (row->cg.present & ~LIMIT_BITS) | k->limits;
		row->cg.v[TW_CG_HIGH] = k->high;
		row->cg.v[TW_CG_MAX] = k->max;
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
