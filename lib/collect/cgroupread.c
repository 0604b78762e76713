/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/cgroupread.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "collect/pressure.h"
#include "util/error.h"

/* v1 writes an unset limit as PAGE_COUNTER_MAX pages in bytes
 * (9223372036854771712 on 4 KiB pages): anything this large is no limit. */
#define V1_UNLIMITED (UINT64_C(1) << 62)

static void
set(struct tw_cgroup *cg, enum tw_cg_field f, uint64_t v)
{
	cg->v[f] = v;
	cg->present |= TW_CG_BIT(f);
}

/* ---- Files -------------------------------------------------------------- */

/* The largest cgroup file read: memory.stat is about 2 KiB, io.stat a line
 * per device. */
#define FILE_MAX (1u << 20)

/* A kept file's slot (struct tw_cg_keep): not opened yet, or absent. */
#define KEEP_UNOPENED (-1)
#define KEEP_ABSENT (-2)
#define KEEP_GONE (-3)		/* read ENODEV: the cgroup was removed */

/* Read a small file in as few system calls as it takes. A cgroup file is
 * a seq_file whose text is made whole by one read: a read that leaves room
 * in the buffer has reached the end, so no second read is made to learn
 * so (a quarter of the calls of a read until 0). With keep, the file stays
 * open in *keep and is read again from offset 0 (pread), where a seq_file
 * makes its text anew: one call instead of open, read and close. */
static int
read_small(int dirfd, const char *name, int *keep, struct tw_buf *b)
{
	int fd, rc = TW_OK;
	off_t off = 0;

	b->len = 0;
	if (keep != NULL && *keep == KEEP_ABSENT)
		return TW_E_ABSENT;
	if (keep != NULL && *keep >= 0) {
		fd = *keep;
	} else {
		fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0) {
			/* Absent stays absent until the next walk reopens. */
			if (keep != NULL && errno == ENOENT)
				*keep = KEEP_ABSENT;
			return errno == ENOENT ? TW_E_ABSENT : TW_E_IO;
		}
		if (keep != NULL)
			*keep = fd;
	}
	for (;;) {
		size_t room;
		ssize_t n;

		if ((rc = tw_buf_reserve(b, b->len + 8192 + 1)) != TW_OK)
			break;
		room = b->cap - b->len - 1;
		n = pread(fd, b->data + b->len, room, off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* EOPNOTSUPP: a pressure file with psi=0; ENODEV: a kept
			 * file of a cgroup since removed. */
			rc = errno == ENODEV ? TW_E_ABSENT : TW_E_IO;
			if (keep != NULL && errno == ENODEV) {
				close(fd);
				*keep = KEEP_GONE;
				keep = NULL;	/* closed: not again below */
				fd = -1;
			}
			break;
		}
		b->len += (size_t)n;
		off += n;
		if ((size_t)n < room)
			break;
		if (b->len > FILE_MAX) {
			rc = TW_E_TOOBIG;
			break;
		}
	}
	if (keep == NULL && fd >= 0)
		close(fd);
	if (rc != TW_OK)
		b->len = 0;
	if (b->data != NULL)
		b->data[b->len] = '\0';
	return rc;
}

/* Fewer than 20 digits, which cannot overflow, summed without
 * tw_parse_u64's checks (memory.current at every sample); 0 for anything
 * else, which tw_parse_u64 then decides. */
static int
short_decimal(const char *s, size_t len, uint64_t *out)
{
	uint64_t n = 0;
	size_t i;

	if (len == 0 || len >= 20)
		return 0;
	for (i = 0; i < len; i++) {
		if ((unsigned)(s[i] - '0') >= 10)
			return 0;
		n = n * 10 + (uint64_t)(s[i] - '0');
	}
	*out = n;
	return 1;
}

/* A one-number file ("67108864", "max"): "max" and a v1 unlimited value
 * leave the field absent. A value that does not parse is one malformed
 * line. */
static void
read_value(int dirfd, const char *name, int *keep, enum tw_cg_field f, struct tw_buf *b,
    struct tw_cgroup *cg, struct tw_parse_stats *ps)
{
	size_t len;
	uint64_t n;

	if (read_small(dirfd, name, keep, b) != TW_OK)
		return;
	ps->lines++;
	len = b->len;
	while (len > 0 && (b->data[len - 1] == '\n' || b->data[len - 1] == ' '))
		len--;
	if (len == 3 && memcmp(b->data, "max", 3) == 0)
		return;
	if (!short_decimal(b->data, len, &n) && tw_parse_u64(b->data, len, &n) != TW_OK) {
		ps->malformed++;
		return;
	}
	if (n < V1_UNLIMITED)
		set(cg, f, n);
}

typedef int file_parser(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps);

static void
read_parsed(int dirfd, const char *name, int *keep, file_parser *parse, struct tw_buf *b,
    struct tw_cgroup *cg, struct tw_parse_stats *ps)
{
	if (read_small(dirfd, name, keep, b) == TW_OK)
		(void)parse(b->data, b->len, cg, ps);
}

