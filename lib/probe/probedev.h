/* SPDX-License-Identifier: ISC */
/* Which block device a probe line means, and what sysfs says of it now.
 *
 * A line names a device the way an administrator knows it: a kernel name,
 * a path under /dev (a /dev/disk/by-id link), or an alias as twDiskAlias
 * has it (blockident.h). The probe set resolves it again at every sample,
 * so that a device that vanishes, or another put in its place under the
 * same name (a new major:minor, or a new diskseq: a loop device attached
 * to another file), is seen. */
#ifndef TW_PROBEDEV_H
#define TW_PROBEDEV_H

#include <stdint.h>

#define TW_PROBEDEV_NAME_LEN 64

struct tw_probedev {
	char name[TW_PROBEDEV_NAME_LEN];	/* kernel name: "sdb", "dm-3" */
	uint32_t major, minor;
	uint64_t diskseq;	/* 0 when the kernel has none (before 5.15) */
	int rotational;		/* 1, 0, or -1 when unknown */
	uint64_t ios;		/* reads + writes completed, from block/<dev>/stat */
	int has_ios;
};

/* Resolve spec under sys_fd (the sys root). TW_OK, or TW_E_ABSENT when no
 * whole block device answers to it. */
int tw_probedev_resolve(int sys_fd, const char *spec, struct tw_probedev *out);

/* "8:16" into major and minor. TW_OK or TW_E_INVAL. */
int tw_probedev_parse_dev(const char *text, uint32_t *major, uint32_t *minor);

/* block/<dev>/stat: reads completed (field 1) plus writes completed (field
 * 5). TW_OK or TW_E_INVAL. */
int tw_probedev_parse_stat(const char *text, uint64_t *ios);

#endif
