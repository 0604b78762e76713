/* SPDX-License-Identifier: ISC */
/* A probed device's record (figures/probe_record.h) from the probe set's row. A
 * percentile the window has too few reads for is absent (probe/histogram.h
 * says how many each needs), and so are min, max and mean without reads:
 * never a made-up zero. */
#ifndef TW_DERIVE_PROBE_H
#define TW_DERIVE_PROBE_H

#include "figures/probe_record.h"
#include "probe/probeset.h"

/* f's strings point into row and static text. */
void tw_derive_probe(const struct tw_probe_row *row, struct tw_probe_record *f);

#endif
