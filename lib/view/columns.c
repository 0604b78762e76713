/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/columns.h"

#include "collect/cgroupowner.h"
#include "collect/sockowner.h"
#include "util/ratelimit.h"
#include "view/view.h"

/* ---- The table ---------------------------------------------------------
 * One row per object, in the MIB's order. READ: the SNMP client fetches
 * the column for the checks (a column they never read costs a varbind a
 * row for nothing); every scalar is read, those that explain the cgroup
 * table (READ_CGROUPS) only with it. */

#define READ 1
#define SKIP 0
#define READ_CGROUPS TW_COLUMN_READ_WITH_CGROUPS

/* Each SMI type's own range, which a row keeps unless the MIB narrows it
 * (constant expressions, so that the rows can hold them). */
#define TYPE_MIN(t) \
	((t) == TW_SMI_INTEGER32 ? INT32_MIN : (t) == TW_SMI_TRUTH_VALUE ? 1 : \
	 (t) == TW_SMI_DBLOCK_CLASS ? TW_DBLOCK_SOFTNET_BACKLOG : \
	 (t) == TW_SMI_FINDING_SEVERITY ? TW_FINDING_WARNING : 0)
#define TYPE_MAX(t) \
	((t) == TW_SMI_COUNTER64 || (t) == TW_SMI_COUNTER_BASED_GAUGE64 ? UINT64_MAX : \
	 (t) == TW_SMI_INTEGER32 ? (uint64_t)INT32_MAX : (t) == TW_SMI_TRUTH_VALUE ? 2 : \
	 (t) == TW_SMI_DBLOCK_CLASS ? (uint64_t)TW_DBLOCK_HIGH_ORDER : \
	 (t) == TW_SMI_FINDING_SEVERITY ? (uint64_t)TW_FINDING_CRITICAL : \
	 (t) == TW_SMI_DISPLAY_STRING ? 255 : (uint64_t)UINT32_MAX)

#define NUM(n, t, u, read) \
	{ .name = (n), .smi = (t), .access = TW_ACCESS_READ_ONLY, .min = TYPE_MIN(t), \
	  .max = TYPE_MAX(t), .units = (u), .scale = 1, .checks_read = (read) }
/* A number the MIB keeps scaled: the figure times s, in the unit f. */
#define SCALED(n, t, u, s, f, read) \
	{ .name = (n), .smi = (t), .access = TW_ACCESS_READ_ONLY, .min = TYPE_MIN(t), \
	  .max = TYPE_MAX(t), .units = (u), .scale = (s), .unit = (f), .checks_read = (read) }
#define PERCENT(n) \
	{ .name = (n), .smi = TW_SMI_HUNDREDTHS, .access = TW_ACCESS_READ_ONLY, .ranged = 1, \
	  .min = 0, .max = 10000, .units = "percent", .scale = 100, .unit = "%", \
	  .checks_read = READ }
#define STR(n, type, field, read) \
	{ .name = (n), .smi = TW_SMI_DISPLAY_STRING, .access = TW_ACCESS_READ_ONLY, \
	  .max = TYPE_MAX(TW_SMI_DISPLAY_STRING), .scale = 1, .checks_read = (read), \
	  .str_off = offsetof(type, field), .str_size = sizeof(((type *)0)->field) }
/* The MIB states an index's range even where it is the type's. */
#define INDEX(n, lo) \
	{ .name = (n), .smi = TW_SMI_UNSIGNED32, .access = TW_ACCESS_NOT_ACCESSIBLE, .ranged = 1, \
	  .min = (lo), .max = UINT32_MAX, .scale = 1 }
/* A number whose range the MIB narrows. */
#define RANGED(n, t, lo, hi, read) \
	{ .name = (n), .smi = (t), .access = TW_ACCESS_READ_ONLY, .ranged = 1, .min = (lo), \
	  .max = (hi), .scale = 1, .checks_read = (read) }
#define INDEX_ENUM(n, t) \
	{ .name = (n), .smi = (t), .access = TW_ACCESS_NOT_ACCESSIBLE, .min = TYPE_MIN(t), \
	  .max = TYPE_MAX(t), .scale = 1 }

