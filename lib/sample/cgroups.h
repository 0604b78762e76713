/* SPDX-License-Identifier: ISC */
/* Which cgroups a sample holds, and the index each keeps while it lives.
 *
 * A host may have thousands of cgroups; the MIB publishes a bounded number
 * of them, those that hurt first. Finding them costs a walk of the
 * hierarchy and a few file reads per cgroup, so it is done every `rescan`
 * samples (every five minutes in tunewatchd, by default), not every
 * sample: a rescan reads each cgroup's refaults (memory.stat), on v2 its
 * limit events (memory.events), and its I/O counters (collect/cgroupread.h),
 * each only where the sum above it moved; keeps those that qualify
 * (refaults, limit events or I/O since the last rescan, at the first ever,
 * or a memory limit); ranks them by refaults, then limit events, then
 * bytes read and written since the last rescan, so that a cgroup that
 * thrashes is never pushed out by idle ones with limits; and publishes
 * the first max_rows. Those with a limit alone rank last, by index:
 * limits are read in that order only until max_rows are found. What the
 * walk could not reach is counted by reason (collect/cgroupread.h struct
 * tw_cg_cuts). Between rescans only the published cgroups are read:
 * memory.events, the pressure files and the limits every
 * TW_CGROUPS_SLOW_EVERY-th sample only (so a changed limit shows within
 * that many samples, where the change watch sees it), the rest every
 * sample; one that disappears is dropped at once, and a new one appears at
 * the next rescan.
 *
 * A cgroup keeps its index for as long as its directory lives (same path,
 * same inode), whether or not it is published; a new cgroup, or one
 * removed and made again, gets the next index. Indexes start at 1 and are
 * not reused before 2^32 cgroups. */
#ifndef TW_SAMPLE_CGROUPS_H
#define TW_SAMPLE_CGROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "collect/cgroupread.h"
#include "collect/cgroupowner.h"

/* The default bound on published cgroups (tunewatchd.conf: cgroupMax). */
#define TW_CGROUPS_MAX_DEFAULT 16
/* Seconds between walks of the hierarchy by default (cgroupRescan): a walk
 * reads io.stat of every cgroup and the limits of as many as the bound
 * needs, about 2,500 system calls and 9 ms of CPU for 500 cgroups on the
 * machine of BENCHMARKS.md, so it is made every five minutes rather than
 * every window. */
#define TW_CGROUPS_RESCAN_DEFAULT_S 300
#define TW_CGROUPS_MAX_LIMIT 4096
/* A published cgroup's memory.events (v1 memory.failcnt), memory.pressure,
 * io.pressure and limits are read every this many samples (every 20 s at
 * the default interval of 5 s), a quarter of the published cgroups in each
 * sample, and held in between: pressure is the kernel's own average over
 * 10, 60 and 300 s, limit events are rare, limits change when a person
 * changes them, and the first three files were 3 of a published cgroup's
 * 7 system calls a sample. A window of at least this many samples (the
 * default is 12) sees a changed limit within it. */
#define TW_CGROUPS_SLOW_EVERY 4

struct tw_sample_cgroup {
	uint32_t index;
	char unit[TW_CG_UNIT_LEN];	/* the unit whose own cgroup it is, by
					 * systemd's layout (collect/cgroupowner.h),
					 * shown (util/escape.h); "" for a plain
					 * cgroup, or one whose shown name is
					 * longer than 127 bytes */
	enum tw_cg_owner_kind owner;
	uint32_t owner_uid;		/* TW_CG_OWNER_USER_UNIT: the user's;
					 * TW_CG_OWNER_CGROUP: its directory's
					 * owner, UINT32_MAX when unknown */
	struct tw_cgroup cg;
	uint32_t held;		/* TW_CG_BIT of the fields not read in this
				 * sample but in an earlier one (SLOW_EVERY) */
};

/* One sample's cgroups, sorted by index. */
struct tw_sample_cgroups {
	struct tw_sample_cgroup *rows;
	size_t count;
	size_t cap;
	enum tw_cg_version version;
	uint32_t qualified;	/* at the last rescan, before the bound: those
				 * that hurt or did I/O since the one before, and
				 * those found with a limit (a rescan reads limits
				 * only as far as the bound needs them) */
	size_t walked;		/* cgroups the last walk found */
	size_t unpublished;	/* of those, the ones not published */
	struct tw_cg_cuts cuts;	/* what the last walk left out */
};

void tw_sample_cgroups_init(struct tw_sample_cgroups *s);
void tw_sample_cgroups_free(struct tw_sample_cgroups *s);

struct tw_cgroups;

/* max_rows 0: TW_CGROUPS_MAX_DEFAULT; rescan 0 or 1: every sample. */
int tw_cgroups_open(struct tw_cgroups **out, size_t max_rows, unsigned rescan);
void tw_cgroups_close(struct tw_cgroups *r);

/* The proc root the file sets of cgroups at their limit are measured
 * through (collect/cgfiles.h): each published cgroup's within 90 % of its
 * limit, at every sample. -1 (the default): none measured. */
void tw_cgroups_set_proc(struct tw_cgroups *r, int proc_fd);

/* Fill out (emptied first) from the sys root. TW_E_ABSENT when the host
 * has no cgroup memory or io controller; only TW_E_NOMEM otherwise. */
int tw_cgroups_sample(struct tw_cgroups *r, int sys_fd, struct tw_buf *scratch,
    struct tw_sample_cgroups *out, struct tw_parse_stats *ps);

#endif
