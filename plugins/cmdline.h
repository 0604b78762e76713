/* SPDX-License-Identifier: ISC */
/* The command line every check shares (SNMP target, -w/-c, --local, -t,
 * -v ...) and the helpers a check's own options use. --extra-opts has
 * been expanded into argv before any of this sees it. */
#ifndef TW_PLUGIN_CMDLINE_H
#define TW_PLUGIN_CMDLINE_H

#include <stddef.h>

#include "threshold/threshold.h"
#include "util/namefilter.h"

struct tw_check;
struct tw_plugin;

/* Every setting at its default, chk's -w and -c included. */
void tw_plugin_defaults(const struct tw_check *chk, struct tw_plugin *p);

/* Parse argv into p, the check's own options through chk->option. Returns
 * 0, or -1 with one line in err. -h and -V print and exit UNKNOWN, as the
 * guidelines want. */
int tw_plugin_parse_args(const struct tw_check *chk, struct tw_plugin *p, int argc,
    char **argv, char *err, size_t errlen);

/* Set a threshold from an option's range; -1 with a message in err. */
int tw_plugin_threshold(const char *opt, const char *arg, struct tw_threshold *t, char *err,
    size_t errlen);

/* Set one side of a name filter from a regular-expression option; -1 with a
 * message in err. */
int tw_plugin_filter(const char *opt, const char *arg, struct tw_namefilter *f,
    enum tw_namefilter_side side, char *err, size_t errlen);

#endif
