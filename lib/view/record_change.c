/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/record_change.h"

#include "view/recordrow.h"
#include "view/view.h"

void
tw_view_change_record(const struct tw_view_change *c, struct tw_change_record *f)
{
	tw_recordrow_decode(tw_column_group(TW_OID_CHANGE_TABLE), c, f);
	f->index = c->index;
}
