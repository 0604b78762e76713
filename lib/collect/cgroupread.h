/* SPDX-License-Identifier: ISC */
/* Control groups: the page cache, memory limit, refaults, pressure and I/O
 * of each cgroup, read from the sys root's fs/cgroup, on cgroup v2 and on
 * cgroup v1 (the memory and blkio hierarchies). See the kernel's
 * Documentation/admin-guide/cgroup-v2.rst and cgroup-v1/memory.rst.
 *
 * Every figure is hierarchical, as the kernel keeps it: a cgroup's include
 * its descendants' (v2 always; v1 through the total_ lines of memory.stat
 * and blkio's _recursive files), so a service's figures are the whole
 * service's. A file this kernel lacks leaves its fields absent; a line of
 * it that does not parse is counted as malformed and skipped, except in
 * memory.stat, where only the lines of the wanted keys are checked (the
 * others, some 45, are counted as lines and not looked into: checking them
 * was most of a sample's cost with 500 cgroups). */
#ifndef TW_COLLECT_CGROUPREAD_H
#define TW_COLLECT_CGROUPREAD_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "util/readfile.h"
#include "util/scan.h"

enum tw_cg_version {
	TW_CG_NONE = 0,
	TW_CG_V1 = 1,		/* fs/cgroup/memory and fs/cgroup/blkio */
	TW_CG_V2 = 2,		/* fs/cgroup, unified */
};

enum tw_cg_field {
	TW_CG_CACHE,		/* bytes: v2 memory.stat file, v1 total_cache */
	TW_CG_USAGE,		/* bytes: v2 memory.current, v1 memory.usage_in_bytes */
	TW_CG_HIGH,		/* bytes: v2 memory.high; absent when "max" */
	TW_CG_MAX,		/* bytes: v2 memory.max, v1 memory.limit_in_bytes;
				 * absent when unlimited */
	TW_CG_REFAULTS,		/* pages: workingset_refault_file (workingset_refault
				 * before 5.9; v1 its total_ line) */
	TW_CG_LIMIT_EVENTS,	/* v2 memory.events high + max, v1 memory.failcnt */
	TW_CG_READ_BYTES,	/* v2 io.stat rbytes, v1 blkio throttle Read, all devices */
	TW_CG_WRITE_BYTES,	/* wbytes, Write */
	TW_CG_MEM_PSI,		/* memory.pressure some avg10, hundredths of a percent */
	TW_CG_IO_PSI,		/* io.pressure some avg10 */
	TW_CG_FILESET,		/* bytes: the file set it reads (collect/cgfiles.h),
				 * measured by the sampler, not read here */
	TW_CG_ANON_UP,		/* bytes: USAGE less CACHE, the sum of its rises */
	TW_CG_ANON_DOWN,	/* and of its falls, since the sampler first saw
				 * both (sample/cgroups.c keeps them), not read here */
	TW_CG_NFIELDS
};

#define TW_CG_BIT(f) (UINT32_C(1) << (f))

/* A cgroup's path with its NUL: a cgroup is read by its path from the sys
 * root ("fs/cgroup/blkio" + path + "/blkio.throttle.io_service_bytes_"
 * "recursive"), which must fit in PATH_MAX. A longer one is left out of a
 * walk, with what is below it, and counted (struct tw_cg_cuts). */
#define TW_CG_PATH_LEN (PATH_MAX - 64)
#define TW_CG_UNIT_LEN 128

struct tw_cgroup {
	/* "/system.slice/nginx.service", raw, as the directories are named:
	 * to open them with, never to show (view/cgview.c shows it). */
	char path[TW_CG_PATH_LEN];
	uint64_t ino;			/* the directory's inode (v2: the cgroup id) */
	uint32_t present;		/* TW_CG_BIT of each field read */
	uint64_t v[TW_CG_NFIELDS];
};

/* Which hierarchy the sys root has: v1 when fs/cgroup/memory is there (a
 * hybrid host keeps its memory controller on v1), else v2 when
 * fs/cgroup/cgroup.controllers names the memory or io controller, else
 * TW_CG_NONE. */
enum tw_cg_version tw_cgroup_detect(int sys_fd);

/* What to read of a cgroup: a walk of the hierarchy reads what tells
 * whether a cgroup qualifies and how busy it is (I/O, then limits only
 * where the I/O does not already qualify it); a sample reads the rest of
 * the ones it publishes, the slowly changing files only every few samples
 * (sample/cgroups.h). */
#define TW_CG_READ_HIGH		0x1u	/* memory.high (v2; v1 has none) */
#define TW_CG_READ_MAX		0x2u	/* memory.max; v1 memory.limit_in_bytes */
#define TW_CG_READ_LIMITS	(TW_CG_READ_HIGH | TW_CG_READ_MAX)
#define TW_CG_READ_IO		0x4u	/* io.stat; v1 the blkio throttle counters */
#define TW_CG_READ_MEMORY	0x8u	/* memory.current, .stat; v1 usage, stat */
#define TW_CG_READ_EVENTS	0x10u	/* memory.events; v1 memory.failcnt */
#define TW_CG_READ_PSI		0x20u	/* memory.pressure, io.pressure (v2) */
#define TW_CG_READ_STAT		0x40u	/* memory.stat alone: the page cache and
					 * the refaults (READ_MEMORY reads it too) */
