/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_agent.h"

#include "view/figrow.h"

void
tw_view_agent_figures(const struct tw_view_agent *a, struct tw_agent_fig *f)
{
	tw_figrow_decode(tw_column_group(TW_OID_AGENT), a, f);
}
