/* SPDX-License-Identifier: ISC */
/* The sampler: takes samples of every collector from one proc and sys
 * root, keeping what can be kept between samples (the device registry with
 * each device's filter decision and queue tunables, one scratch buffer).
 *
 * Queue tunables change rarely and cost five file reads per device, so a
 * device's are read when it first appears and then re-read in turn, a slice
 * of the devices per sample (64 to 128 devices), so that the cost of a
 * sample stays flat with thousands of disks. A device's names and type
 * (collect/blockident.h) are read and re-read with its queue.
 *
 * With the default exclusion, the paths of a dm-multipath head that is
 * present (its slaves) are left out as well: the head carries their I/O. */
#ifndef TW_SAMPLER_H
#define TW_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "sample/sample.h"

/* By default loop, ram and zram devices and partitions are left out, as
 * node_exporter does: they either mirror a whole disk's figures or carry
 * none worth alerting on. */
#define TW_DISK_EXCLUDE_DEFAULT \
	"^(ram|zram|loop|fd)[0-9]+$|^(h|s|v|xv)d[a-z]+[0-9]+$|" \
	"^nvme[0-9]+n[0-9]+p[0-9]+$|^mmcblk[0-9]+p[0-9]+$|^md[0-9]+p[0-9]+$"

struct tw_sampler_config {
	const char *proc_root;		/* NULL: "/proc" */
	const char *sys_root;		/* NULL: "/sys" */
	const char *disk_include;	/* ERE, NULL: all */
	const char *disk_exclude;	/* ERE, NULL: TW_DISK_EXCLUDE_DEFAULT */
	int procio;			/* read /proc/[pid]/io for the hit ratio */
	unsigned queue_refresh;		/* samples over which every device's queue is
					 * re-read (longer beyond 128 devices a
					 * sample); 0 or 1: every sample */
	/* UDP sockets that drop (sockets/sockwatch.h), followed by the
	 * monitor beside the sampler. */
	unsigned sock_owner_procs;	/* processes the owner search reads; 0:
					 * TW_SOCK_OWNER_PROCS_DEFAULT */
	unsigned sock_owner_budget_ms;	/* CPU time a sample's run of it may
					 * take; 0: no bound */
	int sock_no_diag;		/* do not ask sock_diag for buffers */
	size_t cgroup_max;		/* cgroups published, busiest first; 0:
					 * TW_CGROUPS_MAX_DEFAULT */
	unsigned cgroup_rescan;		/* samples between walks of the cgroup
					 * hierarchy (sample/cgroups.h); 0 or 1:
					 * every sample */
	int no_cgroups;			/* read no cgroups at all */
};

struct tw_sampler;

/* TW_E_ABSENT when proc_root cannot be opened, TW_E_INVAL for a bad
 * filter; err gets a one-line reason. */
int tw_sampler_open(struct tw_sampler **out, const struct tw_sampler_config *cfg,
    char *err, size_t errlen);
void tw_sampler_close(struct tw_sampler *sp);

/* The proc root the sampler reads, for readers that follow it (the socket
 * watcher): opened once, before tunewatchd gives up root. */
int tw_sampler_proc_fd(const struct tw_sampler *sp);

/* Take one sample into s (cleared first). Sources that cannot be read are
 * marked missing in s; the call fails only with TW_E_NOMEM. */
int tw_sampler_take(struct tw_sampler *sp, struct tw_sample *s);

#endif
