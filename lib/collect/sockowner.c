#include "config.h"

#include "collect/sockowner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/readfile.h"
#include "util/scan.h"

int
tw_sockowner_parse_link(const char *link, size_t len, uint32_t *inode)
{
	static const char prefix[] = "socket:[";
	size_t plen = sizeof(prefix) - 1;
	uint64_t v;

	if (len < plen + 2 || memcmp(link, prefix, plen) != 0 || link[len - 1] != ']' ||
	    tw_parse_u64(link + plen, len - plen - 1, &v) != TW_OK || v > UINT32_MAX)
		return TW_E_INVAL;
	*inode = (uint32_t)v;
	return TW_OK;
}

/* The index of inode in inodes[n], or -1. */
static long
find_inode(const uint32_t *inodes, size_t n, uint32_t inode)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (inodes[mid] == inode)
			return (long)mid;
		if (inodes[mid] < inode)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int
is_pid(const char *name)
{
	size_t i;

	if (name[0] < '1' || name[0] > '9')
		return 0;
	for (i = 1; name[i] != '\0'; i++)
		if (name[i] < '0' || name[i] > '9' || i > 10)
			return 0;
	return 1;
}

/* Directory entries straight from getdents64 into a buffer of our own:
 * opendir() would add an allocation and three system calls a process
 * (fstat, two fcntl), a fifth of a search's calls. */
struct dents {
	char buf[16384];
	long len;
	long pos;
	int last;	/* the buffer holds the directory's last entries */
};

/* The largest linux_dirent64: the header, a 255-byte name and its NUL,
 * rounded up to 8. */
#define DENT_MAX 280

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* The next entry's name, or NULL at the end (or on an error). */
static const char *
dents_next(int fd, struct dents *d)
{
	const struct linux_dirent64 *e;

	if (d->pos >= d->len) {
		if (d->last)
			return NULL;
		d->len = syscall(SYS_getdents64, fd, d->buf, sizeof(d->buf));
		d->pos = 0;
		if (d->len <= 0)
			return NULL;
		/* procfs (proc_readfd_common) and tmpfs fill the buffer until
		 * an entry does not fit or the directory ends: with room left
		 * for the longest entry, this was the end, and the call that
		 * would return 0 (a microsecond here, a process) is saved. */
		d->last = (size_t)d->len + DENT_MAX <= sizeof(d->buf);
	}
	e = (const struct linux_dirent64 *)(d->buf + d->pos);
	d->pos += e->d_reclen;
	return e->d_name;
}

/* Look through one process's fds; returns how many sockets it owned that
 * had no owner yet. */
static size_t
scan_process(int proc_fd, const char *pid, const uint32_t *inodes, size_t n,
    struct tw_sock_owner *owners, struct tw_owner_scan *scan, struct dents *d)
{
	char rel[300], link[64];	/* rel: a d_name is up to 255 bytes */
	const char *name;
	size_t found = 0;
	int dfd;

	snprintf(rel, sizeof(rel), "%s/fd", pid);
	dfd = openat(proc_fd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		if (errno == EACCES || errno == EPERM)
			scan->unreadable++;
		return 0;	/* gone, or a kernel thread's */
	}
	scan->procs++;
	d->len = d->pos = 0;
	d->last = 0;
	while ((name = dents_next(dfd, d)) != NULL) {
		ssize_t len;
		uint32_t inode;
		long i;

		if (name[0] == '.')
			continue;
		scan->fds++;
		len = readlinkat(dfd, name, link, sizeof(link));
		if (len <= 0 || (size_t)len >= sizeof(link) ||
		    tw_sockowner_parse_link(link, (size_t)len, &inode) != TW_OK ||
		    (i = find_inode(inodes, n, inode)) < 0 || owners[i].pid != 0)
			continue;
		owners[i].pid = (int32_t)strtol(pid, NULL, 10);
		snprintf(rel, sizeof(rel), "%s/comm", pid);
		if (tw_read_value_at(proc_fd, rel, owners[i].comm, sizeof(owners[i].comm)) != TW_OK)
			owners[i].comm[0] = '\0';
		found++;
	}
	close(dfd);
	return found;
}

int
tw_sockowner_find(int proc_fd, const uint32_t *inodes, size_t n, unsigned max_procs,
    struct tw_sock_owner *owners, struct tw_owner_scan *scan)
{
	struct dirent *de;
	struct dents *d;
	DIR *dir;
	size_t left = n;
	int dfd;

	memset(scan, 0, sizeof(*scan));
	memset(owners, 0, n * sizeof(*owners));
	if (n == 0)
		return TW_OK;
	if (proc_fd < 0)
		return TW_E_ABSENT;
	/* A directory stream of our own, so proc_fd's offset is untouched. */
	dfd = openat(proc_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return TW_E_ABSENT;
	if ((d = malloc(sizeof(*d))) == NULL) {
		close(dfd);
		return TW_E_NOMEM;
	}
	if ((dir = fdopendir(dfd)) == NULL) {
		close(dfd);
		free(d);
		return TW_E_NOMEM;
	}
	while (left > 0 && (de = readdir(dir)) != NULL) {
		if (!is_pid(de->d_name))
			continue;
		if (scan->procs >= max_procs) {
			scan->cut = 1;
			break;
		}
		left -= scan_process(proc_fd, de->d_name, inodes, n, owners, scan, d);
	}
	closedir(dir);
	free(d);
	return TW_OK;
}
