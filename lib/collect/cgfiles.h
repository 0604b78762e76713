/* SPDX-License-Identifier: ISC */
/* The file set a cgroup reads: the page-cache footprint of the regular
 * files its processes hold open for reading.
 *
 * What a memory limit must hold for a service's cache is its working set,
 * and the counters do not tell it: a cgroup that re-reads 256 MiB behind
 * a 64 MiB limit and one that re-reads 640 MiB refault at the same rate
 * (the rate of the disk), and refaults over a window count a page once
 * each time it is read back, so they grow with the window, not the need.
 * The kernel does keep the need, file by file: each page evicted from the
 * cache leaves a shadow entry in its file's mapping, which makes its next
 * read a refault, and cachestat(2) (Linux 6.5) counts a file's pages
 * cached and evicted-but-remembered. Their sum over the files a cgroup's
 * processes hold open for reading is the set it reads from, resident or
 * not. Measured on Linux 6.18 with cgroup v1: a cgroup at 64 MiB that had
 * read a file of 256 MiB four times had 62 MiB of it cached and 194 MiB
 * evicted (cachestat of the file from outside).
 *
 * A file is reached through its process (pidfd_getfd(2): the process's
 * own open file, duplicated; nothing is opened by path, so neither a FIFO
 * nor a device is ever opened), which needs the right to ptrace it: root,
 * or the same user. A file opened only for writing (a log) is left out:
 * what it evicts is never read back. Files a process opens and closes
 * between samples (a compiler's sources), and mappings without an open
 * descriptor, are not seen. The kernel forgets shadows past about eight
 * times the cgroup's cache (mm/workingset.c's shadow shrinker), so a set
 * far larger than that is under-counted. */
#ifndef TW_COLLECT_CGFILES_H
#define TW_COLLECT_CGFILES_H

#include <stdint.h>

#include "util/readfile.h"

/* Bounds on one measurement: the processes read (the cgroup's and its
 * descendants'), the distinct files counted, and how deep below the
 * cgroup its descendants are looked for. What is past them is not
 * counted, and out->cut says so. */
#define TW_CG_FILES_PROCS_MAX 64
#define TW_CG_FILES_MAX 512
#define TW_CG_FILES_DEPTH_MAX 4

struct tw_cg_fileset {
	uint64_t bytes;		/* pages cached and evicted-but-remembered, in bytes */
	uint32_t files;		/* distinct files counted */
	uint32_t procs;		/* processes whose descriptors were read */
	uint32_t denied;	/* processes whose descriptors could not be taken */
	int cut;		/* a bound was reached */
};

/* Measure the file set of the cgroup whose directory dir_fd is (open, in
 * its memory hierarchy), with the processes found through proc_fd (the
 * proc root; pids are this pid namespace's). TW_OK with *out filled when
 * at least one process's descriptors were read; TW_E_ABSENT when none
 * could be (no process, no permission, or no cachestat on this kernel);
 * TW_E_NOMEM. */
int tw_cgroup_fileset(int dir_fd, int proc_fd, struct tw_buf *scratch,
    struct tw_cg_fileset *out);

#endif
