/* SPDX-License-Identifier: ISC */
/* A cgroup's figures (a row of twCgroupTable), each in its natural unit.
 * A figure the source did not give is TW_FIG_NONE (figures/fig.h), an
 * integer -1, a string NULL; but path, the row's identity, is never NULL
 * ("" when the source gave none), since every reader names the cgroup by
 * it. Strings point into the row the record was made from. */
#ifndef TW_FIGURES_CGROUP_RECORD_H
#define TW_FIGURES_CGROUP_RECORD_H

#include <stdint.h>

#include "figures/fig.h"

struct tw_cgroup_record {
	uint32_t index;			/* the row's twCgroupIndex */
	const char *path;		/* shown; "" when none */
	const char *unit;		/* the unit the agent named, or NULL */
	int64_t version;		/* 1 or 2 */
	double cache_bytes;
	double memory_usage_bytes;
	double memory_limit_bytes;	/* the limit that bounds the cache */
	const char *limit_name;		/* "memory.high"; NULL when none is named */
	uint64_t refaults;		/* pages, since the cgroup was seen */
	double refaults_s;
	uint64_t limit_events;
	double limit_events_s;
	double memory_pressure_pct;	/* v2 only */
	double io_pressure_pct;
	uint64_t read_bytes, written_bytes;
	double read_bytes_s;
	double write_bytes_s;
	int64_t owner_kind;		/* enum tw_cg_owner_kind */
	int64_t owner_uid;		/* a user's unit's user; a plain cgroup's owner */
	double fileset_bytes;		/* the file set it reads (collect/cgfiles.h) */
	double anon_growth_kib;		/* its memory besides the page cache, how
					 * much it rose over the window (the sum
					 * of its rises) */
	double anon_fall_kib;		/* and how much it fell (of its falls) */
};

/* Every figure absent; path "". */
static inline void
tw_cgroup_record_init(struct tw_cgroup_record *f)
{
	*f = (struct tw_cgroup_record){
		.path = "", .version = -1, .cache_bytes = TW_FIG_NONE,
		.memory_usage_bytes = TW_FIG_NONE, .memory_limit_bytes = TW_FIG_NONE,
		.refaults = TW_FIG_NO_COUNT, .refaults_s = TW_FIG_NONE,
		.limit_events = TW_FIG_NO_COUNT, .limit_events_s = TW_FIG_NONE,
		.memory_pressure_pct = TW_FIG_NONE, .io_pressure_pct = TW_FIG_NONE,
		.read_bytes = TW_FIG_NO_COUNT, .written_bytes = TW_FIG_NO_COUNT,
		.read_bytes_s = TW_FIG_NONE, .write_bytes_s = TW_FIG_NONE, .owner_kind = -1,
		.owner_uid = -1, .fileset_bytes = TW_FIG_NONE, .anon_growth_kib = TW_FIG_NONE,
		.anon_fall_kib = TW_FIG_NONE,
	};
}

#endif
