/* SPDX-License-Identifier: ISC */
/* A change of a published tunable (a row of twChangeTable), in natural
 * units. A figure the source did not give is TW_FIG_NONE (figures/fig.h),
 * an integer -1, a string NULL. Strings point into the row the record was
 * made from. */
#ifndef TW_FIGURES_CHANGE_RECORD_H
#define TW_FIGURES_CHANGE_RECORD_H

#include <stdint.h>

#include "figures/fig.h"

struct tw_change_record {
	uint32_t index;			/* counts down: newest first */
	const char *tunable;
	const char *subject;		/* "host", or the device or pool */
	const char *old_value;
	const char *new_value;
	double time_s;			/* when, in seconds since the epoch */
	int evaluated;			/* 1 once the window after it closed, else 0 */
	const char *figure;		/* the figure that watches it */
	const char *unit;		/* the figure's */
	double before;			/* the figure, in unit */
	double after;
	const char *finding_id;		/* the finding it answers, or NULL */
};

/* Every figure absent. */
static inline void
tw_change_record_init(struct tw_change_record *f)
{
	*f = (struct tw_change_record){
		.time_s = TW_FIG_NONE, .evaluated = -1, .before = TW_FIG_NONE,
		.after = TW_FIG_NONE,
	};
}

#endif
