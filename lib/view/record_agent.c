/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/record_agent.h"

#include "view/recordrow.h"

void
tw_view_agent_record(const struct tw_view_agent *a, struct tw_agent_record *f)
{
	tw_recordrow_decode(tw_column_group(TW_OID_AGENT), a, f);
}

unsigned
tw_view_window_s(const struct tw_view_agent *a)
{
	struct tw_agent_record f;
	unsigned s;

	tw_view_agent_record(a, &f);
	s = tw_fig_has(f.window_span_ms) ? (unsigned)((f.window_span_ms + 500) / 1000) : 0;
	return s > 0 ? s : 1;
}
