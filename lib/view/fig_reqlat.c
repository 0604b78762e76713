/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_reqlat.h"

#include "view/figrow.h"

void
tw_view_reqlat_figures(const struct tw_view_reqlat *r, struct tw_reqlat_fig *f)
{
	tw_figrow_decode(tw_column_group(TW_OID_REQLAT_TABLE), r, f);
	f->major = r->major;
	f->minor = r->minor;
	f->dir = r->dir;
}
