/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/cgfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "collect/dents.h"
#include "util/error.h"
#include "util/scan.h"

/* The system calls by number: glibc 2.36 wraps the pidfd ones only, and
 * cachestat (451 on every architecture but alpha) is newer than the
 * headers of the systems built on. */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SYS_cachestat
#define SYS_cachestat 451
#endif

/* include/uapi/linux/magic.h */
#define PROC_MAGIC 0x9fa0

/* include/uapi/linux/mman.h */
struct cs_range {
	uint64_t off, len;
};

struct cs_stat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

struct file_id {
	dev_t dev;
	ino_t ino;
};

struct measure {
	int proc_fd;
	struct tw_buf *scratch;
	struct tw_cg_fileset *out;
	int32_t pids[TW_CG_FILES_PROCS_MAX];
	size_t npids;
	struct file_id seen[TW_CG_FILES_MAX];
	size_t nseen;
	long page;
	int no_cachestat;
	struct tw_dents d;		/* a process's fds */
	struct tw_dents dirs[TW_CG_FILES_DEPTH_MAX];	/* a level's children */
};

/* The pids listed in the cgroup's own cgroup.procs. */
static void
add_pids(struct measure *m, int dir_fd)
{
	const char *p, *end;

	if (tw_read_file_at(dir_fd, "cgroup.procs", m->scratch) != TW_OK)
		return;
	p = m->scratch->data;
	end = p + m->scratch->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		uint64_t v;

		if (len > 0 && tw_parse_u64(p, len, &v) == TW_OK && v > 0 && v <= INT32_MAX) {
			if (m->npids == TW_CG_FILES_PROCS_MAX) {
				m->out->cut = 1;
				return;
			}
			m->pids[m->npids++] = (int32_t)v;
		}
		p += len + 1;
	}
}

/* The cgroup's pids, then its descendants', depth first. */
static void
gather(struct measure *m, int dir_fd, unsigned depth)
{
	struct tw_dents *d = &m->dirs[depth];
	const char *name;
	int list;

	add_pids(m, dir_fd);
	if (depth == TW_CG_FILES_DEPTH_MAX || m->npids == TW_CG_FILES_PROCS_MAX)
		return;
	if ((list = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return;
	tw_dents_reset(d);
	while ((name = tw_dents_next(list, d)) != NULL) {
		int sub;

		/* A cgroup's files are its controller's ("memory.stat",
		 * "cgroup.procs", "tasks", "notify_on_release"); a child
		 * cgroup is any directory. */
		if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
			continue;
		sub = openat(list, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (sub < 0)
			continue;
		gather(m, sub, depth + 1);
		close(sub);
		if (m->npids == TW_CG_FILES_PROCS_MAX) {
			m->out->cut = 1;
			break;
		}
	}
	close(list);
}

static int
seen_before(struct measure *m, const struct stat *st)
{
	size_t i;

	for (i = 0; i < m->nseen; i++)
		if (m->seen[i].dev == st->st_dev && m->seen[i].ino == st->st_ino)
			return 1;
	return 0;
}

/* Count the file behind one descriptor of the process: 1 when counted,
 * 0 when not (not a regular file read from, counted already), -1 when the
 * process's descriptors cannot be taken at all. */
static int
count_file(struct measure *m, int pidfd, int target)
{
	struct cs_range all = { 0, 0 };
	struct cs_stat cs;
	struct stat st;
	int fd, mode, counted = 0;

	fd = (int)syscall(SYS_pidfd_getfd, pidfd, target, 0);
	if (fd < 0)
		return errno == EPERM || errno == ENOSYS ? -1 : 0;
	mode = fcntl(fd, F_GETFL);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && mode >= 0 &&
	    (mode & O_ACCMODE) != O_WRONLY && !seen_before(m, &st)) {
		if (m->nseen == TW_CG_FILES_MAX) {
			m->out->cut = 1;
		} else if (syscall(SYS_cachestat, fd, &all, &cs, 0) == 0) {
			m->seen[m->nseen].dev = st.st_dev;
			m->seen[m->nseen].ino = st.st_ino;
			m->nseen++;
			m->out->bytes += (cs.nr_cache + cs.nr_evicted) * (uint64_t)m->page;
			m->out->files++;
			counted = 1;
		} else if (errno == ENOSYS) {
			m->no_cachestat = 1;
		}
	}
	close(fd);
	return counted;
}

/* The files of one process: 1 when its descriptors were read. */
static int
count_process(struct measure *m, int32_t pid)
{
	char path[32];
	const char *name;
	int pidfd, dir, read = 0;

	pidfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
	if (pidfd < 0)
		return 0;
	snprintf(path, sizeof(path), "%d/fd", (int)pid);
	dir = openat(m->proc_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0) {
		if (errno == EACCES || errno == EPERM)
			m->out->denied++;
		close(pidfd);
		return 0;
	}
	read = 1;
	tw_dents_reset(&m->d);
	while ((name = tw_dents_next(dir, &m->d)) != NULL && !m->no_cachestat) {
		int32_t target = tw_dents_name_number(name);

		if (target < 0)
			continue;
		if (count_file(m, pidfd, target) < 0) {
			m->out->denied++;
			read = 0;
			break;
		}
	}
	close(dir);
	close(pidfd);
	return read;
}

int
tw_cgroup_fileset(int dir_fd, int proc_fd, struct tw_buf *scratch, struct tw_cg_fileset *out)
{
	struct measure *m;
	struct statfs fs;
	size_t i;
	int rc = TW_OK;

	memset(out, 0, sizeof(*out));
	/* The pids are this namespace's, and a pidfd is a live process:
	 * through a fixture's proc root they could be anyone's. */
	if (dir_fd < 0 || proc_fd < 0 || scratch == NULL || sysconf(_SC_PAGESIZE) <= 0 ||
	    fstatfs(proc_fd, &fs) != 0 || fs.f_type != PROC_MAGIC)
		return TW_E_ABSENT;
	/* On the heap (about 90 KiB): measured every few samples at most. */
	if ((m = calloc(1, sizeof(*m))) == NULL)
		return TW_E_NOMEM;
	m->proc_fd = proc_fd;
	m->scratch = scratch;
	m->out = out;
	m->page = sysconf(_SC_PAGESIZE);
	gather(m, dir_fd, 0);
	for (i = 0; i < m->npids && !m->no_cachestat; i++)
		out->procs += (uint32_t)count_process(m, m->pids[i]);
	if (m->no_cachestat || out->procs == 0) {
		memset(out, 0, sizeof(*out));
		rc = TW_E_ABSENT;
	}
	free(m);
	return rc;
}
