/* SPDX-License-Identifier: ISC */
/* The buffer cache's scalars (twBufferCache): the newest sample's memory
 * figures, and the window's rates of the reads, refaults and reclaim
 * behind them. */
#include "config.h"

#include "view/build_priv.h"

void
tw_view_build_bufcache(struct tw_view_bufcache *bc, const struct tw_window *w,
    const struct tw_sample *s)
{
	static const struct {
		enum tw_mem_field field;
		unsigned col;
	} mem[] = {
		{ TW_MEM_TOTAL, TW_OID_BC_MEM_TOTAL },
		{ TW_MEM_AVAILABLE, TW_OID_BC_MEM_AVAILABLE },
		{ TW_MEM_CACHED, TW_OID_BC_CACHED },
		{ TW_MEM_BUFFERS, TW_OID_BC_BUFFERS },
		{ TW_MEM_DIRTY, TW_OID_BC_DIRTY },
		{ TW_MEM_WRITEBACK, TW_OID_BC_WRITEBACK },
		{ TW_MEM_SWAP_TOTAL, TW_OID_BC_SWAP_TOTAL },
		{ TW_MEM_SWAP_FREE, TW_OID_BC_SWAP_FREE },
	};
	uint64_t d[TW_TRACK_MAX_K], cov;
	const struct tw_track *t;
	size_t i;

	memset(bc, 0, sizeof(*bc));
	if (s->have & TW_SRC_BIT(TW_SRC_MEMINFO))
		for (i = 0; i < sizeof(mem) / sizeof(mem[0]); i++)
			if (s->mem.present & (UINT32_C(1) << mem[i].field))
				tw_vb_put(&bc->has, bc->col, mem[i].col,
				    s->mem.bytes[mem[i].field]);

	t = tw_track_set_find(&w->reads, 0);
	if (t != NULL) {
		tw_str_copy_cut(bc->method, sizeof(bc->method), TW_HIT_RATIO_METHOD);
		bc->has |= TW_VIEW_BIT(TW_OID_BC_HIT_RATIO_METHOD);
		tw_vb_put(&bc->has, bc->col, TW_OID_BC_LOGICAL_READ_BYTES,
		    tw_track_total(&w->reads, t, TW_WREADS_LOGICAL));
		tw_vb_put(&bc->has, bc->col, TW_OID_BC_PHYSICAL_READ_BYTES,
		    tw_track_total(&w->reads, t, TW_WREADS_PHYSICAL));
		tw_vb_put(&bc->has, bc->col, TW_OID_BC_HIT_RATIO_PROCESSES, w->procs_matched);
		tw_vb_put(&bc->has, bc->col, TW_OID_BC_HIT_RATIO_UNREADABLE, w->procs_unreadable);
		if (tw_window_delta(w, &w->reads, 0, d, &cov) && d[TW_WREADS_LOGICAL] > 0) {
			double miss = (double)d[TW_WREADS_PHYSICAL] / (double)d[TW_WREADS_LOGICAL];

			/* read_bytes can exceed rchar (readahead, mmap page-ins):
			 * the estimate then bottoms out at 0. */
			tw_vb_put_fig(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_READ_HIT_RATIO,
			    miss >= 1.0 ? 0 : (1.0 - miss) * 100.0);
		}
	}

	t = tw_track_set_find(&w->vm, 0);
	if (t != NULL) {
		int windowed = tw_window_delta(w, &w->vm, 0, d, &cov) && cov > 0;

		if (s->vm.present & (UINT32_C(1) << TW_VM_REFAULT_FILE)) {
			tw_vb_put(&bc->has, bc->col, TW_OID_BC_REFAULTS,
			    tw_track_total(&w->vm, t, TW_WVM_REFAULT_FILE));
			if (windowed)
				tw_vb_put_fig(TW_OID_BUFCACHE, &bc->has, bc->col,
				    TW_OID_BC_REFAULT_RATE,
				    tw_vb_per_s(d[TW_WVM_REFAULT_FILE], cov));
		}
		if (s->vm.present & (UINT32_C(1) << TW_VM_PGMAJFAULT)) {
			tw_vb_put(&bc->has, bc->col, TW_OID_BC_MAJOR_FAULTS,
			    tw_track_total(&w->vm, t, TW_WVM_PGMAJFAULT));
			if (windowed)
				tw_vb_put_fig(TW_OID_BUFCACHE, &bc->has, bc->col,
				    TW_OID_BC_MAJOR_FAULT_RATE,
				    tw_vb_per_s(d[TW_WVM_PGMAJFAULT], cov));
		}
		if (windowed && (s->vm.present & (UINT32_C(1) << TW_VM_PGPGIN)))
			tw_vb_put_fig(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_PAGE_IN_RATE,
			    tw_vb_per_s(d[TW_WVM_PGPGIN], cov));
		if (windowed && (s->vm.present & (UINT32_C(1) << TW_VM_PGSTEAL_HOST)))
			tw_vb_put_fig(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_RECLAIM_RATE,
			    tw_vb_per_s(d[TW_WVM_RECLAIM_HOST], cov));
		if (windowed && tw_window_dirty_limited(&s->vm) >= 0)
			tw_vb_put_fig(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_DIRTY_LIMITED,
			    (double)d[TW_WVM_DIRTY_LIMITED_MS] * 100.0 / (double)cov);
	}
	if ((s->have & TW_SRC_BIT(TW_SRC_VMSTAT)) && tw_window_dirty_limited(&s->vm) >= 0) {
		tw_vb_put(&bc->has, bc->col, TW_OID_BC_DIRTY_THRESHOLD,
		    s->vm.v[TW_VM_DIRTY_THRESHOLD] * s->page_size);
		tw_vb_put(&bc->has, bc->col, TW_OID_BC_DIRTY_BG_THRESHOLD,
		    s->vm.v[TW_VM_DIRTY_BG_THRESHOLD] * s->page_size);
	}

	if ((s->have & TW_SRC_BIT(TW_SRC_PSI_MEMORY)) && s->psi_memory.has_some)
		/* PSI's avg10 is already in hundredths of a percent. */
		tw_vb_put_count(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_MEMORY_PRESSURE,
		    s->psi_memory.some.avg10);
	if ((s->have & TW_SRC_BIT(TW_SRC_PSI_IO)) && s->psi_io.has_some)
		tw_vb_put_count(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_IO_PRESSURE,
		    s->psi_io.some.avg10);
}

