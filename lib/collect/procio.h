/* SPDX-License-Identifier: ISC */
/* /proc/[pid]/io and /proc/[pid]/stat: per-process read counters, for the
 * buffer cache's read hit-ratio estimate.
 *
 * Linux keeps no logical-read counter for the page cache. rchar counts the
 * bytes a process asked read(2) and friends for (cache hits and misses,
 * but also sockets and pipes); read_bytes counts the bytes that process
 * caused to be fetched from storage. Summed over processes that were alive
 * across an interval, 1 - read_bytes/rchar estimates the hit ratio. A pid
 * is identified with its start time so that a reused pid is not taken for
 * the process that had it before. The parent pid is kept because a reaped
 * child's whole-life counters are added to its reaper's (see window/procreads.c).
 *
 * /proc/uptime, read just before the processes, says when the scan began
 * in the clock of the start times (boot time, in clock ticks): a process
 * first seen in the next sample whose start time is at or after it was
 * born since, so everything it read belongs to that interval. */
#ifndef TW_PROCIO_H
#define TW_PROCIO_H

#include <stddef.h>
#include <stdint.h>

#include "util/readfile.h"
#include "util/scan.h"

struct tw_proc_io {
	int32_t pid;
	uint64_t start_time;	/* field 22 of stat: clock ticks after boot */
	uint64_t rchar;		/* logical bytes read */
	uint64_t read_bytes;	/* bytes fetched from storage */
	int32_t ppid;		/* field 4 of stat; last, so older initializers hold */
};

struct tw_proc_io_set {
	struct tw_proc_io *procs;	/* sorted by pid */
	size_t count;
	size_t cap;
	uint64_t unreadable;	/* processes whose io we may not read */
	int have_uptime;	/* uptime_ticks is known */
	uint64_t uptime_ticks;	/* /proc/uptime before the scan, clock ticks */
};

void tw_proc_io_set_init(struct tw_proc_io_set *s);
void tw_proc_io_set_free(struct tw_proc_io_set *s);

/* Parse the text of /proc/[pid]/io; both keys are needed. */
int tw_procio_parse_io(const char *text, size_t len, uint64_t *rchar, uint64_t *read_bytes);
/* Parse the parent pid and the start time out of /proc/[pid]/stat. The
 * command name (field 2) may hold spaces and parentheses, so fields are
 * counted after the last ')'. */
int tw_procio_parse_stat(const char *text, size_t len, int32_t *ppid, uint64_t *start_time);

/* Parse the text of /proc/uptime ("350735.47 234388.90\n") into clock
 * ticks of hz a second, rounded down as the kernel rounds start times. */
int tw_procio_parse_uptime(const char *text, size_t len, uint64_t hz, uint64_t *ticks);

/* Read /proc/uptime, then every numeric entry of proc_fd except exclude_pid (our own reads
 * would count as hits). A process that exits while we read is skipped; one
 * whose io we may not read counts in unreadable; one with malformed files
 * counts as malformed in ps. out is cleared first and sorted by pid.
 * In ps, one "line" is one process that was read (kept or malformed), and
 * /proc/uptime is one more when it is there; without it (or when it does
 * not parse) have_uptime is 0. */
int tw_procio_read_all(int proc_fd, int32_t exclude_pid, struct tw_buf *scratch,
    struct tw_proc_io_set *out, struct tw_parse_stats *ps);

#endif
