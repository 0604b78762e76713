#include "config.h"

#include "window/window.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"

/* Pools keep their failure count in one of two counters, by the width the
 * kernel keeps it in (softnet's are 32-bit), so both kinds wrap right. */
enum { POOL_FAIL32, POOL_FAIL64, POOL_K };

/* The diskstats field behind each disk counter, in enum tw_wdisk order;
 * diskstats says how wide each is. */
static const enum tw_disk_field wdisk_field[TW_WDISK_K] = {
	[TW_WDISK_READS] = TW_DISK_READS,
	[TW_WDISK_WRITES] = TW_DISK_WRITES,
	[TW_WDISK_SECTORS_READ] = TW_DISK_SECTORS_READ,
	[TW_WDISK_SECTORS_WRITTEN] = TW_DISK_SECTORS_WRITTEN,
	[TW_WDISK_READ_TICKS] = TW_DISK_READ_TICKS,
	[TW_WDISK_WRITE_TICKS] = TW_DISK_WRITE_TICKS,
	[TW_WDISK_IO_TICKS] = TW_DISK_IO_TICKS,
	[TW_WDISK_WEIGHTED_TICKS] = TW_DISK_WEIGHTED_TICKS,
};

int
tw_window_init(struct tw_window *w, unsigned intervals)
{
	static const uint8_t pool_bits[POOL_K] = { 32, 64 };
	static const uint8_t vm_bits[TW_WVM_K] = { 64, 64, 64, 64, 64 };
	static const uint8_t reads_bits[TW_WREADS_K] = { 64, 64 };
	uint8_t disk_bits[TW_WDISK_K];
	unsigned f;
	int rc;

	memset(w, 0, sizeof(*w));
	if (intervals < 1 || intervals > 99999)
		return TW_E_INVAL;
	for (f = 0; f < TW_WDISK_K; f++)
		disk_bits[f] = (uint8_t)tw_disk_field_bits(wdisk_field[f]);
	w->intervals = intervals;
	w->slots = intervals + 1;
	w->times = calloc(w->slots, sizeof(*w->times));
	if (w->times == NULL)
		return TW_E_NOMEM;
	tw_proc_io_set_init(&w->prev_procs);
	if ((rc = tw_track_set_init(&w->disks, TW_WDISK_K, w->slots, disk_bits)) != TW_OK ||
	    (rc = tw_track_set_init(&w->pools, POOL_K, w->slots, pool_bits)) != TW_OK ||
	    (rc = tw_track_set_init(&w->vm, TW_WVM_K, w->slots, vm_bits)) != TW_OK ||
	    (rc = tw_track_set_init(&w->reads, TW_WREADS_K, w->slots, reads_bits)) != TW_OK ||
	    (rc = tw_window_cgroups_init(&w->cgroups, w->slots)) != TW_OK) {
		tw_window_free(w);
		return rc;
	}
	return TW_OK;
}

void
tw_window_free(struct tw_window *w)
{
	free(w->times);
	tw_track_set_free(&w->disks);
	tw_track_set_free(&w->pools);
	tw_track_set_free(&w->vm);
	tw_track_set_free(&w->reads);
	tw_track_set_free(&w->cgroups);
	tw_proc_io_set_free(&w->prev_procs);
	free(w->step);
	memset(w, 0, sizeof(*w));
}

/* Scratch arrays for one update: keys and k readings per key. */
struct readings {
	uint64_t *keys;
	uint64_t *raw;
};

static int
readings_alloc(struct readings *r, size_t n, unsigned k)
{
	r->keys = malloc((n ? n : 1) * sizeof(uint64_t));
	r->raw = malloc((n ? n : 1) * k * sizeof(uint64_t));
	if (r->keys == NULL || r->raw == NULL) {
		free(r->keys);
		free(r->raw);
		return TW_E_NOMEM;
	}
	return TW_OK;
}

static void
readings_free(struct readings *r)
{
	free(r->keys);
	free(r->raw);
}

