/* SPDX-License-Identifier: ISC */
/* --local: the figures from this host's /proc and /sys (or --proc-root and
 * --sys-root), for NRPE and the Icinga agent: two samples --delay seconds
 * apart, through the same monitor tunewatchd uses, so they are computed as
 * tunewatchd computes them. */
#ifndef TW_PLUGIN_LOCAL_H
#define TW_PLUGIN_LOCAL_H

#include <stddef.h>

#include "monitor/monitor.h"

struct tw_plugin;

/* Open a monitor into *mp and take the two samples; its view is then the
 * figures. Returns TW_OK, or an error code with one line in err; *mp is
 * the caller's to close in either case (NULL when none could be had). */
int tw_plugin_local_view(const struct tw_plugin *p, struct tw_monitor **mp, char *err,
    size_t errlen);

#endif