static void
read_memstat(int dirfd, const char *name, int *keep, enum tw_cg_version ver, struct tw_buf *b,
    struct tw_cgroup *cg, struct tw_parse_stats *ps)
{
	if (read_small(dirfd, name, keep, b) == TW_OK)
		(void)tw_cgroup_parse_memstat(ver, b->data, b->len, cg, ps);
}

static void
read_psi(int dirfd, const char *name, int *keep, enum tw_cg_field f, struct tw_buf *b,
    struct tw_cgroup *cg, struct tw_parse_stats *ps)
{
	struct tw_psi psi;

	memset(&psi, 0, sizeof(psi));
	if (read_small(dirfd, name, keep, b) == TW_OK &&
	    tw_psi_parse(b->data, b->len, &psi, ps) == TW_OK && psi.has_some)
		set(cg, f, psi.some.avg10);
}

/* Open the cgroup's directory under one hierarchy ("fs/cgroup/memory"). */
static int
open_dir(int sys_fd, const char *hier, const char *path)
{
	char rel[TW_CG_PATH_LEN + 32];

	if (snprintf(rel, sizeof(rel), "%s%s", hier, path) >= (int)sizeof(rel))
		return -1;
	return openat(sys_fd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static void
read_v1_io(int sys_fd, const char *path, struct tw_buf *b, struct tw_cgroup *cg,
    struct tw_parse_stats *ps)
{
	int io;

	/* The blkio hierarchy mirrors the memory one under systemd; where it
	 * does not, the cgroup simply has no I/O figures. */
	if ((io = open_dir(sys_fd, "fs/cgroup/blkio", path)) < 0)
		return;
	if (read_small(io, "blkio.throttle.io_service_bytes_recursive", NULL, b) == TW_OK ||
	    read_small(io, "blkio.throttle.io_service_bytes", NULL, b) == TW_OK)
		(void)tw_cgroup_parse_blkio(b->data, b->len, cg, ps);
	close(io);
}

/* The kept slot of file i, or NULL when nothing is kept. */
#define KEPT(k, i) ((k) != NULL ? &(k)->fd[(i)] : NULL)

/* Where a cgroup's files are: dirfd is the cgroup's directory (sub NULL)
 * or one above it, sub its path from there ("svc.service" from its parent,
 * "system.slice/svc.service" from the hierarchy's root). */
struct at {
	int dirfd;
	const char *sub;
	char name[TW_CG_PATH_LEN + 48];
};

/* The name of file relative to a->dirfd: "file" or "sub/file". By hand:
 * snprintf cost a walk more instructions than parsing what it read. A sub
 * too long for a file name reads nothing (ENAMETOOLONG). */
static const char *
in(struct at *a, const char *file)
{
	size_t slen, flen;

	if (a->sub == NULL)
		return file;
	slen = strlen(a->sub);
	flen = strlen(file);
	if (slen + 1 + flen >= sizeof(a->name))
		return "";
	memcpy(a->name, a->sub, slen);
	a->name[slen] = '/';
	memcpy(a->name + slen + 1, file, flen + 1);
	return a->name;
}

static int
read_in(struct at *a, struct tw_cg_keep *k, int sys_fd, enum tw_cg_version ver,
    const char *path, unsigned what, struct tw_buf *b, struct tw_cgroup *out,
    struct tw_parse_stats *ps)
{
	int fd = a->dirfd;

	out->present = 0;
	memset(out->v, 0, sizeof(out->v));
	if (ver == TW_CG_V2) {
		if (what & TW_CG_READ_HIGH)
			read_value(fd, in(a, "memory.high"), KEPT(k, 6), TW_CG_HIGH, b, out, ps);
		if (what & TW_CG_READ_MAX)
			read_value(fd, in(a, "memory.max"), KEPT(k, 7), TW_CG_MAX, b, out, ps);
		if (what & TW_CG_READ_IO)
			read_parsed(fd, in(a, "io.stat"), KEPT(k, 0), tw_cgroup_parse_iostat, b,
			    out, ps);
		if (what & TW_CG_READ_MEMORY)
			read_value(fd, in(a, "memory.current"), KEPT(k, 1), TW_CG_USAGE, b, out,
			    ps);
		if (what & (TW_CG_READ_MEMORY | TW_CG_READ_STAT))
			read_memstat(fd, in(a, "memory.stat"), KEPT(k, 2), ver, b, out, ps);
		if (what & TW_CG_READ_EVENTS)
			read_parsed(fd, in(a, "memory.events"), KEPT(k, 3), tw_cgroup_parse_events,
			    b, out, ps);
		if (what & TW_CG_READ_PSI) {
			read_psi(fd, in(a, "memory.pressure"), KEPT(k, 4), TW_CG_MEM_PSI, b, out,
			    ps);
			read_psi(fd, in(a, "io.pressure"), KEPT(k, 5), TW_CG_IO_PSI, b, out, ps);
		}
		return TW_OK;
	}
	if (ver != TW_CG_V1)
		return TW_E_INVAL;
	if (what & TW_CG_READ_MAX)
		read_value(fd, in(a, "memory.limit_in_bytes"), KEPT(k, 7), TW_CG_MAX, b, out, ps);
	if (what & TW_CG_READ_MEMORY)
		read_value(fd, in(a, "memory.usage_in_bytes"), KEPT(k, 1), TW_CG_USAGE, b, out,
		    ps);
	if (what & (TW_CG_READ_MEMORY | TW_CG_READ_STAT))
		read_memstat(fd, in(a, "memory.stat"), KEPT(k, 2), ver, b, out, ps);
	if (what & TW_CG_READ_EVENTS)
		read_value(fd, in(a, "memory.failcnt"), KEPT(k, 3), TW_CG_LIMIT_EVENTS, b, out,
		    ps);
	if (what & TW_CG_READ_IO)
		read_v1_io(sys_fd, path, b, out, ps);
	return TW_OK;
}

int
tw_cgroup_read_at(int parent_fd, const char *name, int sys_fd, enum tw_cg_version ver,
    const char *path, unsigned what, struct tw_buf *b, struct tw_cgroup *out,
    struct tw_parse_stats *ps)
{
	struct at a;

	/* Not an initialiser: it would clear name, PATH_MAX bytes a call. */
	a.dirfd = parent_fd;
	a.sub = name;
	return read_in(&a, NULL, sys_fd, ver, path, what, b, out, ps);
}

int
tw_cgroup_read(int sys_fd, enum tw_cg_version ver, const char *path, unsigned what,
    struct tw_buf *b, struct tw_cgroup *out, struct tw_parse_stats *ps)
{
	struct at a;
	int rc;

	if (ver != TW_CG_V1 && ver != TW_CG_V2)
		return TW_E_INVAL;
	a.sub = NULL;
	a.dirfd = open_dir(sys_fd, ver == TW_CG_V1 ? "fs/cgroup/memory" : "fs/cgroup", path);
	if (a.dirfd < 0)
		return TW_E_ABSENT;
	rc = read_in(&a, NULL, sys_fd, ver, path, what, b, out, ps);
	close(a.dirfd);
	return rc;
}

/* Whether fd is on the cgroup filesystem, v1 or v2 (linux/magic.h). */
#define CGROUP_MAGIC 0x27e0ebL
#define CGROUP2_MAGIC 0x63677270L

static int
on_cgroupfs(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 &&
	    ((long)sf.f_type == CGROUP_MAGIC || (long)sf.f_type == CGROUP2_MAGIC);
}

void
tw_cg_keep_init(struct tw_cg_keep *k)
{
	size_t i;

	k->dir = -1;
	k->check_links = 1;
	for (i = 0; i < TW_CG_KEEP_FILES; i++)
		k->fd[i] = KEEP_UNOPENED;
}

void
tw_cg_keep_close(struct tw_cg_keep *k)
{
	size_t i;

	if (k->dir >= 0)
		close(k->dir);
	for (i = 0; i < TW_CG_KEEP_FILES; i++)
		if (k->fd[i] >= 0)
			close(k->fd[i]);
	tw_cg_keep_init(k);
}

int
tw_cgroup_read_kept(int sys_fd, enum tw_cg_version ver, const char *path, unsigned what,
    struct tw_cg_keep *k, struct tw_buf *b, struct tw_cgroup *out, struct tw_parse_stats *ps)
{
	struct at a;
	struct stat st;
	size_t i;
	int rc;

	if (ver != TW_CG_V1 && ver != TW_CG_V2)
		return TW_E_INVAL;
	if (k->dir < 0) {
		k->dir = open_dir(sys_fd, ver == TW_CG_V1 ? "fs/cgroup/memory" : "fs/cgroup",
		    path);
		if (k->dir < 0)
			return TW_E_ABSENT;
		k->check_links = !on_cgroupfs(k->dir);
	} else if (k->check_links && (fstat(k->dir, &st) != 0 || st.st_nlink == 0)) {
		/* Removed since: a removed directory has no links, and its
		 * kept files would still read. Only off the cgroup filesystem
		 * (a test's or a benchmark's tree): there a removed cgroup's
		 * files fail with ENODEV (below) and its directory keeps its
		 * 2 links, so the call would be one a sample for nothing. */
		tw_cg_keep_close(k);
		return TW_E_ABSENT;
	}
	a.dirfd = k->dir;
	a.sub = NULL;
	rc = read_in(&a, k, sys_fd, ver, path, what, b, out, ps);
	for (i = 0; i < TW_CG_KEEP_FILES; i++)
		if (k->fd[i] == KEEP_GONE) {
			tw_cg_keep_close(k);
			return TW_E_ABSENT;
		}
	return rc;
}
