/* SPDX-License-Identifier: ISC */
/* The column table's entries for twDiskTable, one row per disk, and
 * twTunableTable, its tunables. */
#include "config.h"

#include "view/columns_rows.h"

const struct tw_column tw_columns_disk[] = {
	[TW_OID_DISK_MAJOR] = INDEX("twDiskMajor", 0),
	[TW_OID_DISK_MINOR] = INDEX("twDiskMinor", 0),
	[TW_OID_DISK_NAME] = STR("twDiskName", struct tw_view_disk, name, READ,
	    NAME(struct tw_disk_record, name)),
	[TW_OID_DISK_READS] = NUM("twDiskReads", TW_SMI_COUNTER64, "reads", SKIP,
	    COUNT(struct tw_disk_record, reads)),
	[TW_OID_DISK_WRITES] = NUM("twDiskWrites", TW_SMI_COUNTER64, "writes", SKIP,
	    COUNT(struct tw_disk_record, writes)),
	[TW_OID_DISK_READ_BYTES] = NUM("twDiskReadBytes", TW_SMI_COUNTER64, "bytes", SKIP,
	    COUNT(struct tw_disk_record, read_bytes)),
	[TW_OID_DISK_WRITTEN_BYTES] = NUM("twDiskWrittenBytes", TW_SMI_COUNTER64, "bytes", SKIP,
	    COUNT(struct tw_disk_record, written_bytes)),
	[TW_OID_DISK_READ_TIME] = NUM("twDiskReadTime", TW_SMI_COUNTER64, "milliseconds", SKIP,
	    COUNT(struct tw_disk_record, read_time_ms)),
	[TW_OID_DISK_WRITE_TIME] = NUM("twDiskWriteTime", TW_SMI_COUNTER64, "milliseconds", SKIP,
	    COUNT(struct tw_disk_record, write_time_ms)),
	[TW_OID_DISK_READ_OPS] = SCALED("twDiskReadOps", TW_SMI_HUNDREDTHS, "reads per second",
	    100, "reads/s", READ, REAL(struct tw_disk_record, read_ops_s)),
	[TW_OID_DISK_WRITE_OPS] = SCALED("twDiskWriteOps", TW_SMI_HUNDREDTHS, "writes per second",
	    100, "writes/s", READ, REAL(struct tw_disk_record, write_ops_s)),
	[TW_OID_DISK_READ_RATE] = NUM("twDiskReadRate", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes per second", READ, REAL(struct tw_disk_record, read_bytes_s)),
	/* check_bufcache: the disk that took the writes (dirty limit). */
	[TW_OID_DISK_WRITE_RATE] = NUM("twDiskWriteRate", TW_SMI_COUNTER_BASED_GAUGE64,
	    "bytes per second", READ, REAL(struct tw_disk_record, write_bytes_s)),
	[TW_OID_DISK_READ_LATENCY] = SCALED("twDiskReadLatency", TW_SMI_UNSIGNED32,
	    "microseconds", 1000, "ms", READ, REAL(struct tw_disk_record, r_await_ms)),
	[TW_OID_DISK_WRITE_LATENCY] = SCALED("twDiskWriteLatency", TW_SMI_UNSIGNED32,
	    "microseconds", 1000, "ms", READ, REAL(struct tw_disk_record, w_await_ms)),
	[TW_OID_DISK_QUEUE_DEPTH] = SCALED("twDiskQueueDepth", TW_SMI_HUNDREDTHS, "requests", 100,
	    "requests", READ, REAL(struct tw_disk_record, queue_depth)),
	[TW_OID_DISK_UTIL] = SCALED("twDiskUtil", TW_SMI_HUNDREDTHS, "percent", 100, "%", READ,
	    REAL(struct tw_disk_record, util_pct)),
	[TW_OID_DISK_IN_FLIGHT] = NUM("twDiskInFlight", TW_SMI_GAUGE32, "requests", SKIP,
	    COUNT(struct tw_disk_record, in_flight)),
	[TW_OID_DISK_SCHEDULER] = STR("twDiskScheduler", struct tw_view_disk, scheduler, READ,
	    TEXT(struct tw_disk_record, scheduler)),
	[TW_OID_DISK_NR_REQUESTS] = NUM("twDiskNrRequests", TW_SMI_UNSIGNED32, "requests", READ,
	    INT(struct tw_disk_record, nr_requests)),
	[TW_OID_DISK_READ_AHEAD_KB] = NUM("twDiskReadAheadKb", TW_SMI_UNSIGNED32, "kilobytes",
	    READ, INT(struct tw_disk_record, read_ahead_kb)),
	/* In the sysfs file's own unit, as advice quotes it. */
	[TW_OID_DISK_WBT_LATENCY] = NUM("twDiskWbtLatency", TW_SMI_INTEGER32, "microseconds",
	    READ, REAL(struct tw_disk_record, wbt_lat_us)),
	[TW_OID_DISK_ROTATIONAL] = NUM("twDiskRotational", TW_SMI_TRUTH_VALUE, NULL, READ,
	    TRUTH(struct tw_disk_record, rotational)),
	/* The checks match --device against it and print it. */
	[TW_OID_DISK_ALIAS] = STR("twDiskAlias", struct tw_view_disk, alias, READ,
	    TEXT(struct tw_disk_record, alias)),
	/* The checks hash it into a disk's finding ids, as tunewatchd does
	 * (tw_ticket_subject_disk): fetched, or the two ids differ. */
	[TW_OID_DISK_STABLE_ID] = STR("twDiskStableId", struct tw_view_disk, stable_id, READ,
	    TEXT(struct tw_disk_record, stable_id)),
	[TW_OID_DISK_TYPE] = STR("twDiskType", struct tw_view_disk, type, SKIP,
	    TEXT(struct tw_disk_record, type)),
};

const struct tw_column tw_columns_tunable[] = {
	[TW_OID_TUNABLE_INDEX] = INDEX("twTunableIndex", 1),
	[TW_OID_TUNABLE_NAME] = STR("twTunableName", struct tw_view_tunable, name, READ, NO_FIG),
	[TW_OID_TUNABLE_VALUE] = STR("twTunableValue", struct tw_view_tunable, value, READ, NO_FIG),
};

_Static_assert(NCOLS(tw_columns_disk) == TW_VIEW_DISK_COLS, "twDiskEntry and the view disagree");
_Static_assert(NCOLS(tw_columns_tunable) == TW_OID_TUNABLE_VALUE + 1,
    "twTunableEntry and the view disagree");
