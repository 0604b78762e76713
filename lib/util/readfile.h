/* Whole-file reads relative to a root directory.
 *
 * Collectors never open "/proc/..." directly: they open a path relative to
 * a directory descriptor, so that tests and benchmarks can point them at a
 * fixture tree (as node_exporter's --path.procfs does) and so that the
 * daemon keeps working after it drops privileges. */
#ifndef TW_READFILE_H
#define TW_READFILE_H

#include <stddef.h>

/* A growable byte buffer, reused across samples to avoid allocations. The
 * contents are always NUL-terminated after a successful read. */
struct tw_buf {
	char *data;
	size_t len;
	size_t cap;
};

/* Largest file we accept: /proc/diskstats with 100,000 devices is ~15 MB. */
#define TW_READ_MAX ((size_t)64 << 20)

void tw_buf_init(struct tw_buf *b);
void tw_buf_free(struct tw_buf *b);
int tw_buf_reserve(struct tw_buf *b, size_t need);

/* Read the file at rel (relative to dirfd) into b. Returns TW_OK,
 * TW_E_ABSENT when the file does not exist (or dirfd is a root that is
 * absent, -1), TW_E_ACCESS, TW_E_IO, TW_E_NOMEM or TW_E_TOOBIG. */
int tw_read_file_at(int dirfd, const char *rel, struct tw_buf *b);

/* The same with a smaller limit than TW_READ_MAX; dirfd may be AT_FDCWD,
 * for a path the user gave. */
int tw_read_file_limit(int dirfd, const char *rel, size_t max, struct tw_buf *b);

/* Read a one-line attribute (a sysctl or a sysfs file) into out, without
 * the trailing newline. A value longer than outlen-1 is TW_E_TOOBIG. */
int tw_read_value_at(int dirfd, const char *rel, char *out, size_t outlen);

/* Read a name someone chose (a process's comm) into out as it is: only
 * the one newline the kernel ends the file with is dropped, so a name
 * that ends in blanks or newlines of its own keeps them (its shown form,
 * util/escape.h, says so). *len gets its length, which may count NULs.
 * TW_E_TOOBIG when it is longer than outlen-1. */
int tw_read_name_at(int dirfd, const char *rel, char *out, size_t outlen, size_t *len);

/* The roots every collector reads from. */
struct tw_roots {
	int proc_fd;	/* "/proc" or a fixture's proc/ */
	int sys_fd;	/* "/sys" or a fixture's sys/; -1 when absent */
};

/* Open both roots as directories. A missing sys root is not an error
 * (sys_fd is -1 and per-device tunables are simply not available). */
int tw_roots_open(struct tw_roots *r, const char *proc_root, const char *sys_root);
void tw_roots_close(struct tw_roots *r);

#endif
