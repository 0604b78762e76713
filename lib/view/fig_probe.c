/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_probe.h"

#include "view/figrow.h"

void
tw_view_probe_figures(const struct tw_view_probe *pr, struct tw_probe_fig *f)
{
	tw_figrow_decode(tw_column_group(TW_OID_PROBE_TABLE), pr, f);
	f->major = pr->major;
	f->minor = pr->minor;
}
