/* Which process holds a socket: the one with a /proc/[pid]/fd entry that
 * links to "socket:[<inode>]", as ss -p and lsof find it. The kernel keeps
 * no map from a socket to its processes, so this reads every fd of every
 * process until all sockets asked about are found: costly on a busy host.
 * The caller asks only about sockets that dropped, and the scan stops
 * after max_procs processes; a socket still unfound then is "unknown",
 * and the result says the limit cut the search short.
 *
 * A socket shared by several processes (inherited across fork) is given
 * to the first one found, in /proc's order (lowest pid first). Processes
 * whose fds we may not read (another user's, when not root) are skipped
 * and counted. */
#ifndef TW_SOCKOWNER_H
#define TW_SOCKOWNER_H

#include <stddef.h>
#include <stdint.h>

#define TW_COMM_LEN 16		/* TASK_COMM_LEN: 15 characters and NUL */

struct tw_sock_owner {
	int32_t pid;		/* 0: not found */
	char comm[TW_COMM_LEN];	/* /proc/[pid]/comm */
};

struct tw_owner_scan {
	uint32_t procs;		/* processes whose fds were read */
	uint32_t unreadable;	/* processes whose fds we may not read */
	uint64_t fds;		/* fd entries looked at */
	int cut;		/* stopped at max_procs with sockets unfound */
};

/* Find the owners of inodes[n] (sorted, unique) into owners[n] (cleared
 * first), reading at most max_procs processes. TW_E_ABSENT when the proc
 * root cannot be listed, TW_E_NOMEM; an unreadable process is skipped. */
int tw_sockowner_find(int proc_fd, const uint32_t *inodes, size_t n, unsigned max_procs,
    struct tw_sock_owner *owners, struct tw_owner_scan *scan);

/* "socket:[12345]" -> 12345; TW_E_INVAL for any other link. */
int tw_sockowner_parse_link(const char *link, size_t len, uint32_t *inode);

#endif
