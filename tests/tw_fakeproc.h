/* SPDX-License-Identifier: ISC */
/* A proc root made by a test in a directory of its own: socket files and
 * processes whose fd entries link to "socket:[inode]", as the kernel shows
 * them (the links dangle, which is all readlink needs). Each process made
 * gets a stat whose start time (field 22) is later than the last one's, as
 * the kernel's are: a pid removed and made again is another process. */
#ifndef TW_FAKEPROC_H
#define TW_FAKEPROC_H

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tw_fakeproc {
	char dir[64];
	int fd;
	unsigned long long start_time;	/* the last process's */
};

static inline void
tw_fakeproc_file(struct tw_fakeproc *fp, const char *rel, const char *text)
{
	size_t len = strlen(text);
	int fd = openat(fp->fd, rel, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
}

static inline void
tw_fakeproc_open(struct tw_fakeproc *fp)
{
	snprintf(fp->dir, sizeof(fp->dir), "/tmp/tw-fakeproc-XXXXXX");
	fp->start_time = 4000;
	ck_assert_ptr_nonnull(mkdtemp(fp->dir));
	fp->fd = open(fp->dir, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(fp->fd, 0);
	ck_assert_int_eq(mkdirat(fp->fd, "net", 0755), 0);
}

/* /proc/net/udp with one line per (inode, port, drops). */
static inline void
tw_fakeproc_udp(struct tw_fakeproc *fp, const unsigned *inodes, const unsigned *ports,
    const unsigned *drops, size_t n)
{
	char *text = malloc(160 * (n + 1));
	size_t i, len;

	ck_assert_ptr_nonnull(text);
	len = (size_t)sprintf(text, "   sl  local_address rem_address   st tx_queue rx_queue tr "
	    "tm->when retrnsmt   uid  timeout inode ref pointer drops\n");
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "%5zu: 0100007F:%04X 00000000:0000 07 "
		    "00000000:00000000 00:00000000 00000000     0        0 %u 2 0000000000000000 "
		    "%u\n", i, ports[i], inodes[i], drops[i]);
	tw_fakeproc_file(fp, "net/udp", text);
	free(text);
}

/* Process pid's stat as Linux 6.1 prints it, started at start_time
 * (field 22). */
static inline void
tw_fakeproc_stat(struct tw_fakeproc *fp, int pid, const char *comm,
    unsigned long long start_time)
{
	char path[64], text[512];

	snprintf(path, sizeof(path), "%d/stat", pid);
	snprintf(text, sizeof(text), "%d (%.32s) S 1 %d %d 0 -1 4194560 112 0 0 0 3 1 0 0 20 0 "
	    "1 0 %llu 8482816 896 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 "
	    "0 0 0 0 0 0 0 0 0 0\n", pid, comm, pid, pid, start_time);
	tw_fakeproc_file(fp, path, text);
}

/* Process pid called comm, with fds 0..n-1 linking to socket inodes
 * (0: a link to /dev/null instead). */
static inline void
tw_fakeproc_process(struct tw_fakeproc *fp, int pid, const char *comm, const unsigned *inodes,
    size_t n)
{
	char path[64], link[64];
	size_t i;

	snprintf(path, sizeof(path), "%d", pid);
	ck_assert_int_eq(mkdirat(fp->fd, path, 0755), 0);
	snprintf(path, sizeof(path), "%d/fd", pid);
	ck_assert_int_eq(mkdirat(fp->fd, path, 0755), 0);
	snprintf(path, sizeof(path), "%d/comm", pid);
	snprintf(link, sizeof(link), "%.32s\n", comm);
	tw_fakeproc_file(fp, path, link);
	tw_fakeproc_stat(fp, pid, comm, ++fp->start_time);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%d/fd/%zu", pid, i);
		if (inodes[i] == 0)
			snprintf(link, sizeof(link), "/dev/null");
		else
			snprintf(link, sizeof(link), "socket:[%u]", inodes[i]);
		ck_assert_int_eq(symlinkat(link, fp->fd, path), 0);
	}
}

static inline void
tw_fakeproc_close(struct tw_fakeproc *fp)
{
	char cmd[128];

	close(fp->fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fp->dir);
	ck_assert_int_eq(system(cmd), 0);
}

#endif
