/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/cgroupread.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"

enum tw_cg_version
tw_cgroup_detect(int sys_fd)
{
	char ctl[256];
	struct stat st;

	if (sys_fd < 0)
		return TW_CG_NONE;
	if (fstatat(sys_fd, "fs/cgroup/memory/memory.stat", &st, 0) == 0)
		return TW_CG_V1;
	if (tw_read_value_at(sys_fd, "fs/cgroup/cgroup.controllers", ctl, sizeof(ctl)) == TW_OK) {
		char *tok, *save = NULL;

		for (tok = strtok_r(ctl, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
			if (strcmp(tok, "memory") == 0 || strcmp(tok, "io") == 0)
				return TW_CG_V2;
	}
	return TW_CG_NONE;
}

struct walk {
	tw_cgroup_visit *visit;
	void *ctx;
	struct tw_cg_cuts *cuts;
	size_t visited;
	char path[TW_CG_PATH_LEN];
};

/* Whether a directory surely has no subdirectories: a directory's links
 * are 2 plus its subdirectories on the cgroup filesystem (kernfs), on tmpfs
 * and ext4, so 2 says so, where reading the directory would list its
 * 30-odd control files (open, two getdents64, close): most cgroups are
 * leaves. Filesystems that do not count (btrfs, overlayfs' merged
 * directories say 1) are read. */
static int
leaf(const struct stat *st)
{
	return st->st_nlink == 2;
}

/* Whether name in fd is a directory (a cgroup); its stat in *st. */
static int
dir_at(int fd, const char *name, struct stat *st)
{
	return fstatat(fd, name, st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st->st_mode);
}

/* Whether a cgroup at depth, whose path would be plen bytes long, is past
 * one of the walk's bounds; counted, with its reason, when it is. */
static int
cut(struct walk *w, unsigned depth, size_t plen)
{
	if (w->visited >= TW_CG_SCAN_MAX)
		w->cuts->too_many++;
	else if (depth >= TW_CG_DEPTH_MAX)
		w->cuts->too_deep++;
	else if (plen >= sizeof(w->path))
		w->cuts->too_long++;
	else
		return 0;
	return 1;
}

/* Depth-first below fd, whose path is w->path (of length len). The
 * directory descriptor is closed here. A cgroup is looked at through fd
 * (fstatat, and visit reads "name/file"): a leaf, most of them, is never
 * opened itself. Recursion holds a directory open a level, at most
 * TW_CG_DEPTH_MAX; the whole walk stops at TW_CG_SCAN_MAX. */
static int
walk_dir(struct walk *w, int fd, size_t len, unsigned depth, int quiet)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	int rc = TW_OK;

	if (d == NULL) {
		close(fd);
		return TW_OK;
	}
	while (rc == TW_OK && (de = readdir(d)) != NULL) {
		size_t nlen = strlen(de->d_name);
		struct stat st;
		int sub, q = quiet, known = 0;

		/* A name that starts with '.' is a cgroup like any other (mkdir
		 * takes ".hidden"); only the directory itself and its parent
		 * are not. */
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		/* Every entry but a cgroup is a control file: only directories
		 * are cgroups. Filesystems without d_type say DT_UNKNOWN, and
		 * only a stat tells. */
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (de->d_type == DT_UNKNOWN) {
			if (!dir_at(dirfd(d), de->d_name, &st))
				continue;
			known = 1;
		}
		if (cut(w, depth, len + 1 + nlen))
			continue;
		if (!known && !dir_at(dirfd(d), de->d_name, &st))
			continue;
		w->path[len] = '/';
		memcpy(w->path + len + 1, de->d_name, nlen + 1);
		w->visited++;
		rc = w->visit(w->ctx, dirfd(d), de->d_name, w->path, (uint64_t)st.st_ino, &q);
		if (rc == TW_OK && !leaf(&st)) {
			sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (sub >= 0)
				rc = walk_dir(w, sub, len + 1 + nlen, depth + 1, q);
		}
		w->path[len] = '\0';
	}
	closedir(d);
	return rc;
}

int
tw_cgroup_open_hierarchy(int sys_fd, enum tw_cg_version ver)
{
	if (sys_fd < 0 || (ver != TW_CG_V1 && ver != TW_CG_V2))
		return -1;
	return openat(sys_fd, ver == TW_CG_V1 ? "fs/cgroup/memory" : "fs/cgroup",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

int
tw_cgroup_walk(int sys_fd, enum tw_cg_version ver, tw_cgroup_visit *visit, void *ctx,
    struct tw_cg_cuts *cuts, size_t *visited)
{
	struct walk *w;
	int fd, rc;

	if (visited != NULL)
		*visited = 0;
	if (ver == TW_CG_NONE || sys_fd < 0)
		return TW_E_ABSENT;
	fd = tw_cgroup_open_hierarchy(sys_fd, ver);
	if (fd < 0)
		return TW_E_ABSENT;
	/* On the heap: the path buffer is PATH_MAX long. */
	if ((w = calloc(1, sizeof(*w))) == NULL) {
		close(fd);
		return TW_E_NOMEM;
	}
	w->visit = visit;
	w->ctx = ctx;
	w->cuts = cuts;
	rc = walk_dir(w, fd, 0, 0, 0);
	if (visited != NULL)
		*visited = w->visited;
	free(w);
	return rc;
}