static int
push_disks(struct tw_window *w, const struct tw_sample *s, uint64_t seq, uint64_t dt)
{
	size_t n = (s->have & TW_SRC_BIT(TW_SRC_DISKSTATS)) ? s->disks.count : 0;
	struct readings r;
	size_t i;
	unsigned f;
	int rc;

	if ((rc = readings_alloc(&r, n, TW_WDISK_K)) != TW_OK)
		return rc;
	for (i = 0; i < n; i++) {
		const struct tw_disk_stat *d = &s->disks.disks[i];

		r.keys[i] = tw_disk_key(d->major, d->minor);
		for (f = 0; f < TW_WDISK_K; f++)
			r.raw[i * TW_WDISK_K + f] = d->v[wdisk_field[f]];
	}
	rc = tw_track_set_update(&w->disks, seq, dt, r.keys, r.raw, n);
	readings_free(&r);
	return rc;
}

static int
push_pools(struct tw_window *w, const struct tw_pool_set *pools, uint64_t seq, uint64_t dt)
{
	size_t n = pools != NULL ? pools->count : 0, i;
	struct readings r;
	int rc;

	if ((rc = readings_alloc(&r, n, POOL_K)) != TW_OK)
		return rc;
	for (i = 0; i < n; i++) {
		const struct tw_pool *p = &pools->pools[i];
		int wide = p->failure_bits != 32;

		r.keys[i] = tw_pool_key(p);
		r.raw[i * POOL_K + POOL_FAIL32] = wide ? 0 : p->failures;
		r.raw[i * POOL_K + POOL_FAIL64] = wide ? p->failures : 0;
	}
	rc = tw_track_set_update(&w->pools, seq, dt, r.keys, r.raw, n);
	readings_free(&r);
	return rc;
}

static int
push_vm(struct tw_window *w, const struct tw_sample *s, uint64_t seq, uint64_t dt)
{
	uint64_t key = 0, raw[TW_WVM_K];
	size_t n = (s->have & TW_SRC_BIT(TW_SRC_VMSTAT)) ? 1 : 0;

	/* The interval that ends at a throttled sample counts as throttled:
	 * a sample a second sees a writer held there for seconds. */
	if (n > 0 && tw_window_dirty_limited(&s->vm) == 1)
		w->dirty_limited_ms += dt;
	raw[TW_WVM_PGPGIN] = s->vm.v[TW_VM_PGPGIN];
	raw[TW_WVM_PGMAJFAULT] = s->vm.v[TW_VM_PGMAJFAULT];
	raw[TW_WVM_REFAULT_FILE] = s->vm.v[TW_VM_REFAULT_FILE];
	raw[TW_WVM_RECLAIM_HOST] = s->vm.v[TW_VM_PGSTEAL_HOST];
	raw[TW_WVM_DIRTY_LIMITED_MS] = w->dirty_limited_ms;
	return tw_track_set_update(&w->vm, seq, dt, &key, raw, n);
}

int
tw_window_dirty_limited(const struct tw_vmstat *vm)
{
	const uint32_t need = (UINT32_C(1) << TW_VM_NR_DIRTY) | (UINT32_C(1) << TW_VM_NR_WRITEBACK) |
	    (UINT32_C(1) << TW_VM_DIRTY_THRESHOLD) | (UINT32_C(1) << TW_VM_DIRTY_BG_THRESHOLD);
	uint64_t dirty, freerun;

	if ((vm->present & need) != need || vm->v[TW_VM_DIRTY_THRESHOLD] == 0)
		return -1;
	dirty = vm->v[TW_VM_NR_DIRTY] + vm->v[TW_VM_NR_WRITEBACK];
	freerun = vm->v[TW_VM_DIRTY_THRESHOLD] / 2 + vm->v[TW_VM_DIRTY_BG_THRESHOLD] / 2;
	return dirty >= freerun;
}

