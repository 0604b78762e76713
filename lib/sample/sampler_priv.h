/* SPDX-License-Identifier: ISC */
/* What the sampler keeps between samples, shared by sampler.c (opening,
 * closing, one sample of every source) and sampler_disks.c (the disk
 * registry: which devices, their queues and names). Private to
 * lib/sample. */
#ifndef TW_SAMPLE_SAMPLER_PRIV_H
#define TW_SAMPLE_SAMPLER_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "sample/pressureclock.h"
#include "sample/sampler.h"
#include "util/namefilter.h"
#include "util/readfile.h"

/* What the sampler remembers of a device between samples. */
struct tw_dev {
	uint64_t key;		/* tw_disk_key() */
	char raw_name[TW_DISK_NAME_LEN];	/* the kernel's: its sysfs directory */
	int pass;		/* the filter's decision, made once */
	int path;		/* a path of a multipath head that is present */
	int keep;		/* pass and not path */
	struct tw_queue queue;
	struct tw_blockident ident;
};

struct tw_sampler {
	struct tw_roots roots;
	struct tw_namefilter filter;
	struct tw_buf scratch;
	struct tw_dev *devs;	/* sorted by key */
	size_t ndevs;
	size_t devs_cap;
	struct tw_dev *spare;
	size_t spare_cap;
	size_t cursor;		/* next device whose queue is re-read */
	unsigned queue_refresh;
	int hide_paths;		/* the default filter: hide multipath paths */
	int paths_stale;	/* devices came, went or changed type */
	int procio;
	int32_t self_pid;
	uint32_t page_size;
	struct tw_cgroups *cgroups;	/* NULL: not read */
	struct tw_pressure_clock tcp_pressure;
};

/* The disks of sample s: /proc/diskstats with the registry's filter,
 * queues and names (sampler_disks.c). */
int tw_sampler_disks(struct tw_sampler *sp, struct tw_sample *s);

#endif
