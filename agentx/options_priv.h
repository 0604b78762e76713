/* SPDX-License-Identifier: ISC */
/* What tunewatchd's command line (options.c) and its tunewatchd.conf
 * (options_conf.c) share. Private to agentx. */
#ifndef TW_AGENTX_OPTIONS_PRIV_H
#define TW_AGENTX_OPTIONS_PRIV_H

#include "options.h"

/* What the command line set, so the configuration file does not override
 * it. */
struct tw_options_cmdline {
	int proc_root, sys_root, interval, window, user;
};
extern struct tw_options_cmdline tw_options_from_cmdline;

/* Seconds from 1 to 86400: 0, or -1 for anything else. */
int tw_options_parse_seconds(const char *text, unsigned *out);

/* Free *dst and put a copy of src there. */
void tw_options_replace(char **dst, const char *src);

#endif
