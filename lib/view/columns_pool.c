/* SPDX-License-Identifier: ISC */
/* The column table's entries for twDblockTable, one row per message-buffer pool. */
#include "config.h"

#include "view/columns_rows.h"

const struct tw_column tw_columns_pool[] = {
	[TW_OID_DBLOCK_CLASS] = INDEX_ENUM("twDblockClass", TW_SMI_DBLOCK_CLASS),
	[TW_OID_DBLOCK_INSTANCE] = INDEX("twDblockInstance", 0),
	[TW_OID_DBLOCK_NAME] = STR("twDblockName", struct tw_view_pool, name, READ,
	    NAME(struct tw_pool_record, name)),
	[TW_OID_DBLOCK_SIZE] = NUM("twDblockSize", TW_SMI_UNSIGNED32, "bytes", READ,
	    REAL(struct tw_pool_record, size_bytes)),
	[TW_OID_DBLOCK_IN_USE] = NUM("twDblockInUse", TW_SMI_GAUGE32, NULL, READ,
	    REAL(struct tw_pool_record, in_use)),
	[TW_OID_DBLOCK_FREE] = NUM("twDblockFree", TW_SMI_GAUGE32, NULL, READ,
	    REAL(struct tw_pool_record, free)),
	[TW_OID_DBLOCK_LIMIT] = NUM("twDblockLimit", TW_SMI_GAUGE32, NULL, READ,
	    REAL(struct tw_pool_record, limit)),
	[TW_OID_DBLOCK_FAILURES] = NUM("twDblockFailures", TW_SMI_COUNTER64, "failures", READ,
	    COUNT(struct tw_pool_record, failures)),
	[TW_OID_DBLOCK_RECENT_FAILURES] = NUM("twDblockRecentFailures", TW_SMI_GAUGE32,
	    "failures", READ, REAL(struct tw_pool_record, recent_failures)),
	[TW_OID_DBLOCK_TUNABLE] = STR("twDblockTunable", struct tw_view_pool, tunable, READ,
	    TEXT(struct tw_pool_record, tunable)),
	[TW_OID_DBLOCK_FAILURE_EVENT] = STR("twDblockFailureEvent", struct tw_view_pool, event,
	    READ, TEXT(struct tw_pool_record, event)),
	[TW_OID_DBLOCK_PRESSURE_TIME] = NUM("twDblockPressureTime", TW_SMI_COUNTER64,
	    "milliseconds", READ, COUNT(struct tw_pool_record, pressure_ms)),
	[TW_OID_DBLOCK_RECENT_PRESSURE_TIME] = NUM("twDblockRecentPressureTime", TW_SMI_GAUGE32,
	    "milliseconds", READ, REAL(struct tw_pool_record, recent_pressure_ms)),
	[TW_OID_DBLOCK_OWNER_UID] = NUM("twDblockOwnerUid", TW_SMI_UNSIGNED32, NULL, READ,
	    INT(struct tw_pool_record, owner_uid)),
};

_Static_assert(NCOLS(tw_columns_pool) == TW_VIEW_POOL_COLS,
    "twDblockEntry and the view disagree");
