/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/columns.h"
#include "view/view.h"

/* A figure of a twChangeTable row in its natural unit (the row's
 * twChangeFigureUnit); 0 when the row does not have it. */
double
tw_view_change_num(const struct tw_view_change *c, unsigned col)
{
	const struct tw_column *tc = tw_column(TW_OID_CHANGE_TABLE, col);

	if (tc == NULL || !(c->has & TW_VIEW_BIT(col)))
		return 0.0;
	return tw_column_decode(tc, c->col[col]);
}