#define TW_CG_READ_ALL		0x7fu

/* Read what of cgroup path (relative to its hierarchy, "/a/b"; raw, as
 * the directories are named: it opens them) into out (emptied first).
 * TW_E_ABSENT when the cgroup is gone; files it lacks only leave fields
 * absent. */
int tw_cgroup_read(int sys_fd, enum tw_cg_version ver, const char *path, unsigned what,
    struct tw_buf *scratch, struct tw_cgroup *out, struct tw_parse_stats *ps);
/* The same through a directory above the cgroup, open (in the unified
 * hierarchy, or v1's memory one), and the cgroup's path from it (its name
 * in its parent): a walk has the parent open, and reading "name/io.stat"
 * from it costs no open and close of the cgroup's own directory. */
int tw_cgroup_read_at(int parent_fd, const char *name, int sys_fd, enum tw_cg_version ver,
    const char *path, unsigned what, struct tw_buf *scratch, struct tw_cgroup *out,
    struct tw_parse_stats *ps);

/* A published cgroup's directory and files kept open between samples: a
 * sample then reads each file with one pread at offset 0, where a cgroup
 * file (a seq_file) makes its text anew, instead of resolving the path,
 * opening and closing: a third of the system calls, which on a VM cost
 * microseconds each. fd[] are v2's io.stat, memory.current, memory.stat,
 * memory.events, memory.pressure, io.pressure, memory.high, memory.max
 * (v1: usage, stat, failcnt and memory.limit_in_bytes in the same slots);
 * a file absent when first opened stays unread until tw_cg_keep_close
 * (the caller closes at every walk, so it is looked for again then). */
#define TW_CG_KEEP_FILES 8
struct tw_cg_keep {
	int dir;
	int fd[TW_CG_KEEP_FILES];
	int check_links;	/* not the cgroup filesystem: see tw_cgroup_read_kept */
};

void tw_cg_keep_init(struct tw_cg_keep *k);
void tw_cg_keep_close(struct tw_cg_keep *k);
/* tw_cgroup_read through k, opening what is not open yet. TW_E_ABSENT
 * (and k closed) when the cgroup was removed. */
int tw_cgroup_read_kept(int sys_fd, enum tw_cg_version ver, const char *path, unsigned what,
    struct tw_cg_keep *k, struct tw_buf *scratch, struct tw_cgroup *out,
    struct tw_parse_stats *ps);

/* The parsers, for tests: they add to out->v and set out->present. */
int tw_cgroup_parse_memstat(enum tw_cg_version ver, const char *text, size_t len,
    struct tw_cgroup *out, struct tw_parse_stats *ps);
int tw_cgroup_parse_iostat(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps);
int tw_cgroup_parse_blkio(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps);
int tw_cgroup_parse_events(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps);

/* Walking a hierarchy stops at these: a host with more cgroups than
 * TW_CG_SCAN_MAX has the rest left out, and a cgroup deeper than
 * TW_CG_DEPTH_MAX levels below the root (the walk holds a directory open
 * a level) is left out with what is below it. Each is counted. */
#define TW_CG_SCAN_MAX 8192
#define TW_CG_DEPTH_MAX 128

/* What a walk left out, and why: never silently. A cut cgroup is counted
 * once; what is below it is not seen at all. */
struct tw_cg_cuts {
	uint64_t too_long;	/* its path would not fit in TW_CG_PATH_LEN */
	uint64_t too_deep;	/* more than TW_CG_DEPTH_MAX levels down */
	uint64_t too_many;	/* past TW_CG_SCAN_MAX */
};

typedef int tw_cgroup_visit(void *ctx, int parent_fd, const char *name, const char *path,
    uint64_t ino, int *quiet);

/* Call visit for every cgroup below the root of ver's memory hierarchy
 * (the root itself, whose figures are the host's, is left out), hidden
 * ones (a name that starts with '.') as any other, parents before
 * children, with the directory that holds it open (parent_fd, for
 * tw_cgroup_read_at), its name there, its path and its inode; name and
 * path are raw, as the directories are named, for opening files with
 * (what is shown of them is made by tw_escape, util/escape.h). *quiet is
 * what visit said of the cgroup's parent (0 for the top level's): flags
 * of visit's own, which it may change, and its children are then visited
 * with them: a walk carries the caller's word that a subtree did nothing
 * worth reading. What the bounds leave out is counted in *cuts (added
 * to). visit returning other than TW_OK stops the walk with that code;
 * *visited (set, unless visited is NULL) is how many cgroups visit was
 * called for. */
int tw_cgroup_walk(int sys_fd, enum tw_cg_version ver, tw_cgroup_visit *visit, void *ctx,
    struct tw_cg_cuts *cuts, size_t *visited);
/* The root of ver's memory hierarchy, open (a directory descriptor), or
 * -1: a cgroup's path without its leading '/' is its name there, for
 * tw_cgroup_read_at. */
int tw_cgroup_open_hierarchy(int sys_fd, enum tw_cg_version ver);

#endif
