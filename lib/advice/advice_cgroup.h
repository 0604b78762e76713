/* SPDX-License-Identifier: ISC */
/* Advice for a service whose page cache is bounded by its own limit.
 *
 * On a host where services run in cgroups, the page cache is shared out
 * among them: a service that refaults while its memory sits at its own
 * limit (memory.high or memory.max on cgroup v2, memory.limit_in_bytes on
 * v1) is short of cache because of that limit, whatever the host has free,
 * and no host-wide sysctl changes that. The knob is the limit, which
 * systemd sets with MemoryHigh=, MemoryMax= or, on v1, MemoryLimit=
 * (systemd.resource-control(5)); the kernel's side is
 * Documentation/admin-guide/cgroup-v2.rst ("memory.high ... the main
 * mechanism to control memory usage") and cgroup-v1/memory.rst.
 *
 * The suggestion is sized from the need, not doubled and not from the
 * window: doubling a limit that a re-read set exceeds buys nothing until
 * it fits (measured: a 64 MiB service re-reading 200 MiB read as much from
 * disk at 128M and at 200M as at 64M; 208M and above fitted), and the
 * refaults of a window count a page once each time it is read back, so
 * what they add up to grows with the window (at 60 s, sixteen times the
 * limit for that service). The need is its anonymous memory (what it
 * holds besides its page cache) plus the file set it reads
 * (twCgroupFileSetBytes, collect/cgfiles.h: its open files' pages cached
 * and evicted-but-remembered), a gauge that no window length changes. The
 * limit proposed is a quarter more, in whole MiB: at least a quarter more
 * than the limit, at most TW_ADVICE_CGROUP_SIZE_CAP times it, never past the
 * host's memory. Where the agent could not measure the file set, or the
 * files its processes hold open fit within the limit (so they are not
 * what it reads back: files opened and closed, a compiler's), the need is
 * what it holds plus what it read back over TW_ADVICE_CGROUP_READBACK_S (an
 * upper bound where the set is re-read faster than that, as before but
 * the same at any window). Where the file set is known and fits beside
 * its anonymous memory, and that memory holds half the limit or more, the
 * limit is not what its cache lacks: anonymous memory squeezes it (a
 * leak, or a heap grown), and the advice is no tunable, with why; so too
 * where that memory grew by TW_ADVICE_CGROUP_LEAK_SHARE of the limit or more
 * within the window (twCgroupAnonGrowth), whatever the file set: a leak
 * fills any limit, and sizing one from it would ratchet the limit up
 * ticket by ticket; and where it fell as much (twCgroupAnonFall: a
 * process that grew and ended, or was killed), whose refaults were no
 * steady working set's. The
 * command that makes it at once and the line that makes it last are the
 * ticket's apply and persist lines (lib/finding/ticket_cgroup.c).
 * Justified in doc/ADVICE-REFERENCE.md ("Services"). */
#ifndef TW_ADVICE_CGROUP_H
#define TW_ADVICE_CGROUP_H

#include <stddef.h>
#include <stdint.h>

#include "collect/cgroupowner.h"
#include "figures/cgroup_record.h"

/* Memory within this share of the limit counts as "at" it: the kernel
 * reclaims a little below memory.high and usage moves between samples. */
#define TW_ADVICE_CGROUP_AT_LIMIT 0.9
/* The proposal's headroom over the working set, and its bound: a service
 * whose refaults within a window are many times its limit re-reads its
 * files over and over, and what it really needs cannot be told from them
 * past that (the old SVR4 practice of doubling and watching, four steps
 * at once). */
#define TW_ADVICE_CGROUP_HEADROOM 1.25
#define TW_ADVICE_CGROUP_SIZE_CAP 16
/* Without the file set: the seconds of read-back counted as need (the lab's
 * window, where the old sizing was measured). */
#define TW_ADVICE_CGROUP_READBACK_S 10.0
/* Anonymous memory holding this share of the limit or more, beside a
 * file set that fits: the cache is squeezed, not bounded. */
#define TW_ADVICE_CGROUP_ANON_SHARE 0.5
/* Memory besides the cache that rose by this share of the limit or more
 * within the window: a leak, which a bigger limit only feeds (or a
 * process that started in it: it is sized a window later). */
#define TW_ADVICE_CGROUP_LEAK_SHARE 0.125
/* Bytes a refault brings back: the page of the kernels measured. */
#define TW_ADVICE_CGROUP_PAGE 4096.0

