/* SPDX-License-Identifier: ISC */
/* A twProbeTable row of the view decoded into its record. */
#ifndef TW_VIEW_RECORD_PROBE_H
#define TW_VIEW_RECORD_PROBE_H

#include "figures/probe_record.h"
#include "view/view.h"

/* Decode pr into f through the column table; f's strings point into pr. */
void tw_view_probe_record(const struct tw_view_probe *pr, struct tw_probe_record *f);

#endif
