/* SPDX-License-Identifier: ISC */
/* A cgroup's figures (a row of twCgroupTable), each in its natural unit.
 * A figure the source did not give is TW_FIG_NONE (figures/fig.h), an
 * integer -1, a string NULL; but path, the row's identity, is never NULL
 * ("" when the source gave none), since every reader names the cgroup by
 * it. Strings point into the row the record was made from. */
#ifndef TW_FIGURES_CGROUP_H
#define TW_FIGURES_CGROUP_H

#include <stdint.h>

#include "figures/fig.h"

struct tw_cgroup_fig {
	uint32_t index;			/* the row's twCgroupIndex */
	const char *path;		/* shown; "" when none */
	const char *unit;		/* the unit the agent named, or NULL */
	int64_t version;		/* 1 or 2 */
	double cache_bytes;
	double memory_usage_bytes;
	double memory_limit_bytes;	/* the limit that bounds the cache */
	const char *limit_name;		/* "memory.high"; NULL when none is named */
	double refaults_s;
	double limit_events_s;
	double memory_pressure_pct;	/* v2 only */
	double io_pressure_pct;
	double read_bytes_s;
	double write_bytes_s;
};

#endif
