/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_cache.h"

#include "view/figrow.h"

void
tw_view_cache_figures(const struct tw_view_bufcache *bc, struct tw_cache_fig *f)
{
	tw_figrow_decode(tw_column_group(TW_OID_BUFCACHE), bc, f);
}
