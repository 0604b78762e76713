/* SPDX-License-Identifier: ISC */
/* A threshold: a range (threshold/range.h) and whether it was set at all.
 *
 * An unset threshold never alerts and prints an empty perfdata field, which
 * is not the same as any range ("~:" never alerts either, but prints). Every
 * -w, -c and --*-warning/--*-critical option of the checks is one. */
#ifndef TW_THRESHOLD_H
#define TW_THRESHOLD_H

#include "threshold/range.h"
#include "threshold/state.h"

struct tw_threshold {
	struct tw_range range;
	int set;
};

/* Parse text into t and mark it set. Returns TW_OK, or TW_E_INVAL (see
 * tw_range_parse()) and t is left as it was. */
int tw_threshold_parse(struct tw_threshold *t, const char *text);

/* The range, or NULL when t is NULL or unset: what tw_range_state() and
 * struct tw_perf take. */
const struct tw_range *tw_threshold_range(const struct tw_threshold *t);

/* The state of v against a warning and a critical threshold, as
 * tw_range_state() with the unset ones left out. */
enum tw_state tw_threshold_state(double v, const struct tw_threshold *warn,
    const struct tw_threshold *crit);

#endif
