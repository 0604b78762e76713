/* SPDX-License-Identifier: ISC */
/* twChangeTable's rows: the change history's entries (lib/change/),
 * newest first, projected into the MIB's numbers. */
#include "config.h"

#include "view/build_priv.h"

#include "view/recordrow.h"

void
tw_view_build_change_row(const struct tw_change_record *c, struct tw_view_change *r)
{
	memset(r, 0, sizeof(*r));
	r->index = c->index;
	tw_recordrow_project(tw_vb_group(TW_OID_CHANGE_TABLE), c, r);
}

void
tw_view_build_changes(struct tw_view *v, const struct tw_change_record *changes, size_t n)
{
	size_t i;

	if (n > TW_VIEW_CHANGES)
		n = TW_VIEW_CHANGES;
	for (i = 0; i < n; i++)
		tw_view_build_change_row(&changes[i], &v->changes[i]);
	v->nchanges = n;
}

/* A figure of a twChangeTable row in its natural unit (the row's
 * twChangeFigureUnit); 0 when the row does not have it. */
