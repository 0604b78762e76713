/* SPDX-License-Identifier: ISC */
/* Typed figures: NAN marks a figure the source did not give, and
 * TW_FIG_NO_COUNT a count (a uint64_t, kept exact) it did not give. */
#ifndef TW_FIG_H
#define TW_FIG_H

#include <math.h>
#include <stdint.h>

#define TW_FIG_NONE NAN
#define TW_FIG_NO_COUNT UINT64_MAX

static inline int tw_fig_has(double x) { return !isnan(x); }

/* A figure, or 0 where it is absent: what the advice's figures and the
 * checks' long output take for a figure the source did not give. */
static inline double tw_fig_or0(double x) { return tw_fig_has(x) ? x : 0.0; }

#endif
