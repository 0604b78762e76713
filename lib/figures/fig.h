/* SPDX-License-Identifier: ISC */
/* Typed figures: NAN marks a figure the source did not give. */
#ifndef TW_FIG_H
#define TW_FIG_H

#include <math.h>

#define TW_FIG_NONE NAN

static inline int tw_fig_has(double x) { return !isnan(x); }

/* A figure, or 0 where it is absent: what the advice's figures and the
 * checks' long output take for a figure the source did not give. */
static inline double tw_fig_or0(double x) { return tw_fig_has(x) ? x : 0.0; }

#endif