/* What one process of the last sample did over the interval. */
enum step_state {
	STEP_OTHER,	/* pid still there but counters went back: not counted */
	STEP_ALIVE,	/* the same process: its growth counts */
	STEP_GONE	/* exited (or its pid was reused) */
};

/* Walking a chain of vanished parents stops after this many steps: a chain
 * is short, and a loop (pids reused within the interval) must end. */
#define REAP_CHAIN_MAX	64

static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static const struct tw_proc_io *
find_pid(const struct tw_proc_io_set *set, int32_t pid)
{
	size_t lo = 0, hi = set->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (set->procs[mid].pid < pid)
			lo = mid + 1;
		else if (set->procs[mid].pid > pid)
			hi = mid;
		else
			return &set->procs[mid];
	}
	return NULL;
}

/* The process of the last sample that should show a vanished one's
 * counters now: its parent if that is still the same process; if the
 * parent vanished too, its counters (with the child's, if the child was
 * reaped first) went to the grandparent, and so on up. A child orphaned
 * before it exited was reparented to a subreaper or init; without the
 * subreaper's identity the nearest surviving ancestor is the best guess,
 * and the caller clamps what it takes away to that ancestor's growth.
 * SIZE_MAX when no ancestor survived in view. */
static size_t
reaper_of(const struct tw_proc_io_set *prev, const struct tw_window_step *st, size_t gone)
{
	int32_t ppid = prev->procs[gone].ppid;
	unsigned n;

	for (n = 0; n < REAP_CHAIN_MAX && ppid > 0; n++) {
		const struct tw_proc_io *p = find_pid(prev, ppid);
		size_t k;

		if (p == NULL)
			break;
		k = (size_t)(p - prev->procs);
		if (st[k].state == STEP_ALIVE)
			return k;
		if (st[k].state != STEP_GONE)
			break;
		ppid = p->ppid;
	}
	return SIZE_MAX;
}

/* A process of this sample that the last one did not have: if it started
 * at or after the last sample's scan began, it was born in the interval
 * and all its counters are reads of the interval; they are added, and 1
 * returned. Otherwise (it was there but could not be read, or the start
 * of the scan is unknown) what it read before cannot be told from what
 * it read since, and nothing is counted until the next interval. Its
 * children born and reaped within the interval are in its counters
 * already, and nothing of it was counted before: no reaper owes it. */
static uint32_t
count_newborn(struct tw_window *w, const struct tw_proc_io_set *prev, const struct tw_proc_io *b)
{
	if (!prev->have_uptime || b->start_time < prev->uptime_ticks)
		return 0;
	w->logical_total = sat_add(w->logical_total, b->rchar);
	w->physical_total = sat_add(w->physical_total, b->read_bytes);
	return 1;
}

/* Add up what processes alive across the interval read, and what those
 * born within it read (count_newborn). A process is the same one only if
 * both its pid and its start time match, so a pid reused by a new process
 * does not turn its counters into a huge negative or positive step. Both
 * lists are sorted by pid.
 *
 * Linux adds a reaped child's whole-life counters to its reaper's. That
 * is how a child born and reaped within one interval is counted at all;
 * but a child seen alive was counted already, up to its last seen
 * counters, so those are taken out of its reaper's growth in the interval
 * it vanished in. What is taken from one reaper never exceeds that
 * reaper's growth: a guess that is wrong (a subreaper we cannot see, a
 * parent that ignores SIGCHLD so nothing is added) then undercounts that
 * one process's interval rather than making a total go back. */
