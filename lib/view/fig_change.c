/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_change.h"

#include "view/figrow.h"
#include "view/view.h"

void
tw_view_change_figures(const struct tw_view_change *c, struct tw_change_fig *f)
{
	tw_figrow_decode(tw_column_group(TW_OID_CHANGE_TABLE), c, f);
	f->index = c->index;
}
