/* SPDX-License-Identifier: ISC */
/* What the three checks share: options, the Monitoring Plugins output
 * contract, the timeout, and getting a view (over SNMP from tunewatchd, or
 * with --local from this host's /proc).
 *
 * A check is a table of its own options, a --help paragraph and a run()
 * that turns a view into a state and output. Everything else, including
 * every UNKNOWN for a reason that is not the check's (no answer, no
 * tunewatchd, a window still filling, a bad argument), is here, so the
 * three checks behave alike:
 *
 *   check.h     a check's table and the settings its run is given
 *   plugin.c    the run of a check, from argv to exit code
 *   cmdline.c   the command line; help.c  --help and --version
 *   report.c    what is printed, whole, and the timeout
 *   local.c     --local: figures sampled on this host
 *   tunables.c  the agent's tunable table, read when advice first needs it
 *   advise.c    the "tune:" lines
 *   changes.c   the "change:" lines */
#ifndef TW_PLUGIN_H
#define TW_PLUGIN_H

#include "check.h"
#include "snmpsource.h"

/* Run the check and return the exit code. */
int tw_plugin_main(const struct tw_check *chk, int argc, char **argv);

#endif
