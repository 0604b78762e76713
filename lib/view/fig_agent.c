/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_agent.h"

#include "view/figrow.h"

void
tw_view_agent_figures(const struct tw_view_agent *a, struct tw_agent_fig *f)
{
	tw_figrow_decode(tw_column_group(TW_OID_AGENT), a, f);
}

unsigned
tw_view_window_s(const struct tw_view_agent *a)
{
	struct tw_agent_fig f;
	unsigned s;

	tw_view_agent_figures(a, &f);
	s = tw_fig_has(f.window_span_ms) ? (unsigned)((f.window_span_ms + 500) / 1000) : 0;
	return s > 0 ? s : 1;
}
