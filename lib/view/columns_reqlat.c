/* SPDX-License-Identifier: ISC */
/* The column table's entries for twReqLatTable and twReqHistTable, the latency of
 * every request. */
#include "config.h"

#include "view/columns_rows.h"

/* twReqLatTable and twReqHistTable: the distribution of every request.
 * Latencies in microseconds on the wire, read by the checks in
 * milliseconds, as the probe's. The direction is an index of its own
 * enumeration. */
#define DIRECTION(n) \
	{ .name = (n), .smi = TW_SMI_ENUMERATION, .access = TW_ACCESS_NOT_ACCESSIBLE, \
	  .ranged = 1, .min = TW_REQLAT_DIR_READ, .max = TW_REQLAT_DIR_WRITE, .scale = 1 }
#define MICROS(n, read, fig) \
	{ .name = (n), .smi = TW_SMI_UNSIGNED32, .access = TW_ACCESS_READ_ONLY, \
	  .min = TYPE_MIN(TW_SMI_UNSIGNED32), .max = TYPE_MAX(TW_SMI_UNSIGNED32), \
	  .units = "microseconds", .scale = 1000, .unit = "ms", .checks_read = (read), fig }

const struct tw_column tw_columns_reqlat[] = {
	[TW_OID_REQLAT_MAJOR] = INDEX("twReqLatMajor", 0),
	[TW_OID_REQLAT_MINOR] = INDEX("twReqLatMinor", 0),
	[TW_OID_REQLAT_DIRECTION] = DIRECTION("twReqLatDirection"),
	[TW_OID_REQLAT_DEVICE] = STR("twReqLatDevice", struct tw_view_reqlat, device, READ,
	    NAME(struct tw_reqlat_record, device)),
	[TW_OID_REQLAT_WINDOW] = NUM("twReqLatWindow", TW_SMI_UNSIGNED32, "milliseconds", READ,
	    REAL(struct tw_reqlat_record, window_ms)),
	[TW_OID_REQLAT_COUNT] = NUM("twReqLatCount", TW_SMI_GAUGE32, "requests", READ,
	    REAL(struct tw_reqlat_record, requests)),
	[TW_OID_REQLAT_P50] = MICROS("twReqLatP50", READ, REAL(struct tw_reqlat_record, p50_ms)),
	[TW_OID_REQLAT_P90] = MICROS("twReqLatP90", READ, REAL(struct tw_reqlat_record, p90_ms)),
	[TW_OID_REQLAT_P99] = MICROS("twReqLatP99", READ, REAL(struct tw_reqlat_record, p99_ms)),
	[TW_OID_REQLAT_MAX] = MICROS("twReqLatMax", READ, REAL(struct tw_reqlat_record, max_ms)),
	[TW_OID_REQLAT_MEAN] = MICROS("twReqLatMean", READ, REAL(struct tw_reqlat_record, mean_ms)),
	[TW_OID_REQLAT_QUEUED] = NUM("twReqLatQueued", TW_SMI_GAUGE32, "requests", READ,
	    REAL(struct tw_reqlat_record, queued)),
	[TW_OID_REQLAT_QUEUE_P50] = MICROS("twReqLatQueueP50", READ,
	    REAL(struct tw_reqlat_record, queue_p50_ms)),
	[TW_OID_REQLAT_QUEUE_P90] = MICROS("twReqLatQueueP90", SKIP,
	    REAL(struct tw_reqlat_record, queue_p90_ms)),
	[TW_OID_REQLAT_QUEUE_P99] = MICROS("twReqLatQueueP99", READ,
	    REAL(struct tw_reqlat_record, queue_p99_ms)),
	[TW_OID_REQLAT_QUEUE_MAX] = MICROS("twReqLatQueueMax", SKIP,
	    REAL(struct tw_reqlat_record, queue_max_ms)),
	[TW_OID_REQLAT_TOTAL] = NUM("twReqLatTotal", TW_SMI_COUNTER64, "requests", SKIP,
	    REAL(struct tw_reqlat_record, total)),
};

/* For Prometheus: no check reads it. */
const struct tw_column tw_columns_reqhist[] = {
	[TW_OID_REQHIST_MAJOR] = INDEX("twReqHistMajor", 0),
	[TW_OID_REQHIST_MINOR] = INDEX("twReqHistMinor", 0),
	[TW_OID_REQHIST_DIRECTION] = DIRECTION("twReqHistDirection"),
	[TW_OID_REQHIST_BOUND] = INDEX("twReqHistBound", 0),
	[TW_OID_REQHIST_COUNT] = NUM("twReqHistCount", TW_SMI_GAUGE32, "requests", SKIP, NO_FIG),
};

_Static_assert(NCOLS(tw_columns_reqlat) == TW_VIEW_REQLAT_COLS,
    "twReqLatEntry and the view disagree");
_Static_assert(NCOLS(tw_columns_reqhist) == TW_VIEW_REQHIST_COLS,
    "twReqHistEntry and the view disagree");
