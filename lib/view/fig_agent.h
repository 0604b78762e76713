/* SPDX-License-Identifier: ISC */
/* tunewatchd's record (figures/agent_record.h) from the view's twAgent scalars:
 * the one place their cells are decoded. */
#ifndef TW_VIEW_FIG_AGENT_H
#define TW_VIEW_FIG_AGENT_H

#include "figures/agent_record.h"

struct tw_view_agent;

/* Fill f from a; its strings point into a. */
void tw_view_agent_figures(const struct tw_view_agent *a, struct tw_agent_fig *f);

#endif
