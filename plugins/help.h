/* SPDX-License-Identifier: ISC */
/* --help and --version, in the same shape for every check: usage, the
 * options in a fixed order, the check's own, notes and examples. */
#ifndef TW_PLUGIN_HELP_H
#define TW_PLUGIN_HELP_H

struct tw_check;

void tw_plugin_print_version(const struct tw_check *chk);
void tw_plugin_print_help(const struct tw_check *chk);

#endif
