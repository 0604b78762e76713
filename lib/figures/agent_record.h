/* SPDX-License-Identifier: ISC */
/* tunewatchd's own figures (the twAgent scalars), each in its natural
 * unit. A figure the agent did not give is TW_FIG_NONE (figures/fig.h), a
 * string NULL. Strings point into the row the record was made from. */
#ifndef TW_FIGURES_AGENT_RECORD_H
#define TW_FIGURES_AGENT_RECORD_H

#include "figures/fig.h"

struct tw_agent_record {
	const char *version;
	const char *system;		/* "Linux 6.1.0-18-amd64" */
	double interval_s;		/* between samples */
	double window_s;		/* the window configured */
	double sample_age_ms;
	double malformed_lines;
	double window_samples;		/* the samples the window holds */
	double window_span_ms;		/* the time they really cover */
	double samples;
	double unprintable_names;
	double cgroups_walked;		/* by the last walk */
	double cgroups_unpublished;	/* past cgroupMax, or idle */
	double cgroups_cut_long;	/* path too long */
	double cgroups_cut_deep;	/* too deep */
	double cgroups_cut_many;	/* past the walk's bound */
	const char *reqlat_state;	/* "timing", or why not */
	const char *reqlat_reason;
	double reqlat_lost;		/* requests */
};

/* Every figure absent. */
static inline void
tw_agent_record_init(struct tw_agent_record *f)
{
	*f = (struct tw_agent_record){
		.interval_s = TW_FIG_NONE, .window_s = TW_FIG_NONE, .sample_age_ms = TW_FIG_NONE,
		.malformed_lines = TW_FIG_NONE, .window_samples = TW_FIG_NONE,
		.window_span_ms = TW_FIG_NONE, .samples = TW_FIG_NONE,
		.unprintable_names = TW_FIG_NONE, .cgroups_walked = TW_FIG_NONE,
		.cgroups_unpublished = TW_FIG_NONE, .cgroups_cut_long = TW_FIG_NONE,
		.cgroups_cut_deep = TW_FIG_NONE, .cgroups_cut_many = TW_FIG_NONE,
		.reqlat_lost = TW_FIG_NONE,
	};
}

#endif
