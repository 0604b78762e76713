/* SPDX-License-Identifier: ISC */
/* cgroup_io_grow: make every cgroup of a fixture's v2 hierarchy do I/O,
 * for bench/sample_cost --cgroups-busy: the walk's worst case, where no
 * subtree's io.stat sum is the last walk's and every io.stat is read.
 *
 * Each cgroup that has an io.stat gets tick * 4096 bytes read of its own,
 * and its io.stat holds that plus its descendants' (the kernel sums v2
 * io.stat up the tree). The file is rewritten in place, so descriptors a
 * sampler keeps open on it read the new text. Called between timed
 * samples: its cost is not the sampler's. */
#include "config.h"

#include "cgroup_io_grow.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* Depth-first below dir (open, closed here); the cgroups in the subtree,
 * dir's own included, go to *count. -1 on a write that failed. */
static int
grow_dir(int dir, unsigned long tick, unsigned long *count)
{
	DIR *d = fdopendir(dir);
	struct dirent *de;
	unsigned long below = 0;
	char line[160];
	int fd, rc = 0, len;

	if (d == NULL) {
		close(dir);
		return -1;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		unsigned long n = 0;
		int sub;

		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
			continue;
		sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sub < 0)
			continue;
		rc = grow_dir(sub, tick, &n);
		below += n;
	}
	*count = below + 1;
	fd = rc == 0 ? openat(dirfd(d), "io.stat", O_WRONLY | O_TRUNC | O_CLOEXEC) : -1;
	if (fd >= 0) {
		len = snprintf(line, sizeof(line),
		    "254:0 rbytes=%lu wbytes=0 rios=%lu wios=0 dbytes=0 dios=0\n",
		    tick * 4096ul * *count, tick * *count);
		if (write(fd, line, (size_t)len) != len)
			rc = -1;
		close(fd);
	}
	closedir(d);
	return rc;
}

int
cgroup_io_grow(const char *sys_root, unsigned long tick)
{
	char path[4096];
	unsigned long n;
	int fd;

	if (snprintf(path, sizeof(path), "%s/fs/cgroup", sys_root) >= (int)sizeof(path))
		return -1;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	return grow_dir(fd, tick, &n);
}