static const struct tw_column agent_cols[] = {
	[TW_OID_AGENT_VERSION] = STR("twAgentVersion", struct tw_view_agent, version, READ),
	[TW_OID_AGENT_INTERVAL] = NUM("twAgentInterval", TW_SMI_UNSIGNED32, "seconds", READ),
	[TW_OID_AGENT_WINDOW] = NUM("twAgentWindow", TW_SMI_UNSIGNED32, "seconds", READ),
	[TW_OID_AGENT_SAMPLE_AGE] = NUM("twAgentSampleAge", TW_SMI_UNSIGNED32, "milliseconds",
	    READ),
	[TW_OID_AGENT_MALFORMED] = NUM("twAgentMalformedLines", TW_SMI_COUNTER64, "lines", READ),
	[TW_OID_AGENT_WINDOW_SAMPLES] = NUM("twAgentWindowSamples", TW_SMI_UNSIGNED32, "samples",
	    READ),
	[TW_OID_AGENT_WINDOW_SPAN] = NUM("twAgentWindowSpan", TW_SMI_UNSIGNED32, "milliseconds",
	    READ),
	[TW_OID_AGENT_SYSTEM] = STR("twAgentSystem", struct tw_view_agent, system, READ),
	[TW_OID_AGENT_SAMPLES] = NUM("twAgentSamples", TW_SMI_COUNTER64, "samples", READ),
	[TW_OID_AGENT_UNPRINTABLE_NAMES] = NUM("twAgentUnprintableNames", TW_SMI_GAUGE32, "names",
	    SKIP),
	[TW_OID_AGENT_CGROUPS_WALKED] = NUM("twAgentCgroupsWalked", TW_SMI_GAUGE32, "cgroups",
	    READ_CGROUPS),
	[TW_OID_AGENT_CGROUPS_UNPUBLISHED] = NUM("twAgentCgroupsUnpublished", TW_SMI_GAUGE32,
	    "cgroups", READ_CGROUPS),
	[TW_OID_AGENT_CGROUPS_CUT_LONG] = NUM("twAgentCgroupsCutLong", TW_SMI_GAUGE32, "cgroups",
	    READ_CGROUPS),
	[TW_OID_AGENT_CGROUPS_CUT_DEEP] = NUM("twAgentCgroupsCutDeep", TW_SMI_GAUGE32, "cgroups",
	    READ_CGROUPS),
	[TW_OID_AGENT_CGROUPS_CUT_MANY] = NUM("twAgentCgroupsCutMany", TW_SMI_GAUGE32, "cgroups",
	    READ_CGROUPS),
	[TW_OID_AGENT_REQLAT_STATE] = STR("twAgentReqLatState", struct tw_view_agent,
	    reqlat_state, READ),
	[TW_OID_AGENT_REQLAT_REASON] = STR("twAgentReqLatStateReason", struct tw_view_agent,
	    reqlat_reason, READ),
	[TW_OID_AGENT_REQLAT_LOST] = NUM("twAgentReqLatLost", TW_SMI_COUNTER64, "requests", READ),
};

