/* SPDX-License-Identifier: ISC */
/* The column table's entries for twChangeTable, the record of each change of a
 * published tunable. */
#include "config.h"

#include "view/columns_rows.h"

/* The record of a change. The figure's unit differs from row
 * to row (failures/min, ms, pages/s, %), so the MIB gives no UNITS for
 * before and after: twChangeFigureUnit says. */
const struct tw_column tw_columns_change[] = {
	[TW_OID_CHANGE_INDEX] = INDEX("twChangeIndex", 1),
	[TW_OID_CHANGE_TUNABLE] = STR("twChangeTunable", struct tw_view_change, tunable, READ,
	    TEXT(struct tw_change_record, tunable)),
	[TW_OID_CHANGE_SUBJECT] = STR("twChangeSubject", struct tw_view_change, subject, READ,
	    TEXT(struct tw_change_record, subject)),
	[TW_OID_CHANGE_OLD_VALUE] = STR("twChangeOldValue", struct tw_view_change, old_value,
	    READ, TEXT(struct tw_change_record, old_value)),
	[TW_OID_CHANGE_NEW_VALUE] = STR("twChangeNewValue", struct tw_view_change, new_value,
	    READ, TEXT(struct tw_change_record, new_value)),
	[TW_OID_CHANGE_TIME] = NUM("twChangeTime", TW_SMI_UNSIGNED32, "seconds", READ,
	    REAL(struct tw_change_record, time_s)),
	[TW_OID_CHANGE_EVALUATED] = NUM("twChangeEvaluated", TW_SMI_TRUTH_VALUE, NULL, READ,
	    TRUTH(struct tw_change_record, evaluated)),
	[TW_OID_CHANGE_FIGURE] = STR("twChangeFigure", struct tw_view_change, figure, READ,
	    TEXT(struct tw_change_record, figure)),
	[TW_OID_CHANGE_FIGURE_UNIT] = STR("twChangeFigureUnit", struct tw_view_change, unit, READ,
	    TEXT(struct tw_change_record, unit)),
	[TW_OID_CHANGE_BEFORE] = SCALED("twChangeBefore", TW_SMI_HUNDREDTHS, NULL, 100, NULL, READ,
	    REAL(struct tw_change_record, before)),
	[TW_OID_CHANGE_AFTER] = SCALED("twChangeAfter", TW_SMI_HUNDREDTHS, NULL, 100, NULL, READ,
	    REAL(struct tw_change_record, after)),
	[TW_OID_CHANGE_FINDING_ID] = STR("twChangeFindingId", struct tw_view_change, finding_id,
	    READ, TEXT(struct tw_change_record, finding_id)),
};

_Static_assert(NCOLS(tw_columns_change) == TW_VIEW_CHANGE_COLS,
    "twChangeEntry and the view disagree");
