/* SPDX-License-Identifier: ISC */
/* The column table's entries for twFindings, the scalars of the findings, and
 * twFindingTable below them. */
#include "config.h"

#include "view/columns_rows.h"

#include "util/ratelimit.h"

const struct tw_column tw_columns_findsum[] = {
	[TW_OID_FINDING_COUNT] = NUM("twFindingCount", TW_SMI_GAUGE32, "findings", SKIP, NO_FIG),
	[TW_OID_FINDING_LAST_CHANGE] = NUM("twFindingLastChange", TW_SMI_UNSIGNED32, "seconds",
	    SKIP, NO_FIG),
	[TW_OID_FINDING_CAPACITY] = NUM("twFindingCapacity", TW_SMI_UNSIGNED32, "findings", SKIP,
	    NO_FIG),
	[TW_OID_FINDING_OVERFLOWS] = NUM("twFindingOverflows", TW_SMI_COUNTER64, "observations",
	    SKIP, NO_FIG),
	[TW_OID_FINDING_SUPPRESSED] = NUM("twFindingNotificationsSuppressed", TW_SMI_COUNTER64,
	    "notifications", SKIP, NO_FIG),
	[TW_OID_FINDING_RAISE_AFTER] = NUM("twFindingRaiseAfter", TW_SMI_UNSIGNED32, "samples",
	    SKIP, NO_FIG),
	[TW_OID_FINDING_CLEAR_AFTER] = NUM("twFindingClearAfter", TW_SMI_UNSIGNED32, "samples",
	    SKIP, NO_FIG),
	/* twFindings.8 is twFindingTable, a group of its own. */
	[TW_OID_FINDING_DROPPED] = NUM("twFindingNotificationsDropped", TW_SMI_COUNTER64,
	    "notifications", SKIP, NO_FIG),
	[TW_OID_FINDING_SENT] = NUM("twFindingNotificationsSent", TW_SMI_COUNTER64,
	    "notifications", SKIP, NO_FIG),
	[TW_OID_FINDING_LIMIT] = { .name = "twFindingNotificationLimit",
	    .smi = TW_SMI_UNSIGNED32, .access = TW_ACCESS_READ_ONLY, .ranged = 1, .min = 1,
	    .max = TW_RATELIMIT_CEILING, .units = "notifications per minute", .scale = 1 },
};

const struct tw_column tw_columns_finding[] = {
	[TW_OID_FINDING_INDEX] = INDEX("twFindingIndex", 1),
	[TW_OID_FINDING_ID] = STR("twFindingId", struct tw_view_finding, id, SKIP, NO_FIG),
	[TW_OID_FINDING_SYMPTOM] = STR("twFindingSymptom", struct tw_view_finding, symptom, SKIP,
	    NO_FIG),
	[TW_OID_FINDING_SUBJECT] = STR("twFindingSubject", struct tw_view_finding, subject, SKIP,
	    NO_FIG),
	[TW_OID_FINDING_SEVERITY] = NUM("twFindingSeverity", TW_SMI_FINDING_SEVERITY, NULL, SKIP,
	    NO_FIG),
	[TW_OID_FINDING_EVIDENCE] = STR("twFindingEvidence", struct tw_view_finding, evidence,
	    SKIP, NO_FIG),
	[TW_OID_FINDING_TUNABLE] = STR("twFindingTunable", struct tw_view_finding, tunable, SKIP,
	    NO_FIG),
	[TW_OID_FINDING_CURRENT] = STR("twFindingCurrentValue", struct tw_view_finding, current,
	    SKIP, NO_FIG),
	[TW_OID_FINDING_SUGGESTED] = STR("twFindingSuggestedValue", struct tw_view_finding,
	    suggested, SKIP, NO_FIG),
	[TW_OID_FINDING_APPLY] = STR("twFindingApply", struct tw_view_finding, apply, SKIP, NO_FIG),
	[TW_OID_FINDING_PERSIST] = STR("twFindingPersist", struct tw_view_finding, persist, SKIP,
	    NO_FIG),
	[TW_OID_FINDING_DOCUMENTATION] = STR("twFindingDocumentation", struct tw_view_finding,
	    documentation, SKIP, NO_FIG),
	[TW_OID_FINDING_RAISED] = NUM("twFindingRaisedTime", TW_SMI_UNSIGNED32, "seconds", SKIP,
	    NO_FIG),
	[TW_OID_FINDING_CHANGED] = NUM("twFindingChangedTime", TW_SMI_UNSIGNED32, "seconds",
	    SKIP, NO_FIG),
	[TW_OID_FINDING_OWNER] = STR("twFindingOwner", struct tw_view_finding, owner, SKIP, NO_FIG),
	[TW_OID_FINDING_CLASS] = { .name = "twFindingClass", .smi = TW_SMI_ENUMERATION,
	    .access = TW_ACCESS_READ_ONLY, .ranged = 1, .min = TW_FINDING_CLASS_HOST,
	    .max = TW_FINDING_CLASS_USER, .scale = 1 },
	[TW_OID_FINDING_OWNER_UID] = NUM("twFindingOwnerUid", TW_SMI_UNSIGNED32, NULL, SKIP,
	    NO_FIG),
};

_Static_assert(NCOLS(tw_columns_findsum) == TW_VIEW_FINDSUM_COLS,
    "twFindings and the view disagree");
_Static_assert(NCOLS(tw_columns_finding) == TW_VIEW_FINDING_COLS,
    "twFindingEntry and the view disagree");
