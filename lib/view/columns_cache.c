/* SPDX-License-Identifier: ISC */
/* The column table's rows of twBufferCache, the scalars of the page cache. */
#include "config.h"

#include "view/columns_rows.h"

const struct tw_column tw_columns_bc[] = {
	[TW_OID_BC_MEM_TOTAL] = NUM("twBcMemTotal", TW_SMI_COUNTER_BASED_GAUGE64, "bytes", READ),
	[TW_OID_BC_MEM_AVAILABLE] = NUM("twBcMemAvailable", TW_SMI_COUNTER_BASED_GAUGE64, "bytes",
	    READ),
	[TW_OID_BC_CACHED] = NUM("twBcCached", TW_SMI_COUNTER_BASED_GAUGE64, "bytes", READ),
	[TW_OID_BC_BUFFERS] = NUM("twBcBuffers", TW_SMI_COUNTER_BASED_GAUGE64, "bytes", READ),
	[TW_OID_BC_DIRTY] = NUM("twBcDirty", TW_SMI_COUNTER_BASED_GAUGE64, "bytes", READ),
	[TW_OID_BC_WRITEBACK] = NUM("twBcWriteback", TW_SMI_COUNTER_BASED_GAUGE64, "bytes", READ),
	[TW_OID_BC_READ_HIT_RATIO] = PERCENT("twBcReadHitRatio"),
	[TW_OID_BC_HIT_RATIO_METHOD] = STR("twBcHitRatioMethod", struct tw_view_bufcache, method,
	    READ),
	[TW_OID_BC_LOGICAL_READ_BYTES] = NUM("twBcLogicalReadBytes", TW_SMI_COUNTER64, "bytes",
	    READ),
	[TW_OID_BC_PHYSICAL_READ_BYTES] = NUM("twBcPhysicalReadBytes", TW_SMI_COUNTER64, "bytes",
	    READ),
	[TW_OID_BC_HIT_RATIO_PROCESSES] = NUM("twBcHitRatioProcesses", TW_SMI_UNSIGNED32,
	    "processes", READ),
	[TW_OID_BC_HIT_RATIO_UNREADABLE] = NUM("twBcHitRatioUnreadable", TW_SMI_UNSIGNED32,
	    "processes", READ),
	[TW_OID_BC_REFAULTS] = NUM("twBcRefaults", TW_SMI_COUNTER64, "pages", READ),
	[TW_OID_BC_REFAULT_RATE] = SCALED("twBcRefaultRate", TW_SMI_HUNDREDTHS,
	    "pages per second", 100, "pages/s", READ),
	[TW_OID_BC_MAJOR_FAULTS] = NUM("twBcMajorFaults", TW_SMI_COUNTER64, "faults", READ),
	[TW_OID_BC_MAJOR_FAULT_RATE] = SCALED("twBcMajorFaultRate", TW_SMI_HUNDREDTHS,
	    "faults per second", 100, "faults/s", READ),
	[TW_OID_BC_PAGE_IN_RATE] = SCALED("twBcPageInRate", TW_SMI_HUNDREDTHS, "KiB per second",
	    100, "KiB/s", READ),
	[TW_OID_BC_MEMORY_PRESSURE] = PERCENT("twBcMemoryPressure"),
	[TW_OID_BC_IO_PRESSURE] = PERCENT("twBcIoPressure"),
	[TW_OID_BC_SWAP_TOTAL] = NUM("twBcSwapTotal", TW_SMI_COUNTER_BASED_GAUGE64, "bytes", READ),
	[TW_OID_BC_SWAP_FREE] = NUM("twBcSwapFree", TW_SMI_COUNTER_BASED_GAUGE64, "bytes", READ),
	[TW_OID_BC_DIRTY_THRESHOLD] = NUM("twBcDirtyThreshold", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes", READ),
	[TW_OID_BC_DIRTY_BG_THRESHOLD] = NUM("twBcDirtyBackgroundThreshold",
	    TW_SMI_COUNTER_BASED_GAUGE64, "bytes", READ),
	[TW_OID_BC_DIRTY_LIMITED] = PERCENT("twBcDirtyLimited"),
	[TW_OID_BC_RECLAIM_RATE] = SCALED("twBcReclaimRate", TW_SMI_HUNDREDTHS,
	    "pages per second", 100, "pages/s", READ),
};

_Static_assert(NCOLS(tw_columns_bc) == TW_VIEW_BC_COLS, "twBufferCache and the view disagree");