static int
step_reads(struct tw_window *w, const struct tw_proc_io_set *cur)
{
	const struct tw_proc_io_set *prev = &w->prev_procs;
	struct tw_window_step *st;
	size_t i = 0, j = 0, k;
	uint32_t matched = 0, born = 0;
	void *p;

	if (tw_array_grow(w->step, &w->step_cap, prev->count, sizeof(*w->step), &p) != TW_OK)
		return TW_E_NOMEM;
	w->step = st = p;
	for (k = 0; k < prev->count; k++) {
		st[k].state = STEP_GONE;
		st[k].owed_logical = st[k].owed_physical = 0;
	}
	while (j < cur->count) {
		const struct tw_proc_io *b = &cur->procs[j];
		const struct tw_proc_io *a = i < prev->count ? &prev->procs[i] : NULL;

		if (a != NULL && a->pid < b->pid) {
			i++;
		} else if (a == NULL || a->pid > b->pid) {
			born += count_newborn(w, prev, b);
			j++;
		} else {
			if (a->start_time == b->start_time) {
				if (b->rchar >= a->rchar && b->read_bytes >= a->read_bytes) {
					st[i].state = STEP_ALIVE;
					st[i].grow_logical = b->rchar - a->rchar;
					st[i].grow_physical = b->read_bytes - a->read_bytes;
				} else {
					st[i].state = STEP_OTHER;
				}
			} else {
				/* The pid was reused: the old one is gone. */
				born += count_newborn(w, prev, b);
			}
			i++;
			j++;
		}
	}
	for (k = 0; k < prev->count; k++) {
		size_t r;

		if (st[k].state != STEP_GONE || (r = reaper_of(prev, st, k)) == SIZE_MAX)
			continue;
		/* Sums of counters of distinct processes: they cannot pass
		 * what a 64-bit total holds in practice, but saturate anyway. */
		st[r].owed_logical = sat_add(st[r].owed_logical, prev->procs[k].rchar);
		st[r].owed_physical = sat_add(st[r].owed_physical, prev->procs[k].read_bytes);
	}
	for (k = 0; k < prev->count; k++) {
		if (st[k].state != STEP_ALIVE)
			continue;
		if (st[k].grow_logical > st[k].owed_logical)
			w->logical_total += st[k].grow_logical - st[k].owed_logical;
		if (st[k].grow_physical > st[k].owed_physical)
			w->physical_total += st[k].grow_physical - st[k].owed_physical;
		matched++;
	}
	w->procs_matched = matched > UINT32_MAX - born ? UINT32_MAX : matched + born;
	return TW_OK;
}

static int
keep_procs(struct tw_window *w, const struct tw_proc_io_set *cur)
{
	struct tw_proc_io_set *prev = &w->prev_procs;
	void *p;

	if (tw_array_grow(prev->procs, &prev->cap, cur->count, sizeof(*prev->procs), &p) != TW_OK)
		return TW_E_NOMEM;
	prev->procs = p;
	if (cur->count > 0)
		memcpy(prev->procs, cur->procs, cur->count * sizeof(*prev->procs));
	prev->count = cur->count;
	prev->unreadable = cur->unreadable;
	prev->have_uptime = cur->have_uptime;
	prev->uptime_ticks = cur->uptime_ticks;
	return TW_OK;
}

static int
push_reads(struct tw_window *w, const struct tw_sample *s, uint64_t seq, uint64_t dt)
{
	uint64_t key = 0, raw[TW_WREADS_K];
	int have = (s->have & TW_SRC_BIT(TW_SRC_PROCIO)) != 0;
	int rc;

	if (!have) {
		w->prev_procs_valid = 0;
		w->procs_matched = 0;
		w->procs_unreadable = 0;
		return tw_track_set_update(&w->reads, seq, dt, &key, raw, 0);
	}
	if (!w->prev_procs_valid)
		w->procs_matched = 0;
	else if ((rc = step_reads(w, &s->procs)) != TW_OK)
		return rc;
	w->procs_unreadable = s->procs.unreadable > UINT32_MAX ? UINT32_MAX :
	    (uint32_t)s->procs.unreadable;
	if ((rc = keep_procs(w, &s->procs)) != TW_OK) {
		w->prev_procs_valid = 0;
		return rc;
	}
	w->prev_procs_valid = 1;
	raw[TW_WREADS_LOGICAL] = w->logical_total;
	raw[TW_WREADS_PHYSICAL] = w->physical_total;
	return tw_track_set_update(&w->reads, seq, dt, &key, raw, 1);
}

