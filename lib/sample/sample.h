/* SPDX-License-Identifier: ISC */
/* A sample: one snapshot of every collector, with a monotonic timestamp.
 *
 * A source that could not be read in this sample (absent on this kernel,
 * vanished, unreadable) has its bit clear in `have` and its reason in
 * err[]; its data is empty. Disks are only those the device filter keeps,
 * sorted by (major, minor), each with its queue tunables. */
#ifndef TW_SAMPLE_H
#define TW_SAMPLE_H

#include <stdint.h>

#include "collect/blockident.h"
#include "collect/blockqueue.h"
#include "collect/buddyinfo.h"
#include "collect/diskstats.h"
#include "collect/meminfo.h"
#include "collect/netstat.h"
#include "collect/pressure.h"
#include "collect/procio.h"
#include "collect/protocols.h"
#include "util/scan.h"
#include "collect/sockstat.h"
#include "collect/softnet.h"
#include "collect/sysctl.h"
#include "collect/vmstat.h"
#include "sample/cgroups.h"

enum tw_source {
	TW_SRC_DISKSTATS,
	TW_SRC_MEMINFO,
	TW_SRC_VMSTAT,
	TW_SRC_PSI_MEMORY,
	TW_SRC_PSI_IO,
	TW_SRC_PROCIO,
	TW_SRC_SOFTNET,
	TW_SRC_SOCKSTAT,
	TW_SRC_NETSTAT,
	TW_SRC_BUDDYINFO,
	TW_SRC_SYSCTL,
	TW_SRC_CGROUPS,
	TW_SRC_PROTOCOLS,
	TW_SRC_COUNT
};

#define TW_SRC_BIT(src) (UINT32_C(1) << (src))

struct tw_sample {
	uint64_t mono_ms;		/* CLOCK_MONOTONIC, milliseconds */
	uint32_t have;			/* TW_SRC_BIT of each source read */
	int err[TW_SRC_COUNT];		/* TW_OK, or why the source is missing */
	struct tw_disk_set disks;	/* kept devices, sorted by (major, minor) */
	struct tw_queue *queues;	/* parallel to disks.disks */
	size_t queues_cap;
	struct tw_blockident *idents;	/* parallel to disks.disks: names, type */
	size_t idents_cap;
	struct tw_meminfo mem;
	struct tw_vmstat vm;
	struct tw_psi psi_memory;
	struct tw_psi psi_io;
	struct tw_proc_io_set procs;
	struct tw_softnet_set softnet;
	struct tw_sockstat sock;
	struct tw_netstat_set net;
	struct tw_protocols protos;
	/* TCP's time in memory pressure, the episode under way included
	 * (sample/pressureclock.h); have_tcp_pressure 0: not known. */
	int have_tcp_pressure;
	uint64_t tcp_pressure_ms;
	/* UDP sockets' drops that no Udp counter counted, since the socket
	 * watch began (sockets/sockwatch.h: datagrams Linux 6.18 drops at
	 * udp_mem); have_udp_uncounted 0: not known. */
	int have_udp_uncounted;
	uint64_t udp_uncounted;
	struct tw_buddy_set buddy;
	struct tw_sysctl_set sysctl;
	struct tw_sample_cgroups cgroups;	/* published cgroups, sorted by index */
	uint32_t page_size;		/* bytes, for pools counted in pages */
	struct tw_parse_stats parse;	/* this sample's lines and malformed ones */
};

void tw_sample_init(struct tw_sample *s);
void tw_sample_free(struct tw_sample *s);
/* Empty every source, keeping allocations for reuse. */
void tw_sample_clear(struct tw_sample *s);
/* Make room for n queue and ident entries; the idents start empty (no
 * alias, no identifier, type unknown) for callers that know none. */
int tw_sample_reserve_queues(struct tw_sample *s, size_t n);

#endif
