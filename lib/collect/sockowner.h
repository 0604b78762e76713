/* SPDX-License-Identifier: ISC */
/* Which process holds a socket: the one with a /proc/[pid]/fd entry that
 * links to "socket:[<inode>]", as ss -p and lsof find it. The kernel keeps
 * no map from a socket to its processes, so this reads the fds of process
 * after process: a system call a fd, some 2.5-6 us each on a VM, so a host
 * with 50,000 fds cannot be searched in 50 ms (BENCHMARKS.md).
 *
 * So a search is cut into runs, one a sample, each stopping once its
 * thread has spent a budget of CPU time, and the next run resumes where
 * it stopped (the cursor: a pid and an fd in it). All sockets looked for
 * share the cursor; each remembers where its own pass began, so one that
 * joins while a pass is under way is done only when the cursor has gone
 * round /proc (it wraps at the end) back to that point. A socket is
 * settled as found, not found (a whole pass without it) or cut (its pass
 * read max_procs processes without it). A run that stops inside a process
 * notes its start time; if the pid is another process's by the next run,
 * that one is read from its first fd.
 *
 * Processes are read in increasing pid order. A search starts at the
 * lowest pid unless the last one was cut short, then it goes on from
 * where that stopped; so a socket shared by several processes (inherited
 * across fork) goes to the lowest pid, unless its pass began partway:
 * then to the first at or after that point, going round. Processes whose
 * fds we may not read (another user's, when not root) are skipped and
 * counted. */
#ifndef TW_SOCKOWNER_H
#define TW_SOCKOWNER_H

#include <stddef.h>
#include <stdint.h>

#include "util/escape.h"

#define TW_COMM_LEN 16		/* TASK_COMM_LEN: 15 bytes and NUL */

struct tw_sock_owner {
	int32_t pid;		/* 0: not found */
	/* /proc/[pid]/comm, shown (util/escape.h): the process chose it, and
	 * it may hold any byte but NUL, newlines included. */
	char comm[TW_ESCAPE_SIZE(TW_COMM_LEN - 1)];
};

/* Where a socket's owner search stands; the numbers are those of
 * twSockDropOwnerSearch. */
enum tw_owner_state {
	TW_OWNER_UNKNOWN = 1,	/* not looked for: its drops did not grow */
	TW_OWNER_SEARCHING,	/* its pass is under way */
	TW_OWNER_FOUND,
	TW_OWNER_NOT_FOUND,	/* a whole pass did not find it */
	TW_OWNER_CUT,		/* its pass stopped at max_procs processes */
};

/* The search between runs. All zero: at the start of /proc. */
struct tw_owner_cursor {
	int32_t pid;		/* the next process to read: the first pid at
				 * or above this one */
	int32_t fd;		/* in it, the first fd not read yet */
	uint64_t lap;		/* times the cursor wrapped at /proc's end */
	uint64_t reads;		/* processes read, ever */
	int searching;		/* a search is under way */
	int cut;		/* a socket of it was cut: the next search
				 * starts here, not at the lowest pid */
	uint64_t start_time;	/* with fd > 0: the start time of the process
				 * at pid, so that a pid reused by the next
				 * run is read from its first fd */
};

/* One socket looked for, and where its pass began. */
struct tw_owner_want {
	uint32_t inode;
	enum tw_owner_state state;	/* SEARCHING until settled */
	struct tw_sock_owner owner;	/* FOUND */
	int32_t stop_pid;	/* once wrapped, its pass ends at this pid */
	uint64_t lap;		/* the cursor's lap when it joined */
	uint64_t reads;		/* the cursor's reads when it joined */
};

struct tw_owner_limits {
	uint64_t budget_ns;	/* thread CPU time a run may take; 0: none */
	unsigned max_procs;	/* processes one socket's pass may read */
};

/* What one run did. */
struct tw_owner_scan {
	uint32_t listed;	/* pids in /proc */
	uint32_t procs;		/* processes whose fds were read (in part) */
	uint32_t unreadable;	/* processes whose fds we may not read */
	uint64_t fds;		/* fd entries looked at */
	int stopped;		/* the budget ran out with sockets left */
	uint64_t cpu_ns;	/* the run's thread CPU time */
};

/* Start a pass for inode at the cursor: w becomes SEARCHING. */
void tw_sockowner_join(struct tw_owner_cursor *c, uint32_t inode,
    struct tw_owner_want *w);

/* One run for wants[n] (sorted by inode, unique; those not SEARCHING are
 * passed over) from the cursor, until every one is settled or the budget
 * is spent; moves the cursor on. TW_E_ABSENT when the proc root cannot be
 * listed (the wants are left as they were), TW_E_NOMEM; an unreadable or
 * vanished process is skipped. */
int tw_sockowner_run(int proc_fd, struct tw_owner_cursor *c, struct tw_owner_want *wants,
    size_t n, const struct tw_owner_limits *lim, struct tw_owner_scan *scan);

/* No socket is searched for any more (they settled, or went away): the
 * search is over, and the next starts at the lowest pid unless a socket
 * of this one was cut. A run calls it when its last socket settles. */
void tw_sockowner_idle(struct tw_owner_cursor *c);

/* "socket:[12345]" -> 12345; TW_E_INVAL for any other link. */
int tw_sockowner_parse_link(const char *link, size_t len, uint32_t *inode);

#endif
