/* SPDX-License-Identifier: ISC */
/* Typed figures: NAN marks a figure the source did not give. */
#ifndef TW_FIG_H
#define TW_FIG_H

#include <math.h>

#define TW_FIG_NONE NAN

static inline int tw_fig_has(double x) { return !isnan(x); }

#endif
