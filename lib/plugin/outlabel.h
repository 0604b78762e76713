/* SPDX-License-Identifier: ISC */
/* Two subjects, one label (plugin/outlabel.c): perfdata labels that two
 * subjects share get a suffix of their subject's. Private to lib/plugin,
 * for plugin/output.c. */
#ifndef TW_PLUGIN_OUTLABEL_H
#define TW_PLUGIN_OUTLABEL_H

#include <stdint.h>

#include "plugin/output.h"

/* A subject's hash, kept with each item's label. */
uint32_t tw_out_subject_hash(const char *s);

/* Give every label that two subjects share its subject's suffix. */
int tw_out_tell_subjects_apart(struct tw_out *o);

#endif
