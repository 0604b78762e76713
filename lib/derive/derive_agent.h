/* SPDX-License-Identifier: ISC */
/* tunewatchd's own record (figures/agent_record.h): what it was told, what its
 * window holds, and what the last walk of the cgroups left out. The
 * request-latency source's state and the count of names shown escaped
 * are the view's to add (view/build.c). */
#ifndef TW_DERIVE_AGENT_H
#define TW_DERIVE_AGENT_H

#include "figures/agent_record.h"
#include "sample/sample.h"
#include "window/window.h"

struct tw_agent_told {
	const char *version;
	const char *system;	/* "Linux 6.1.0-18-amd64" */
	unsigned interval_s;
	unsigned window_s;
};

/* f's strings point into told. */
void tw_derive_agent(const struct tw_agent_told *told, const struct tw_window *w,
    const struct tw_sample *s, struct tw_agent_record *f);

#endif
