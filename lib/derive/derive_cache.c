/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "derive/derive_cache.h"

#include <stddef.h>

/* A rate per second from an increase over cov_ms. */
static double
per_s(uint64_t delta, uint64_t cov_ms)
{
	return (double)delta * 1000.0 / (double)cov_ms;
}

static void
memory(const struct tw_sample *s, struct tw_cache_record *f)
{
	static const struct {
		enum tw_mem_field field;
		size_t off;
	} mem[] = {
		{ TW_MEM_TOTAL, offsetof(struct tw_cache_record, mem_total_bytes) },
		{ TW_MEM_AVAILABLE, offsetof(struct tw_cache_record, mem_available_bytes) },
		{ TW_MEM_CACHED, offsetof(struct tw_cache_record, cached_bytes) },
		{ TW_MEM_BUFFERS, offsetof(struct tw_cache_record, buffers_bytes) },
		{ TW_MEM_DIRTY, offsetof(struct tw_cache_record, dirty_bytes) },
		{ TW_MEM_WRITEBACK, offsetof(struct tw_cache_record, writeback_bytes) },
		{ TW_MEM_SWAP_TOTAL, offsetof(struct tw_cache_record, swap_total_bytes) },
		{ TW_MEM_SWAP_FREE, offsetof(struct tw_cache_record, swap_free_bytes) },
	};
	size_t i;

	if (!(s->have & TW_SRC_BIT(TW_SRC_MEMINFO)))
		return;
	for (i = 0; i < sizeof(mem) / sizeof(mem[0]); i++)
		if (s->mem.present & (UINT32_C(1) << mem[i].field))
			*(double *)(void *)((char *)f + mem[i].off) =
			    (double)s->mem.bytes[mem[i].field];
}

/* The page cache's hit ratio, estimated from what processes read. */
static void
reads(const struct tw_window *w, struct tw_cache_record *f)
{
	const struct tw_track *t = tw_track_set_find(&w->reads, 0);
	uint64_t d[TW_TRACK_MAX_K], cov;

	if (t == NULL)
		return;
	f->method = TW_HIT_RATIO_METHOD;
	f->logical_read_bytes = tw_track_total(&w->reads, t, TW_WREADS_LOGICAL);
	f->physical_read_bytes = tw_track_total(&w->reads, t, TW_WREADS_PHYSICAL);
	f->hit_ratio_processes = (double)w->procs_matched;
	f->hit_ratio_unreadable = (double)w->procs_unreadable;
	if (tw_window_delta(w, &w->reads, 0, d, &cov) && d[TW_WREADS_LOGICAL] > 0) {
		double miss = (double)d[TW_WREADS_PHYSICAL] / (double)d[TW_WREADS_LOGICAL];

		/* read_bytes can exceed rchar (readahead, mmap page-ins): the
		 * estimate then bottoms out at 0. */
		f->hit_ratio_pct = miss >= 1.0 ? 0 : (1.0 - miss) * 100.0;
	}
}

static void
vm(const struct tw_window *w, const struct tw_sample *s, struct tw_cache_record *f)
{
	const struct tw_track *t = tw_track_set_find(&w->vm, 0);
	uint64_t d[TW_TRACK_MAX_K], cov;
	int windowed;

	if (t == NULL)
		return;
	windowed = tw_window_delta(w, &w->vm, 0, d, &cov) && cov > 0;
	if (s->vm.present & (UINT32_C(1) << TW_VM_REFAULT_FILE)) {
		f->refaults = (double)tw_track_total(&w->vm, t, TW_WVM_REFAULT_FILE);
		if (windowed)
			f->refaults_s = per_s(d[TW_WVM_REFAULT_FILE], cov);
	}
	if (s->vm.present & (UINT32_C(1) << TW_VM_PGMAJFAULT)) {
		f->major_faults = (double)tw_track_total(&w->vm, t, TW_WVM_PGMAJFAULT);
		if (windowed)
			f->major_faults_s = per_s(d[TW_WVM_PGMAJFAULT], cov);
	}
	if (!windowed)
		return;
	if (s->vm.present & (UINT32_C(1) << TW_VM_PGPGIN))
		f->page_in_kib_s = per_s(d[TW_WVM_PGPGIN], cov);
	if (s->vm.present & (UINT32_C(1) << TW_VM_PGSTEAL_HOST))
		f->reclaim_s = per_s(d[TW_WVM_RECLAIM_HOST], cov);
	if (tw_window_dirty_limited(&s->vm) >= 0)
		f->dirty_limited_pct = (double)d[TW_WVM_DIRTY_LIMITED_MS] * 100.0 / (double)cov;
}

void
tw_derive_cache(const struct tw_window *w, const struct tw_sample *s, struct tw_cache_record *f)
{
	tw_cache_record_init(f);
	memory(s, f);
	reads(w, f);
	vm(w, s, f);
	if ((s->have & TW_SRC_BIT(TW_SRC_VMSTAT)) && tw_window_dirty_limited(&s->vm) >= 0) {
		f->dirty_threshold_bytes = (double)(s->vm.v[TW_VM_DIRTY_THRESHOLD] * s->page_size);
		f->dirty_bg_threshold_bytes =
		    (double)(s->vm.v[TW_VM_DIRTY_BG_THRESHOLD] * s->page_size);
	}
	/* PSI's avg10 is in hundredths of a percent. */
	if ((s->have & TW_SRC_BIT(TW_SRC_PSI_MEMORY)) && s->psi_memory.has_some)
		f->memory_pressure_pct = (double)s->psi_memory.some.avg10 / 100.0;
	if ((s->have & TW_SRC_BIT(TW_SRC_PSI_IO)) && s->psi_io.has_some)
		f->io_pressure_pct = (double)s->psi_io.some.avg10 / 100.0;
}