static const struct tw_column bc_cols[] = {
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

static const struct tw_column pool_cols[] = {
	[TW_OID_DBLOCK_CLASS] = INDEX_ENUM("twDblockClass", TW_SMI_DBLOCK_CLASS),
	[TW_OID_DBLOCK_INSTANCE] = INDEX("twDblockInstance", 0),
	[TW_OID_DBLOCK_NAME] = STR("twDblockName", struct tw_view_pool, name, READ),
	[TW_OID_DBLOCK_SIZE] = NUM("twDblockSize", TW_SMI_UNSIGNED32, "bytes", READ),
	[TW_OID_DBLOCK_IN_USE] = NUM("twDblockInUse", TW_SMI_GAUGE32, NULL, READ),
	[TW_OID_DBLOCK_FREE] = NUM("twDblockFree", TW_SMI_GAUGE32, NULL, READ),
	[TW_OID_DBLOCK_LIMIT] = NUM("twDblockLimit", TW_SMI_GAUGE32, NULL, READ),
	[TW_OID_DBLOCK_FAILURES] = NUM("twDblockFailures", TW_SMI_COUNTER64, "failures", READ),
	[TW_OID_DBLOCK_RECENT_FAILURES] = NUM("twDblockRecentFailures", TW_SMI_GAUGE32,
	    "failures", READ),
	[TW_OID_DBLOCK_TUNABLE] = STR("twDblockTunable", struct tw_view_pool, tunable, READ),
	[TW_OID_DBLOCK_FAILURE_EVENT] = STR("twDblockFailureEvent", struct tw_view_pool, event,
	    READ),
	[TW_OID_DBLOCK_PRESSURE_TIME] = NUM("twDblockPressureTime", TW_SMI_COUNTER64,
	    "milliseconds", READ),
	[TW_OID_DBLOCK_RECENT_PRESSURE_TIME] = NUM("twDblockRecentPressureTime", TW_SMI_GAUGE32,
	    "milliseconds", READ),
};

static const struct tw_column disk_cols[] = {
	[TW_OID_DISK_MAJOR] = INDEX("twDiskMajor", 0),
	[TW_OID_DISK_MINOR] = INDEX("twDiskMinor", 0),
	[TW_OID_DISK_NAME] = STR("twDiskName", struct tw_view_disk, name, READ),
	[TW_OID_DISK_READS] = NUM("twDiskReads", TW_SMI_COUNTER64, "reads", SKIP),
	[TW_OID_DISK_WRITES] = NUM("twDiskWrites", TW_SMI_COUNTER64, "writes", SKIP),
	[TW_OID_DISK_READ_BYTES] = NUM("twDiskReadBytes", TW_SMI_COUNTER64, "bytes", SKIP),
	[TW_OID_DISK_WRITTEN_BYTES] = NUM("twDiskWrittenBytes", TW_SMI_COUNTER64, "bytes", SKIP),
	[TW_OID_DISK_READ_TIME] = NUM("twDiskReadTime", TW_SMI_COUNTER64, "milliseconds", SKIP),
	[TW_OID_DISK_WRITE_TIME] = NUM("twDiskWriteTime", TW_SMI_COUNTER64, "milliseconds", SKIP),
	[TW_OID_DISK_READ_OPS] = SCALED("twDiskReadOps", TW_SMI_HUNDREDTHS, "reads per second",
	    100, "reads/s", READ),
	[TW_OID_DISK_WRITE_OPS] = SCALED("twDiskWriteOps", TW_SMI_HUNDREDTHS, "writes per second",
	    100, "writes/s", READ),
	[TW_OID_DISK_READ_RATE] = NUM("twDiskReadRate", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes per second", READ),
	/* check_bufcache: the disk that took the writes (dirty limit). */
	[TW_OID_DISK_WRITE_RATE] = NUM("twDiskWriteRate", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes per second", READ),
	[TW_OID_DISK_READ_LATENCY] = SCALED("twDiskReadLatency", TW_SMI_UNSIGNED32,
	    "microseconds", 1000, "ms", READ),
	[TW_OID_DISK_WRITE_LATENCY] = SCALED("twDiskWriteLatency", TW_SMI_UNSIGNED32,
	    "microseconds", 1000, "ms", READ),
	[TW_OID_DISK_QUEUE_DEPTH] = SCALED("twDiskQueueDepth", TW_SMI_HUNDREDTHS, "requests", 100,
	    "requests", READ),
	[TW_OID_DISK_UTIL] = SCALED("twDiskUtil", TW_SMI_HUNDREDTHS, "percent", 100, "%", READ),
	[TW_OID_DISK_IN_FLIGHT] = NUM("twDiskInFlight", TW_SMI_GAUGE32, "requests", SKIP),
	[TW_OID_DISK_SCHEDULER] = STR("twDiskScheduler", struct tw_view_disk, scheduler, READ),
	[TW_OID_DISK_NR_REQUESTS] = NUM("twDiskNrRequests", TW_SMI_UNSIGNED32, "requests", READ),
	[TW_OID_DISK_READ_AHEAD_KB] = NUM("twDiskReadAheadKb", TW_SMI_UNSIGNED32, "kilobytes",
	    READ),
	/* In the sysfs file's own unit, as advice quotes it. */
	[TW_OID_DISK_WBT_LATENCY] = NUM("twDiskWbtLatency", TW_SMI_INTEGER32, "microseconds",
	    READ),
	[TW_OID_DISK_ROTATIONAL] = NUM("twDiskRotational", TW_SMI_TRUTH_VALUE, NULL, READ),
	/* The checks match --device against it and print it. */
	[TW_OID_DISK_ALIAS] = STR("twDiskAlias", struct tw_view_disk, alias, READ),
	[TW_OID_DISK_STABLE_ID] = STR("twDiskStableId", struct tw_view_disk, stable_id, SKIP),
	[TW_OID_DISK_TYPE] = STR("twDiskType", struct tw_view_disk, type, SKIP),
};

static const struct tw_column tunable_cols[] = {
	[TW_OID_TUNABLE_INDEX] = INDEX("twTunableIndex", 1),
	[TW_OID_TUNABLE_NAME] = STR("twTunableName", struct tw_view_tunable, name, READ),
	[TW_OID_TUNABLE_VALUE] = STR("twTunableValue", struct tw_view_tunable, value, READ),
};

/* The record of a change. The figure's unit differs from row
 * to row (failures/min, ms, pages/s, %), so the MIB gives no UNITS for
 * before and after: twChangeFigureUnit says. */
static const struct tw_column change_cols[] = {
	[TW_OID_CHANGE_INDEX] = INDEX("twChangeIndex", 1),
	[TW_OID_CHANGE_TUNABLE] = STR("twChangeTunable", struct tw_view_change, tunable, READ),
	[TW_OID_CHANGE_SUBJECT] = STR("twChangeSubject", struct tw_view_change, subject, READ),
	[TW_OID_CHANGE_OLD_VALUE] = STR("twChangeOldValue", struct tw_view_change, old_value,
	    READ),
	[TW_OID_CHANGE_NEW_VALUE] = STR("twChangeNewValue", struct tw_view_change, new_value,
	    READ),
	[TW_OID_CHANGE_TIME] = NUM("twChangeTime", TW_SMI_UNSIGNED32, "seconds", READ),
	[TW_OID_CHANGE_EVALUATED] = NUM("twChangeEvaluated", TW_SMI_TRUTH_VALUE, NULL, READ),
	[TW_OID_CHANGE_FIGURE] = STR("twChangeFigure", struct tw_view_change, figure, READ),
	[TW_OID_CHANGE_FIGURE_UNIT] = STR("twChangeFigureUnit", struct tw_view_change, unit, READ),
	[TW_OID_CHANGE_BEFORE] = SCALED("twChangeBefore", TW_SMI_HUNDREDTHS, NULL, 100, NULL, READ),
	[TW_OID_CHANGE_AFTER] = SCALED("twChangeAfter", TW_SMI_HUNDREDTHS, NULL, 100, NULL, READ),
};

/* ---- twSocketDropTable ---------------------------------------------------
 * A number whose range the MIB states. */
#define RANGED_UNITS(n, t, lo, hi, u, read) \
	{ .name = (n), .smi = (t), .access = TW_ACCESS_READ_ONLY, .ranged = 1, .min = (lo), \
	  .max = (hi), .units = (u), .scale = 1, .checks_read = (read) }

static const struct tw_column sock_cols[] = {
	[TW_OID_SOCKDROP_PROTOCOL] = { .name = "twSockDropProtocol", .smi = TW_SMI_UNSIGNED32,
	    .access = TW_ACCESS_NOT_ACCESSIBLE, .ranged = 1, .min = 1, .max = 4, .scale = 1 },
	[TW_OID_SOCKDROP_INODE] = INDEX("twSockDropInode", 0),
	[TW_OID_SOCKDROP_PROTOCOL_NAME] = STR("twSockDropProtocolName", struct tw_view_sock,
	    proto_name, READ),
	[TW_OID_SOCKDROP_LOCAL_ADDRESS] = STR("twSockDropLocalAddress", struct tw_view_sock,
	    address, READ),
	[TW_OID_SOCKDROP_LOCAL_PORT] = RANGED_UNITS("twSockDropLocalPort", TW_SMI_UNSIGNED32, 0,
	    65535, NULL, READ),
	[TW_OID_SOCKDROP_DROPS] = NUM("twSockDropDrops", TW_SMI_COUNTER64, "datagrams", SKIP),
	[TW_OID_SOCKDROP_RECENT_DROPS] = NUM("twSockDropRecentDrops", TW_SMI_GAUGE32, "datagrams",
	    READ),
	[TW_OID_SOCKDROP_RX_QUEUE] = NUM("twSockDropRxQueue", TW_SMI_GAUGE32, "bytes", SKIP),
	[TW_OID_SOCKDROP_OWNER_COMMAND] = STR("twSockDropOwnerCommand", struct tw_view_sock,
	    command, READ),
	[TW_OID_SOCKDROP_OWNER_PID] = NUM("twSockDropOwnerPid", TW_SMI_UNSIGNED32, NULL, READ),
	[TW_OID_SOCKDROP_OWNER_SEARCHES_CUT] = NUM("twSockDropOwnerSearchesCut",
	    TW_SMI_COUNTER64, "searches", SKIP),
	[TW_OID_SOCKDROP_RCVBUF] = NUM("twSockDropRcvbuf", TW_SMI_UNSIGNED32, "bytes", READ),
	[TW_OID_SOCKDROP_RMEM_ALLOC] = NUM("twSockDropRmemAlloc", TW_SMI_GAUGE32, "bytes", SKIP),
	[TW_OID_SOCKDROP_RMEM_MAX] = NUM("twSockDropRmemMax", TW_SMI_UNSIGNED32, "bytes", READ),
	[TW_OID_SOCKDROP_OWNER_SEARCH] = RANGED_UNITS("twSockDropOwnerSearch",
	    TW_SMI_ENUMERATION, TW_OWNER_UNKNOWN, TW_OWNER_CUT, NULL, READ),
};

/* twProbeTable: the active probe. Latencies in microseconds on the wire,
 * read by the checks in milliseconds. */
static const struct tw_column probe_cols[] = {
	[TW_OID_PROBE_MAJOR] = INDEX("twProbeMajor", 0),
	[TW_OID_PROBE_MINOR] = INDEX("twProbeMinor", 0),
	[TW_OID_PROBE_DEVICE] = STR("twProbeDevice", struct tw_view_probe, device, READ),
	[TW_OID_PROBE_STATE] = STR("twProbeState", struct tw_view_probe, state, READ),
	[TW_OID_PROBE_REASON] = STR("twProbeStateReason", struct tw_view_probe, reason, READ),
	[TW_OID_PROBE_RATE] = NUM("twProbeRate", TW_SMI_UNSIGNED32, "reads per second", READ),
	[TW_OID_PROBE_READ_SIZE] = NUM("twProbeReadSize", TW_SMI_UNSIGNED32, "bytes", SKIP),
	[TW_OID_PROBE_WINDOW] = NUM("twProbeWindow", TW_SMI_UNSIGNED32, "milliseconds", READ),
	[TW_OID_PROBE_COUNT] = NUM("twProbeCount", TW_SMI_GAUGE32, "reads", READ),
	[TW_OID_PROBE_MIN] = SCALED("twProbeMin", TW_SMI_UNSIGNED32, "microseconds", 1000,
	    "ms", READ),
	[TW_OID_PROBE_P50] = SCALED("twProbeP50", TW_SMI_UNSIGNED32, "microseconds", 1000,
	    "ms", READ),
	[TW_OID_PROBE_P90] = SCALED("twProbeP90", TW_SMI_UNSIGNED32, "microseconds", 1000,
	    "ms", READ),
	[TW_OID_PROBE_P99] = SCALED("twProbeP99", TW_SMI_UNSIGNED32, "microseconds", 1000,
	    "ms", READ),
	[TW_OID_PROBE_MAX] = SCALED("twProbeMax", TW_SMI_UNSIGNED32, "microseconds", 1000,
	    "ms", READ),
	[TW_OID_PROBE_MEAN] = SCALED("twProbeMean", TW_SMI_UNSIGNED32, "microseconds", 1000,
	    "ms", READ),
	[TW_OID_PROBE_TIMEOUTS] = NUM("twProbeTimeouts", TW_SMI_GAUGE32, "reads", READ),
	[TW_OID_PROBE_MISSED] = NUM("twProbeMissed", TW_SMI_GAUGE32, "slots", READ),
	[TW_OID_PROBE_ERRORS] = NUM("twProbeErrors", TW_SMI_GAUGE32, "reads", READ),
};

/* twReqLatTable and twReqHistTable: the distribution of every request.
 * Latencies in microseconds on the wire, read by the checks in
 * milliseconds, as the probe's. The direction is an index of its own
 * enumeration. */
#define DIRECTION(n) \
	{ .name = (n), .smi = TW_SMI_ENUMERATION, .access = TW_ACCESS_NOT_ACCESSIBLE, \
	  .ranged = 1, .min = TW_REQLAT_DIR_READ, .max = TW_REQLAT_DIR_WRITE, .scale = 1 }
#define MICROS(n, read) \
	SCALED((n), TW_SMI_UNSIGNED32, "microseconds", 1000, "ms", (read))

static const struct tw_column reqlat_cols[] = {
	[TW_OID_REQLAT_MAJOR] = INDEX("twReqLatMajor", 0),
	[TW_OID_REQLAT_MINOR] = INDEX("twReqLatMinor", 0),
	[TW_OID_REQLAT_DIRECTION] = DIRECTION("twReqLatDirection"),
	[TW_OID_REQLAT_DEVICE] = STR("twReqLatDevice", struct tw_view_reqlat, device, READ),
	[TW_OID_REQLAT_WINDOW] = NUM("twReqLatWindow", TW_SMI_UNSIGNED32, "milliseconds", READ),
	[TW_OID_REQLAT_COUNT] = NUM("twReqLatCount", TW_SMI_GAUGE32, "requests", READ),
	[TW_OID_REQLAT_P50] = MICROS("twReqLatP50", READ),
	[TW_OID_REQLAT_P90] = MICROS("twReqLatP90", READ),
	[TW_OID_REQLAT_P99] = MICROS("twReqLatP99", READ),
	[TW_OID_REQLAT_MAX] = MICROS("twReqLatMax", READ),
	[TW_OID_REQLAT_MEAN] = MICROS("twReqLatMean", READ),
	[TW_OID_REQLAT_QUEUED] = NUM("twReqLatQueued", TW_SMI_GAUGE32, "requests", READ),
	[TW_OID_REQLAT_QUEUE_P50] = MICROS("twReqLatQueueP50", READ),
	[TW_OID_REQLAT_QUEUE_P90] = MICROS("twReqLatQueueP90", SKIP),
	[TW_OID_REQLAT_QUEUE_P99] = MICROS("twReqLatQueueP99", READ),
	[TW_OID_REQLAT_QUEUE_MAX] = MICROS("twReqLatQueueMax", SKIP),
	[TW_OID_REQLAT_TOTAL] = NUM("twReqLatTotal", TW_SMI_COUNTER64, "requests", SKIP),
};

/* For Prometheus: no check reads it. */
static const struct tw_column reqhist_cols[] = {
	[TW_OID_REQHIST_MAJOR] = INDEX("twReqHistMajor", 0),
	[TW_OID_REQHIST_MINOR] = INDEX("twReqHistMinor", 0),
	[TW_OID_REQHIST_DIRECTION] = DIRECTION("twReqHistDirection"),
	[TW_OID_REQHIST_BOUND] = INDEX("twReqHistBound", 0),
	[TW_OID_REQHIST_COUNT] = NUM("twReqHistCount", TW_SMI_GAUGE32, "requests", SKIP),
};

/* ---- Findings: twFindings scalars, and twFindingTable one
 * level below them. */
static const struct tw_column findsum_cols[] = {
	[TW_OID_FINDING_COUNT] = NUM("twFindingCount", TW_SMI_GAUGE32, "findings", SKIP),
	[TW_OID_FINDING_LAST_CHANGE] = NUM("twFindingLastChange", TW_SMI_UNSIGNED32, "seconds",
	    SKIP),
	[TW_OID_FINDING_CAPACITY] = NUM("twFindingCapacity", TW_SMI_UNSIGNED32, "findings", SKIP),
	[TW_OID_FINDING_OVERFLOWS] = NUM("twFindingOverflows", TW_SMI_COUNTER64, "observations",
	    SKIP),
	[TW_OID_FINDING_SUPPRESSED] = NUM("twFindingNotificationsSuppressed", TW_SMI_COUNTER64,
	    "notifications", SKIP),
	[TW_OID_FINDING_RAISE_AFTER] = NUM("twFindingRaiseAfter", TW_SMI_UNSIGNED32, "samples",
	    SKIP),
	[TW_OID_FINDING_CLEAR_AFTER] = NUM("twFindingClearAfter", TW_SMI_UNSIGNED32, "samples",
	    SKIP),
	/* twFindings.8 is twFindingTable, a group of its own. */
	[TW_OID_FINDING_DROPPED] = NUM("twFindingNotificationsDropped", TW_SMI_COUNTER64,
	    "notifications", SKIP),
	[TW_OID_FINDING_SENT] = NUM("twFindingNotificationsSent", TW_SMI_COUNTER64,
	    "notifications", SKIP),
	[TW_OID_FINDING_LIMIT] = { .name = "twFindingNotificationLimit",
	    .smi = TW_SMI_UNSIGNED32, .access = TW_ACCESS_READ_ONLY, .ranged = 1, .min = 1,
	    .max = TW_RATELIMIT_CEILING, .units = "notifications per minute", .scale = 1 },
};

static const struct tw_column finding_cols[] = {
	[TW_OID_FINDING_INDEX] = INDEX("twFindingIndex", 1),
	[TW_OID_FINDING_ID] = STR("twFindingId", struct tw_view_finding, id, SKIP),
	[TW_OID_FINDING_SYMPTOM] = STR("twFindingSymptom", struct tw_view_finding, symptom, SKIP),
	[TW_OID_FINDING_SUBJECT] = STR("twFindingSubject", struct tw_view_finding, subject, SKIP),
	[TW_OID_FINDING_SEVERITY] = NUM("twFindingSeverity", TW_SMI_FINDING_SEVERITY, NULL, SKIP),
	[TW_OID_FINDING_EVIDENCE] = STR("twFindingEvidence", struct tw_view_finding, evidence,
	    SKIP),
	[TW_OID_FINDING_TUNABLE] = STR("twFindingTunable", struct tw_view_finding, tunable, SKIP),
	[TW_OID_FINDING_CURRENT] = STR("twFindingCurrentValue", struct tw_view_finding, current,
	    SKIP),
	[TW_OID_FINDING_SUGGESTED] = STR("twFindingSuggestedValue", struct tw_view_finding,
	    suggested, SKIP),
	[TW_OID_FINDING_APPLY] = STR("twFindingApply", struct tw_view_finding, apply, SKIP),
	[TW_OID_FINDING_PERSIST] = STR("twFindingPersist", struct tw_view_finding, persist, SKIP),
	[TW_OID_FINDING_DOCUMENTATION] = STR("twFindingDocumentation", struct tw_view_finding,
	    documentation, SKIP),
	[TW_OID_FINDING_RAISED] = NUM("twFindingRaisedTime", TW_SMI_UNSIGNED32, "seconds", SKIP),
	[TW_OID_FINDING_CHANGED] = NUM("twFindingChangedTime", TW_SMI_UNSIGNED32, "seconds",
	    SKIP),
	[TW_OID_FINDING_OWNER] = STR("twFindingOwner", struct tw_view_finding, owner, SKIP),
};

/* check_bufcache --cgroup reads what it judges and prints; the counters
 * behind the rates are for NMSs. */
static const struct tw_column cgroup_cols[] = {
	[TW_OID_CGROUP_INDEX] = INDEX("twCgroupIndex", 1),
	[TW_OID_CGROUP_PATH] = STR("twCgroupPath", struct tw_view_cgroup, path, READ),
	[TW_OID_CGROUP_UNIT] = STR("twCgroupUnit", struct tw_view_cgroup, unit, READ),
	[TW_OID_CGROUP_VERSION] = RANGED("twCgroupVersion", TW_SMI_UNSIGNED32, 1, 2, READ),
	[TW_OID_CGROUP_CACHE_BYTES] = NUM("twCgroupCacheBytes", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes", READ),
	[TW_OID_CGROUP_MEMORY_USAGE] = NUM("twCgroupMemoryUsage", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes", READ),
	[TW_OID_CGROUP_MEMORY_LIMIT] = NUM("twCgroupMemoryLimit", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes", READ),
	[TW_OID_CGROUP_LIMIT_NAME] = STR("twCgroupLimitName", struct tw_view_cgroup, limit_name,
	    READ),
	[TW_OID_CGROUP_REFAULTS] = NUM("twCgroupRefaults", TW_SMI_COUNTER64, "pages", SKIP),
	[TW_OID_CGROUP_REFAULT_RATE] = SCALED("twCgroupRefaultRate", TW_SMI_HUNDREDTHS,
	    "pages per second", 100, "pages/s", READ),
	[TW_OID_CGROUP_LIMIT_EVENTS] = NUM("twCgroupLimitEvents", TW_SMI_COUNTER64, "events",
	    SKIP),
	[TW_OID_CGROUP_LIMIT_EVENT_RATE] = SCALED("twCgroupLimitEventRate", TW_SMI_HUNDREDTHS,
	    "events per second", 100, "events/s", READ),
	[TW_OID_CGROUP_MEMORY_PRESSURE] = PERCENT("twCgroupMemoryPressure"),
	[TW_OID_CGROUP_IO_PRESSURE] = PERCENT("twCgroupIoPressure"),
	[TW_OID_CGROUP_READ_BYTES] = NUM("twCgroupReadBytes", TW_SMI_COUNTER64, "bytes", SKIP),
	[TW_OID_CGROUP_WRITTEN_BYTES] = NUM("twCgroupWrittenBytes", TW_SMI_COUNTER64, "bytes",
	    SKIP),
	[TW_OID_CGROUP_READ_RATE] = NUM("twCgroupReadRate", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes per second", READ),
	[TW_OID_CGROUP_WRITE_RATE] = NUM("twCgroupWriteRate", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes per second", READ),
	/* The checks tell the owner from the path themselves (as tunewatchd
	 * does: collect/cgroupowner.h); these are for an NMS. */
	[TW_OID_CGROUP_OWNER_KIND] = RANGED_UNITS("twCgroupOwnerKind", TW_SMI_ENUMERATION,
	    TW_CG_OWNER_SYSTEM_UNIT, TW_CG_OWNER_CGROUP, NULL, SKIP),
	[TW_OID_CGROUP_OWNER_UID] = NUM("twCgroupOwnerUid", TW_SMI_UNSIGNED32, NULL, SKIP),
};

#define NCOLS(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

/* Tunable rows have every column: no `has`. */
const struct tw_column_group tw_column_groups[] = {
	{ TW_OID_AGENT, "twAgent", NULL, 0, agent_cols, NCOLS(agent_cols), 1,
	    offsetof(struct tw_view_agent, has), offsetof(struct tw_view_agent, col) },
	{ TW_OID_BUFCACHE, "twBufferCache", NULL, 0, bc_cols, NCOLS(bc_cols), 1,
	    offsetof(struct tw_view_bufcache, has), offsetof(struct tw_view_bufcache, col) },
	{ TW_OID_DBLOCK_TABLE, "twDblockTable", "twDblockEntry", 2, pool_cols, NCOLS(pool_cols),
	    TW_OID_DBLOCK_NAME, offsetof(struct tw_view_pool, has),
	    offsetof(struct tw_view_pool, col) },
	{ TW_OID_DISK_TABLE, "twDiskTable", "twDiskEntry", 2, disk_cols, NCOLS(disk_cols),
	    TW_OID_DISK_NAME, offsetof(struct tw_view_disk, has),
	    offsetof(struct tw_view_disk, col) },
	{ TW_OID_TUNABLE_TABLE, "twTunableTable", "twTunableEntry", 1, tunable_cols,
	    NCOLS(tunable_cols), TW_OID_TUNABLE_NAME, SIZE_MAX, SIZE_MAX },
	{ TW_OID_FINDINGS, "twFindings", NULL, 0, findsum_cols, NCOLS(findsum_cols), 1,
	    offsetof(struct tw_view_findsum, has), offsetof(struct tw_view_findsum, col) },
	{ TW_OID_CHANGE_TABLE, "twChangeTable", "twChangeEntry", 1, change_cols,
	    NCOLS(change_cols), TW_OID_CHANGE_TUNABLE, offsetof(struct tw_view_change, has),
	    offsetof(struct tw_view_change, col) },
	{ TW_OID_PROBE_TABLE, "twProbeTable", "twProbeEntry", 2, probe_cols, NCOLS(probe_cols),
	    TW_OID_PROBE_DEVICE, offsetof(struct tw_view_probe, has),
	    offsetof(struct tw_view_probe, col) },
	{ TW_OID_CGROUP_TABLE, "twCgroupTable", "twCgroupEntry", 1, cgroup_cols,
	    NCOLS(cgroup_cols), TW_OID_CGROUP_PATH, offsetof(struct tw_view_cgroup, has),
	    offsetof(struct tw_view_cgroup, col) },
	{ TW_OID_SOCKDROP_TABLE, "twSocketDropTable", "twSocketDropEntry", 2, sock_cols,
	    NCOLS(sock_cols), TW_OID_SOCKDROP_PROTOCOL_NAME, offsetof(struct tw_view_sock, has),
	    offsetof(struct tw_view_sock, col) },
	{ TW_OID_REQLAT_TABLE, "twReqLatTable", "twReqLatEntry", 3, reqlat_cols,
	    NCOLS(reqlat_cols), TW_OID_REQLAT_DEVICE, offsetof(struct tw_view_reqlat, has),
	    offsetof(struct tw_view_reqlat, col) },
	{ TW_OID_REQHIST_TABLE, "twReqHistTable", "twReqHistEntry", 4, reqhist_cols,
	    NCOLS(reqhist_cols), TW_OID_REQHIST_COUNT, offsetof(struct tw_view_reqhist, has),
	    offsetof(struct tw_view_reqhist, col) },
};

const struct tw_column_subgroup tw_column_subgroups[] = {
	{ TW_OID_FINDING_TABLE, { TW_OID_FINDINGS, "twFindingTable", "twFindingEntry", 1,
	    finding_cols, NCOLS(finding_cols), TW_OID_FINDING_ID,
	    offsetof(struct tw_view_finding, has), offsetof(struct tw_view_finding, col) } },
};

const size_t tw_column_nsubgroups = sizeof(tw_column_subgroups) /
    sizeof(tw_column_subgroups[0]);

const size_t tw_column_ngroups = sizeof(tw_column_groups) / sizeof(tw_column_groups[0]);

/* The view keeps each row's numbers in an array of the group's width and
 * says which it has in one 32-bit word. */
_Static_assert(NCOLS(agent_cols) == TW_VIEW_AGENT_COLS, "twAgent and the view disagree");
_Static_assert(NCOLS(bc_cols) == TW_VIEW_BC_COLS, "twBufferCache and the view disagree");
_Static_assert(NCOLS(pool_cols) == TW_VIEW_POOL_COLS, "twDblockEntry and the view disagree");
_Static_assert(NCOLS(disk_cols) == TW_VIEW_DISK_COLS, "twDiskEntry and the view disagree");
_Static_assert(NCOLS(change_cols) == TW_VIEW_CHANGE_COLS, "twChangeEntry and the view disagree");
_Static_assert(NCOLS(sock_cols) == TW_VIEW_SOCK_COLS, "twSocketDropEntry and the view disagree");
_Static_assert(NCOLS(probe_cols) == TW_VIEW_PROBE_COLS, "twProbeEntry and the view disagree");
_Static_assert(TW_VIEW_PROBE_COLS <= 32, "has is 32 bits");
_Static_assert(NCOLS(cgroup_cols) == TW_VIEW_CGROUP_COLS, "twCgroupEntry and the view disagree");
_Static_assert(TW_VIEW_CGROUP_COLS <= 32, "has is 32 bits");
_Static_assert(TW_VIEW_DISK_COLS <= 32 && TW_VIEW_BC_COLS <= 32, "has is 32 bits");
_Static_assert(NCOLS(reqlat_cols) == TW_VIEW_REQLAT_COLS, "twReqLatEntry and the view disagree");
_Static_assert(NCOLS(reqhist_cols) == TW_VIEW_REQHIST_COLS,
    "twReqHistEntry and the view disagree");
_Static_assert(TW_VIEW_REQLAT_COLS <= 32 && TW_VIEW_AGENT_COLS <= 32, "has is 32 bits");
_Static_assert(NCOLS(findsum_cols) == TW_VIEW_FINDSUM_COLS, "twFindings and the view disagree");
_Static_assert(NCOLS(finding_cols) == TW_VIEW_FINDING_COLS,
    "twFindingEntry and the view disagree");

/* ---- Lookups ------------------------------------------------------------ */

/* The groups are in twObjects' order, the first ones at their number
 * less one: the view's builder and the agent look one up for every cell,
 * so by position first; groups past a gap in the numbers are searched. */
const struct tw_column_group *
tw_column_group(uint32_t id)
{
	size_t i;

	if (id >= 1 && id <= tw_column_ngroups && tw_column_groups[id - 1].id == id)
		return &tw_column_groups[id - 1];
	for (i = 0; i < tw_column_ngroups; i++)
		if (tw_column_groups[i].id == id)
			return &tw_column_groups[i];
	return NULL;
}

const struct tw_column_group *
tw_column_subgroup(uint32_t id, uint32_t sub)
{
	size_t i;

	for (i = 0; i < tw_column_nsubgroups; i++)
		if (tw_column_subgroups[i].group.id == id && tw_column_subgroups[i].sub == sub)
			return &tw_column_subgroups[i].group;
	return NULL;
}

const struct tw_column *
tw_column(uint32_t group, unsigned col)
{
	const struct tw_column_group *g = tw_column_group(group);

	if (g == NULL || col >= g->ncols || g->cols[col].name == NULL)
		return NULL;
	return &g->cols[col];
}

/* ---- Types ---------------------------------------------------------------- */

static const struct {
	const char *name;
	enum tw_ber_type ber;
} smi_types[] = {
	[TW_SMI_DISPLAY_STRING] = { "DisplayString", TW_BER_OCTET_STRING },
	[TW_SMI_UNSIGNED32] = { "Unsigned32", TW_BER_GAUGE32 },
	[TW_SMI_GAUGE32] = { "Gauge32", TW_BER_GAUGE32 },
	[TW_SMI_INTEGER32] = { "Integer32", TW_BER_INTEGER },
	[TW_SMI_TRUTH_VALUE] = { "TruthValue", TW_BER_INTEGER },
	[TW_SMI_COUNTER64] = { "Counter64", TW_BER_COUNTER64 },
	[TW_SMI_COUNTER_BASED_GAUGE64] = { "CounterBasedGauge64", TW_BER_COUNTER64 },
	[TW_SMI_HUNDREDTHS] = { "TwHundredths", TW_BER_GAUGE32 },
	[TW_SMI_DBLOCK_CLASS] = { "TwDblockClassType", TW_BER_INTEGER },
	[TW_SMI_FINDING_SEVERITY] = { "TwSeverityType", TW_BER_INTEGER },
	[TW_SMI_ENUMERATION] = { "INTEGER", TW_BER_INTEGER },
};

const char *
tw_smi_name(enum tw_smi smi)
{
	return smi_types[smi].name;
}

enum tw_ber_type
tw_column_ber(const struct tw_column *c)
{
	return smi_types[c->smi].ber;
}

/* Tags the MIB never uses are named too: they are what a foreign agent
 * may send. */
const char *
tw_ber_name(enum tw_ber_type type)
{
	switch ((int)type) {
	case TW_BER_INTEGER:
		return "INTEGER";
	case TW_BER_OCTET_STRING:
		return "OCTET STRING";
	case 0x05:
		return "NULL";
	case 0x06:
		return "OBJECT IDENTIFIER";
	case 0x40:
		return "IpAddress";
	case 0x41:
		return "Counter32";
	case TW_BER_GAUGE32:
		return "Gauge32";
	case 0x43:
		return "TimeTicks";
	case 0x44:
		return "Opaque";
	case TW_BER_COUNTER64:
		return "Counter64";
	}
	return NULL;
}

void
tw_column_range(const struct tw_column *c, int64_t *min, uint64_t *max)
{
	*min = c->min;
	*max = c->max;
}
