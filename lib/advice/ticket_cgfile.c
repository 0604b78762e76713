/* SPDX-License-Identifier: ISC */
#include "config.h"

/* A cgroup's directory as the host mounts it, the subject of its finding,
 * and the write to a plain cgroup's limit file, the command its ticket
 * gives. The path is whatever a delegated user named their cgroups, and
 * the command is pasted into a root shell, so it is written only where
 * every byte is one no shell reads specially: letters, digits and
 * "/._-:@+", never a "." or ".." component; anything else is refused,
 * not quoted. */

#include "advice/ticket.h"

#include <string.h>

#include "util/error.h"
#include "util/strwriter.h"

/* Where Debian, and systemd everywhere, mount the hierarchies: the
 * unified one at the top, v1's memory controller in a directory of its
 * own. */
#define CGROUP_V2_MOUNT "/sys/fs/cgroup"
#define CGROUP_V1_MEMORY_MOUNT "/sys/fs/cgroup/memory"

static const char *
mount_of(int version)
{
	return version == 1 ? CGROUP_V1_MEMORY_MOUNT : CGROUP_V2_MOUNT;
}

int
tw_ticket_subject_cgroup(char *buf, size_t len, int version, const char *path)
{
	struct tw_strwriter w;

	if (buf == NULL || len == 0)
		return TW_E_TOOBIG;
	buf[0] = '\0';
	if (path == NULL || path[0] != '/')
		return TW_E_INVAL;
	tw_strwriter_init(&w, buf, len);
	tw_strwriter_printf(&w, "%s%s", mount_of(version), strcmp(path, "/") == 0 ? "" : path);
	return tw_strwriter_finish(&w);
}

static int
safe_path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    (c != '\0' && strchr("/._-:@+", c) != NULL);
}

int
tw_ticket_safe_cgroup_path(const char *path)
{
	const char *p;

	if (path == NULL || path[0] != '/' || path[1] == '\0')
		return 0;
	for (p = path; *p != '\0'; p++)
		if (!safe_path_char(*p))
			return 0;
	/* Components, each non-empty and none "." or "..": the file is the
	 * cgroup's own, never one above it. */
	for (p = path; *p != '\0';) {
		size_t n;

		p++;
		n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		p += n;
	}
	return 1;
}

/* The limit files tunewatch reads a limit from (collect/cgroupread.h). */
static int
limit_file(int version, const char *file)
{
	if (file == NULL)
		return 0;
	if (version == 1)
		return strcmp(file, "memory.limit_in_bytes") == 0;
	return strcmp(file, "memory.high") == 0 || strcmp(file, "memory.max") == 0;
}

int
tw_ticket_apply_cgroup_file(char *buf, size_t len, int version, const char *path,
    const char *file, uint64_t bytes)
{
	struct tw_strwriter w;

	if (buf == NULL || len == 0)
		return TW_E_TOOBIG;
	buf[0] = '\0';
	if (bytes == 0)
		return TW_E_ABSENT;
	if ((version != 1 && version != 2) || !limit_file(version, file) ||
	    !tw_ticket_safe_cgroup_path(path))
		return TW_E_INVAL;
	tw_strwriter_init(&w, buf, len);
	tw_strwriter_printf(&w, "echo %llu > %s%s/%s", (unsigned long long)bytes, mount_of(version),
	    path, file);
	return tw_strwriter_finish(&w);
}
