/* SPDX-License-Identifier: ISC */
/* The column table's entries for twCgroupTable, one row per cgroup. */
#include "config.h"

#include "view/columns_rows.h"

#include "collect/cgroupowner.h"

/* check_bufcache --cgroup reads what it judges and prints; the counters
 * behind the rates are for NMSs. */
const struct tw_column tw_columns_cgroup[] = {
	[TW_OID_CGROUP_INDEX] = INDEX("twCgroupIndex", 1),
	[TW_OID_CGROUP_PATH] = STR("twCgroupPath", struct tw_view_cgroup, path, READ,
	    NAME(struct tw_cgroup_record, path)),
	[TW_OID_CGROUP_UNIT] = STR("twCgroupUnit", struct tw_view_cgroup, unit, READ,
	    TEXT(struct tw_cgroup_record, unit)),
	[TW_OID_CGROUP_VERSION] = RANGED("twCgroupVersion", TW_SMI_UNSIGNED32, 1, 2, READ,
	    INT(struct tw_cgroup_record, version)),
	[TW_OID_CGROUP_CACHE_BYTES] = NUM("twCgroupCacheBytes", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes", READ, REAL(struct tw_cgroup_record, cache_bytes)),
	[TW_OID_CGROUP_MEMORY_USAGE] = NUM("twCgroupMemoryUsage", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes", READ, REAL(struct tw_cgroup_record, memory_usage_bytes)),
	[TW_OID_CGROUP_MEMORY_LIMIT] = NUM("twCgroupMemoryLimit", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes", READ, REAL(struct tw_cgroup_record, memory_limit_bytes)),
	[TW_OID_CGROUP_LIMIT_NAME] = STR("twCgroupLimitName", struct tw_view_cgroup, limit_name,
	    READ, TEXT(struct tw_cgroup_record, limit_name)),
	[TW_OID_CGROUP_REFAULTS] = NUM("twCgroupRefaults", TW_SMI_COUNTER64, "pages", SKIP,
	    COUNT(struct tw_cgroup_record, refaults)),
	[TW_OID_CGROUP_REFAULT_RATE] = SCALED("twCgroupRefaultRate", TW_SMI_HUNDREDTHS,
	    "pages per second", 100, "pages/s", READ, REAL(struct tw_cgroup_record, refaults_s)),
	[TW_OID_CGROUP_LIMIT_EVENTS] = NUM("twCgroupLimitEvents", TW_SMI_COUNTER64, "events",
	    SKIP, COUNT(struct tw_cgroup_record, limit_events)),
	[TW_OID_CGROUP_LIMIT_EVENT_RATE] = SCALED("twCgroupLimitEventRate", TW_SMI_HUNDREDTHS,
	    "events per second", 100, "events/s", READ, REAL(struct tw_cgroup_record, limit_events_s)),
	[TW_OID_CGROUP_MEMORY_PRESSURE] = PERCENT("twCgroupMemoryPressure",
	    REAL(struct tw_cgroup_record, memory_pressure_pct)),
	[TW_OID_CGROUP_IO_PRESSURE] = PERCENT("twCgroupIoPressure",
	    REAL(struct tw_cgroup_record, io_pressure_pct)),
	[TW_OID_CGROUP_READ_BYTES] = NUM("twCgroupReadBytes", TW_SMI_COUNTER64, "bytes", SKIP,
	    COUNT(struct tw_cgroup_record, read_bytes)),
	[TW_OID_CGROUP_WRITTEN_BYTES] = NUM("twCgroupWrittenBytes", TW_SMI_COUNTER64, "bytes",
	    SKIP, COUNT(struct tw_cgroup_record, written_bytes)),
	[TW_OID_CGROUP_READ_RATE] = NUM("twCgroupReadRate", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes per second", READ, REAL(struct tw_cgroup_record, read_bytes_s)),
	[TW_OID_CGROUP_WRITE_RATE] = NUM("twCgroupWriteRate", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes per second", READ, REAL(struct tw_cgroup_record, write_bytes_s)),
	/* The checks tell the owner from the path themselves (as tunewatchd
	 * does: collect/cgroupowner.h); these are for an NMS. */
	[TW_OID_CGROUP_OWNER_KIND] = RANGED_UNITS("twCgroupOwnerKind", TW_SMI_ENUMERATION,
	    TW_CG_OWNER_SYSTEM_UNIT, TW_CG_OWNER_CGROUP, NULL, SKIP,
	    INT(struct tw_cgroup_record, owner_kind)),
	[TW_OID_CGROUP_OWNER_UID] = NUM("twCgroupOwnerUid", TW_SMI_UNSIGNED32, NULL, SKIP,
	    INT(struct tw_cgroup_record, owner_uid)),
	/* Read: the advice sizes a limit from it (advice/advice_cgroup.h). */
	[TW_OID_CGROUP_FILESET_BYTES] = NUM("twCgroupFileSetBytes",
	    TW_SMI_COUNTER_BASED_GAUGE64, "bytes", READ,
	    REAL(struct tw_cgroup_record, fileset_bytes)),
	/* Read: a leak is not sized (advice/advice_cgroup.h). */
	[TW_OID_CGROUP_ANON_GROWTH] = NUM("twCgroupAnonGrowth", TW_SMI_INTEGER32, "kilobytes",
	    READ, REAL(struct tw_cgroup_record, anon_growth_kib)),
	[TW_OID_CGROUP_ANON_FALL] = NUM("twCgroupAnonFall", TW_SMI_INTEGER32, "kilobytes",
	    READ, REAL(struct tw_cgroup_record, anon_fall_kib)),
};

_Static_assert(NCOLS(tw_columns_cgroup) == TW_VIEW_CGROUP_COLS,
    "twCgroupEntry and the view disagree");
