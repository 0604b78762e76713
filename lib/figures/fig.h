/* SPDX-License-Identifier: ISC */
/* A figure that was not measured is NAN, so absence needs no flag beside it. */
#ifndef TW_FIG_H
#define TW_FIG_H

#include <math.h>

#define TW_FIG_NONE NAN

static inline int tw_fig_has(double x) { return !isnan(x); }

#endif