int
tw_window_push(struct tw_window *w, const struct tw_sample *s, const struct tw_pool_set *pools)
{
	uint64_t seq, dt = 0;
	int rc;

	if (w->times == NULL) {
		/* An earlier failure left the window empty: try to rebuild it. */
		unsigned intervals = w->intervals;

		if ((rc = tw_window_init(w, intervals)) != TW_OK) {
			w->intervals = intervals;
			return rc;
		}
	}
	if (w->nsamples > 0) {
		uint64_t newest = w->times[w->seq % w->slots];

		if (s->mono_ms <= newest)
			return TW_E_INVAL;
		seq = w->seq + 1;
		dt = s->mono_ms - newest;
	} else {
		seq = 0;
	}
	/* Each set either takes the sample whole or is left as it was, so a
	 * failure part way leaves sets one sample apart; start over rather
	 * than carry on with them out of step. */
	if ((rc = push_disks(w, s, seq, dt)) != TW_OK ||
	    (rc = push_pools(w, pools, seq, dt)) != TW_OK ||
	    (rc = push_vm(w, s, seq, dt)) != TW_OK ||
	    (rc = push_reads(w, s, seq, dt)) != TW_OK ||
	    (rc = tw_window_push_cgroups(&w->cgroups, s, seq, dt)) != TW_OK) {
		unsigned intervals = w->intervals;

		tw_window_free(w);
		if (tw_window_init(w, intervals) != TW_OK)
			w->intervals = intervals;
		return rc;
	}
	w->times[seq % w->slots] = s->mono_ms;
	w->seq = seq;
	w->nsamples++;
	w->malformed_total += s->parse.malformed;
	w->lines_total += s->parse.lines;
	return TW_OK;
}

uint64_t
tw_window_oldest_seq(const struct tw_window *w)
{
	if (w->nsamples == 0)
		return 0;
	return w->seq >= w->slots - 1 ? w->seq - (w->slots - 1) : 0;
}

unsigned
tw_window_samples(const struct tw_window *w)
{
	if (w->nsamples == 0)
		return 0;
	return (unsigned)(w->seq - tw_window_oldest_seq(w) + 1);
}

uint64_t
tw_window_span_ms(const struct tw_window *w)
{
	if (w->nsamples < 2)
		return 0;
	return w->times[w->seq % w->slots] - w->times[tw_window_oldest_seq(w) % w->slots];
}

int
tw_window_pool_failures(const struct tw_window *w, uint64_t key, uint64_t *count)
{
	uint64_t delta[POOL_K], cov;
	int rc = tw_window_delta(w, &w->pools, key, delta, &cov);

	*count = delta[POOL_FAIL32] + delta[POOL_FAIL64];
	return rc;
}

uint64_t
tw_window_pool_total(const struct tw_window *w, uint64_t key)
{
	const struct tw_track *t = tw_track_set_find(&w->pools, key);

	if (t == NULL)
		return 0;
	return tw_track_total(&w->pools, t, POOL_FAIL32) + tw_track_total(&w->pools, t, POOL_FAIL64);
}

int
tw_window_delta(const struct tw_window *w, const struct tw_track_set *set, uint64_t key,
    uint64_t *delta, uint64_t *cov_ms)
{
	return tw_window_track_delta(w, set, tw_track_set_find(set, key), delta, cov_ms);
}

int
tw_window_track_delta(const struct tw_window *w, const struct tw_track_set *set,
    const struct tw_track *t, uint64_t *delta, uint64_t *cov_ms)
{
	if (t == NULL || w->nsamples == 0 || w->times == NULL) {
		memset(delta, 0, set->k * sizeof(uint64_t));
		*cov_ms = 0;
		return 0;
	}
	return tw_track_delta(set, t, tw_window_oldest_seq(w), w->seq, delta, cov_ms);
}
