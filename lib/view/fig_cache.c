/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_cache.h"

#include "view/columns.h"
#include "view/view.h"

void
tw_view_cache_figures(const struct tw_view_bufcache *bc, struct tw_cache_fig *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_BUFCACHE);
	double x[TW_VIEW_BC_COLS];
	unsigned i;

	/* Every scalar through its row of the column table, then each into
	 * its field: the units are the table's, not this file's. */
	for (i = 0; i < TW_VIEW_BC_COLS; i++)
		x[i] = i < g->ncols && g->cols[i].name != NULL && tw_view_has(bc, i) &&
		    tw_column_ber(&g->cols[i]) != TW_BER_OCTET_STRING ?
		    tw_column_decode(&g->cols[i], bc->col[i]) : TW_FIG_NONE;
	f->mem_total_bytes = x[TW_OID_BC_MEM_TOTAL];
	f->mem_available_bytes = x[TW_OID_BC_MEM_AVAILABLE];
	f->cached_bytes = x[TW_OID_BC_CACHED];
	f->buffers_bytes = x[TW_OID_BC_BUFFERS];
	f->dirty_bytes = x[TW_OID_BC_DIRTY];
	f->writeback_bytes = x[TW_OID_BC_WRITEBACK];
	f->hit_ratio_pct = x[TW_OID_BC_READ_HIT_RATIO];
	f->method = tw_view_has(bc, TW_OID_BC_HIT_RATIO_METHOD) ? bc->method : NULL;
	f->logical_read_bytes = x[TW_OID_BC_LOGICAL_READ_BYTES];
	f->physical_read_bytes = x[TW_OID_BC_PHYSICAL_READ_BYTES];
	f->hit_ratio_processes = x[TW_OID_BC_HIT_RATIO_PROCESSES];
	f->hit_ratio_unreadable = x[TW_OID_BC_HIT_RATIO_UNREADABLE];
	f->refaults = x[TW_OID_BC_REFAULTS];
	f->refaults_s = x[TW_OID_BC_REFAULT_RATE];
	f->major_faults = x[TW_OID_BC_MAJOR_FAULTS];
	f->major_faults_s = x[TW_OID_BC_MAJOR_FAULT_RATE];
	f->page_in_kib_s = x[TW_OID_BC_PAGE_IN_RATE];
	f->memory_pressure_pct = x[TW_OID_BC_MEMORY_PRESSURE];
	f->io_pressure_pct = x[TW_OID_BC_IO_PRESSURE];
	f->swap_total_bytes = x[TW_OID_BC_SWAP_TOTAL];
	f->swap_free_bytes = x[TW_OID_BC_SWAP_FREE];
	f->dirty_threshold_bytes = x[TW_OID_BC_DIRTY_THRESHOLD];
	f->dirty_bg_threshold_bytes = x[TW_OID_BC_DIRTY_BG_THRESHOLD];
	f->dirty_limited_pct = x[TW_OID_BC_DIRTY_LIMITED];
	f->reclaim_s = x[TW_OID_BC_RECLAIM_RATE];
}
