/* SPDX-License-Identifier: ISC */
/* tunewatchd's record (figures/agent_record.h) from the view's twAgent scalars:
 * the one place their cells are decoded. */
#ifndef TW_VIEW_RECORD_AGENT_H
#define TW_VIEW_RECORD_AGENT_H

#include "figures/agent_record.h"

struct tw_view_agent;

/* Fill f from a; its strings point into a. */
void tw_view_agent_record(const struct tw_view_agent *a, struct tw_agent_record *f);

/* The seconds a's window figures really cover, as every "in the last N s"
 * of a finding, a tune line and a check's status says them: the window's
 * span (twAgentWindowSpan) to the nearest second, at least 1. Not the
 * configured window: until it fills, and when samples come late, the span
 * is what the figures cover, and tunewatchd and the checks, which read it
 * from the same view, then say the same. */
unsigned tw_view_window_s(const struct tw_view_agent *a);

#endif
