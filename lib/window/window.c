/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "window/window.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"

/* Pools keep their failure count in one of two counters, by the width the
 * kernel keeps it in (softnet's are 32-bit), so both kinds wrap right; and
 * the time in memory pressure of a pool that has one (tcp memory). */
enum { POOL_FAIL32, POOL_FAIL64, POOL_PRESSURE_MS, POOL_K };

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
	static const uint8_t pool_bits[POOL_K] = { 32, 64, 64 };
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
		r.raw[i * POOL_K + POOL_PRESSURE_MS] = p->pressure_ms;
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
	    (rc = tw_window_push_reads(w, s, seq, dt)) != TW_OK ||
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

int
tw_window_pool_pressure(const struct tw_window *w, uint64_t key, uint64_t *ms)
{
	uint64_t delta[POOL_K], cov;
	int rc = tw_window_delta(w, &w->pools, key, delta, &cov);

	*ms = delta[POOL_PRESSURE_MS];
	return rc;
}

uint64_t
tw_window_pool_pressure_total(const struct tw_window *w, uint64_t key)
{
	const struct tw_track *t = tw_track_set_find(&w->pools, key);

	return t != NULL ? tw_track_total(&w->pools, t, POOL_PRESSURE_MS) : 0;
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
