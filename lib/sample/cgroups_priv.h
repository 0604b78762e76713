/* SPDX-License-Identifier: ISC */
/* What the cgroup sampler keeps between samples, shared by its two
 * halves: cgroups.c (opening, closing and a sample of the published) and
 * cgroups_rescan.c (the walk that chooses what is published). Private to
 * lib/sample. */
#ifndef TW_SAMPLE_CGROUPS_PRIV_H
#define TW_SAMPLE_CGROUPS_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "collect/cgroupread.h"
#include "sample/cgroups.h"

/* What is remembered of a cgroup between samples. */
struct known {
	char *path;		/* an allocation of its own: up to PATH_MAX */
	char unit[TW_CG_UNIT_LEN];	/* of a published one, found at the rescan */
	enum tw_cg_owner_kind owner;	/* the same */
	uint32_t owner_uid;
	uint64_t ino;
	uint32_t index;
	uint64_t io;		/* bytes read and written, at the last rescan */
	int io_seen;		/* io is io.stat's figure, not a want of one */
	uint64_t score;		/* of those, since the rescan before */
	uint64_t refaults;	/* memory.stat's, at the last rescan */
	uint64_t events;	/* memory.events' high + max (v2), then */
	int mem_seen;		/* refaults is memory.stat's figure */
	uint64_t refault_score;	/* refaults since the rescan before */
	uint64_t event_score;	/* limit events since then */
	uint64_t high, max;	/* its limits at the last rescan */
	uint32_t limits;	/* TW_CG_BIT of those it has */
	unsigned limits_read;	/* TW_CG_READ_HIGH, _MAX: which of them were read */
	int qualifies;
	int published;
	unsigned turn;		/* the sample (modulo SLOW_EVERY) it reads SLOW in */
	int slow_read;		/* SLOW read since the rescan; then held below */
	uint32_t slow_present;
	uint64_t slow_v[TW_CG_NFIELDS];
	struct tw_cg_keep keep;	/* open while published, up to KEEP_MAX */
	int anon_seen;		/* its memory besides the cache was read */
	uint64_t anon, anon_up, anon_down;	/* then, and the sums of its rises
						 * and falls */
};

struct published {
	uint32_t index;
	size_t at;		/* in known[] */
};

/* Published cgroups whose files are kept open: the default cgroupMax's
 * 16 take 9 descriptors each; past this (cgroupMax up to 4096) the rest
 * are read by path, so that a large cgroupMax cannot run tunewatchd out
 * of descriptors (1024 by default). */
#define KEEP_MAX 64

struct tw_cgroups {
	enum tw_cg_version ver;
	struct known *known;	/* sorted by path */
	size_t nknown, known_cap;
	struct known *next;	/* built by a rescan, then swapped in */
	size_t nnext, next_cap;
	/* The published, in index order, the order of a sample's rows: made
	 * at a rescan, so that a sample neither looks at every known cgroup
	 * nor sorts its rows. */
	struct published *pub;
	size_t npub;
	uint32_t last_index;
	size_t max_rows;
	unsigned rescan, countdown;
	unsigned tick;		/* samples taken, for the SLOW files' turns */
	uint32_t qualified;
	struct tw_cg_cuts cuts;
	size_t walked;
	int nomem;
	int proc_fd;		/* file sets measured through it; -1: none */
	/* A rescan's scratch. */
	int sys_fd;
	struct tw_buf *scratch;
	struct tw_parse_stats *ps;
	struct tw_cgroup cg;
};

/* Free the paths of n entries of k. */
void tw_cgroups_free_paths(struct known *k, size_t n);
/* Close what the published cgroups keep open. */
void tw_cgroups_close_kept(struct tw_cgroups *r);
/* The limit files there are: v1 has no memory.high. */
unsigned tw_cgroups_limit_files(const struct tw_cgroups *r);
/* Keep the limits cg holds of the files which were read. */
void tw_cgroups_note_limits(struct known *k, const struct tw_cgroup *cg, unsigned which);
/* Walk the hierarchy, carry indexes over, and publish the busiest
 * (cgroups_rescan.c). */
int tw_cgroups_rescan(struct tw_cgroups *r);

#endif
