/* SPDX-License-Identifier: ISC */
/* Reading /proc's directories (the pids, a process's fds) with getdents64
 * into a buffer of our own, for the socket owner search, which lists tens
 * of thousands of fds a pass. */
#ifndef TW_COLLECT_DENTS_H
#define TW_COLLECT_DENTS_H

#include <stddef.h>
#include <stdint.h>

/* Directory entries straight from getdents64 into a buffer of our own:
 * opendir() would add an allocation and three system calls a process
 * (fstat, two fcntl), a fifth of a search's calls. */
struct tw_dents {
	char buf[16384];
	long len;
	long pos;
	int last;	/* the buffer holds the directory's last entries */
};

/* Start reading a directory afresh (a new descriptor, or one rewound). */
void tw_dents_reset(struct tw_dents *d);

/* The next entry's name in directory fd, or NULL at the end (or on an
 * error). */
const char *tw_dents_next(int fd, struct tw_dents *d);

/* A decimal name without a leading zero ("1234") up to INT32_MAX, or -1. */
int32_t tw_dents_name_number(const char *name);

/* The pids of the proc root proc_fd, increasing, into *pids (to free;
 * *n of them). TW_E_ABSENT when it cannot be opened, TW_E_NOMEM. */
int tw_dents_list_pids(int proc_fd, struct tw_dents *d, int32_t **pids, size_t *n);

#endif
