/* SPDX-License-Identifier: ISC */
/* What a check prints, and its exit code: the output is always whole.
 *
 * Everything goes out in one write, after the timeout is disarmed, so a
 * late alarm cannot add a second line; the alarm itself prints a line
 * formatted beforehand, since a signal handler may not format. */
#ifndef TW_PLUGIN_REPORT_H
#define TW_PLUGIN_REPORT_H

#include <stddef.h>

#include "checkio/output.h"

struct tw_check;
struct tw_plugin;

/* After p->timeout_s, print "SERVICE STATE - plugin timed out ..." and
 * exit with p->timeout_result. */
void tw_plugin_arm_timeout(const struct tw_check *chk, const struct tw_plugin *p);

/* Disarm the timeout, print len bytes of text; returns code. */
int tw_plugin_finish(const char *text, size_t len, int code);

/* One line, "SERVICE UNKNOWN - message"; returns the exit code. */
int tw_plugin_unknown(const struct tw_check *chk, const char *fmt, ...) TW_PRINTF(2, 3);

/* A failure to get the figures (rc): UNKNOWN, but an agent that did not
 * answer in time (TW_E_TIMEOUT) gets --timeout-result, as a plugin that
 * timed out would. Returns the exit code. */
int tw_plugin_fetch_failed(const struct tw_check *chk, const struct tw_plugin *p, int rc,
    const char *fmt, ...) TW_PRINTF(4, 5);

/* A number for a summary or long output line, locale-independent. */
const char *tw_plugin_num(char *buf, size_t len, double v, unsigned precision);

#endif
