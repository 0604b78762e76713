/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/dents.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/array.h"
#include "util/error.h"

/* A decimal name without a leading zero ("1234") up to INT32_MAX, or -1. */
int32_t
tw_dents_name_number(const char *name)
{
	int64_t v = 0;
	size_t i;

	if (name[0] < '0' || name[0] > '9' || (name[0] == '0' && name[1] != '\0'))
		return -1;
	for (i = 0; name[i] != '\0'; i++) {
		if (name[i] < '0' || name[i] > '9' || i >= 10)
			return -1;
		v = v * 10 + (name[i] - '0');
	}
	return v > INT32_MAX ? -1 : (int32_t)v;
}

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

void
tw_dents_reset(struct tw_dents *d)
{
	d->len = d->pos = 0;
	d->last = 0;
}

/* The next entry's name, or NULL at the end (or on an error). */
const char *
tw_dents_next(int fd, struct tw_dents *d)
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

static int
cmp_pid(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* The pids of the proc root, increasing (procfs lists them so; a
 * fixture's directory may not). Listed anew each run, so that a process
 * that came or went since the last one is seen as it is now. */
int
tw_dents_list_pids(int proc_fd, struct tw_dents *d, int32_t **pids, size_t *n)
{
	const char *name;
	size_t cap = 0, sorted = 1;
	int32_t *v = NULL;
	void *grown;
	int dfd;

	*n = 0;
	/* A descriptor of our own, so proc_fd's offset is untouched. */
	if ((dfd = openat(proc_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return TW_E_ABSENT;
	tw_dents_reset(d);
	while ((name = tw_dents_next(dfd, d)) != NULL) {
		int32_t pid = tw_dents_name_number(name);

		if (pid <= 0)
			continue;
		if (tw_array_grow(v, &cap, *n + 1, sizeof(*v), &grown) != TW_OK) {
			free(v);
			close(dfd);
			return TW_E_NOMEM;
		}
		v = grown;
		sorted &= *n == 0 || v[*n - 1] < pid;
		v[(*n)++] = pid;
	}
	close(dfd);
	if (!sorted)
		qsort(v, *n, sizeof(*v), cmp_pid);
	*pids = v;
	return TW_OK;
}
