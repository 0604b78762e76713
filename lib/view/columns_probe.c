/* SPDX-License-Identifier: ISC */
/* The column table's entries for twProbeTable, one row per probed device. */
#include "config.h"

#include "view/columns_rows.h"

/* twProbeTable: the active probe. Latencies in microseconds on the wire,
 * read by the checks in milliseconds. */
const struct tw_column tw_columns_probe[] = {
	[TW_OID_PROBE_MAJOR] = INDEX("twProbeMajor", 0),
	[TW_OID_PROBE_MINOR] = INDEX("twProbeMinor", 0),
	[TW_OID_PROBE_DEVICE] = STR("twProbeDevice", struct tw_view_probe, device, READ,
	    NAME(struct tw_probe_record, device)),
	[TW_OID_PROBE_STATE] = STR("twProbeState", struct tw_view_probe, state, READ,
	    NAME(struct tw_probe_record, state)),
	[TW_OID_PROBE_REASON] = STR("twProbeStateReason", struct tw_view_probe, reason, READ,
	    NAME(struct tw_probe_record, reason)),
	[TW_OID_PROBE_RATE] = NUM("twProbeRate", TW_SMI_UNSIGNED32, "reads per second", READ,
	    REAL(struct tw_probe_record, rate_reads_s)),
	[TW_OID_PROBE_READ_SIZE] = NUM("twProbeReadSize", TW_SMI_UNSIGNED32, "bytes", SKIP,
	    REAL(struct tw_probe_record, read_size_bytes)),
	[TW_OID_PROBE_WINDOW] = NUM("twProbeWindow", TW_SMI_UNSIGNED32, "milliseconds", READ,
	    REAL(struct tw_probe_record, window_ms)),
	[TW_OID_PROBE_COUNT] = NUM("twProbeCount", TW_SMI_GAUGE32, "reads", READ,
	    REAL(struct tw_probe_record, reads)),
	[TW_OID_PROBE_MIN] = SCALED("twProbeMin", TW_SMI_UNSIGNED32, "microseconds", 1000,
	    "ms", READ, REAL(struct tw_probe_record, min_ms)),
	[TW_OID_PROBE_P50] = SCALED("twProbeP50", TW_SMI_UNSIGNED32, "microseconds", 1000,
	    "ms", READ, REAL(struct tw_probe_record, p50_ms)),
	[TW_OID_PROBE_P90] = SCALED("twProbeP90", TW_SMI_UNSIGNED32, "microseconds", 1000,
	    "ms", READ, REAL(struct tw_probe_record, p90_ms)),
	[TW_OID_PROBE_P99] = SCALED("twProbeP99", TW_SMI_UNSIGNED32, "microseconds", 1000,
	    "ms", READ, REAL(struct tw_probe_record, p99_ms)),
	[TW_OID_PROBE_MAX] = SCALED("twProbeMax", TW_SMI_UNSIGNED32, "microseconds", 1000,
	    "ms", READ, REAL(struct tw_probe_record, max_ms)),
	[TW_OID_PROBE_MEAN] = SCALED("twProbeMean", TW_SMI_UNSIGNED32, "microseconds", 1000,
	    "ms", READ, REAL(struct tw_probe_record, mean_ms)),
	[TW_OID_PROBE_TIMEOUTS] = NUM("twProbeTimeouts", TW_SMI_GAUGE32, "reads", READ,
	    REAL(struct tw_probe_record, timeouts)),
	[TW_OID_PROBE_MISSED] = NUM("twProbeMissed", TW_SMI_GAUGE32, "slots", READ,
	    REAL(struct tw_probe_record, missed)),
	[TW_OID_PROBE_ERRORS] = NUM("twProbeErrors", TW_SMI_GAUGE32, "reads", READ,
	    REAL(struct tw_probe_record, errors)),
};

_Static_assert(NCOLS(tw_columns_probe) == TW_VIEW_PROBE_COLS,
    "twProbeEntry and the view disagree");