/* A cgroup as its advice reads it: its record, read as it is
 * (figures/cgroup_record.h: an absent figure is TW_FIG_NONE, and a limit
 * with no limit_name is none), and what the judge adds to it. */
struct tw_advice_cgroup_evidence {
	const struct tw_cgroup_record *rec;	/* outlives the evidence */
	/* Who sets its limit, told by where it sits (tw_cgroup_owner of
	 * rec->path), not by the record's owner_kind: a check and tunewatchd
	 * then tell it by one rule, whatever an agent of another version
	 * published. */
	struct tw_cg_owner owner;
	double mem_total_bytes;		/* the host's memory; TW_FIG_NONE unknown */
	unsigned window_s;
};

/* The evidence of the cgroup whose record is rec (owner told from its
 * path), in a host of mem_total_bytes, over window_s. */
void tw_advice_cgroup_evidence_init(struct tw_advice_cgroup_evidence *e,
    const struct tw_cgroup_record *rec, double mem_total_bytes, unsigned window_s);

/* The advice for a cgroup whose refaults the check judged too many. When
 * its own limit bounds it (memory within TW_ADVICE_CGROUP_AT_LIMIT of the limit,
 * or limit events in the window), *tune is 1 and line is what follows
 * "tune: ":
 *
 *   nginx.service MemoryHigh=64M -> 331M (42638 refaults/s while
 *   memory.current 63.9 MiB sits at memory.high 64 MiB, in the last 60 s;
 *   it reads a file set of 256 MiB beside 8.5 MiB of other memory;
 *   systemd.resource-control(5), Documentation/admin-guide/cgroup-v2.rst)
 *
 * The cgroup is named as tw_cgroup_owner_name names it: a system unit,
 * "web.service of user 1000", or a plain cgroup's path, which is followed
 * by its limit file ("/docker/0123 memory.max 64M -> 128M"). It names no
 * command: the ticket's apply and persist lines do
 * (tw_judge_cgroup_finding), the one place that checks the unit's name.
 *
 * Otherwise *tune is 0 and line is what follows "no tunable: ". Returns
 * TW_OK, TW_E_INVAL for bad arguments, TW_E_TOOBIG when line is too
 * short (line is then ""). */
int tw_advice_cgroup(const struct tw_advice_cgroup_evidence *e, int *tune, char *line, size_t len);

/* The knob of a cgroup whose own limit bounds its cache (when
 * tw_advice_cgroup says "tune"): name is the systemd property
 * ("MemoryHigh") for a unit's own cgroup, a system unit's or a user's, or
 * the limit file for a plain cgroup; cur and next the limit and the
 * proposal as systemd sizes ("64M", "128M"), and *bytes the proposal in
 * bytes (bytes may be NULL). Returns TW_OK, or TW_E_ABSENT when the limit
 * does not bound it or is already the host's memory. */
int tw_advice_cgroup_knob(const struct tw_advice_cgroup_evidence *e, char *name, size_t nlen,
    char *cur, char *next, size_t vlen, uint64_t *bytes);

/* 1 when e's cgroup's own limit bounds its cache (memory within
 * TW_ADVICE_CGROUP_AT_LIMIT of the limit, or limit events in the window):
 * the symptom is then TW_SYM_CGROUP_CACHE_BOUNDED, a service's own, and
 * not the host's TW_SYM_LOW_HIT_REFAULTS, which a service far from its
 * limit shows. */
int tw_advice_cgroup_bounded(const struct tw_advice_cgroup_evidence *e);

/* A size as systemd's properties take it: "128M", "1G", "1536K", or
 * bytes when no unit divides it. */
void tw_advice_systemd_size(double bytes, char *buf, size_t len);

/* A limit file as a tunable, as the ticket names it: the systemd property
 * for a unit's own cgroup ("memory.high" -> "MemoryHigh", v1's
 * "memory.limit_in_bytes" -> "MemoryLimit"), the file itself otherwise. */
const char *tw_advice_cgroup_tunable(const char *limit_name, int unit);

/* A limit's value as that tunable takes it: the size (tw_advice_systemd_size),
 * or for none, systemd's "infinity" for a property, "max" for a v2 file
 * and "-1" for v1's. */
void tw_advice_cgroup_value(int limited, double bytes, const char *limit_name, int unit,
    char *buf, size_t len);

#endif
