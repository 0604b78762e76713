/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "sample/poolclass.h"

#include "collect/sockstat.h"

/* Where each class's figures come from is told in TUNEWATCH-MIB's
 * TwDblockClassType; keep the two in step. */
const struct tw_pool_class tw_pool_classes[] = {
	{
		.id = TW_DBLOCK_SOFTNET_BACKLOG, .per = TW_POOL_PER_CPU, .name = "backlog",
		.tunable = TW_SYSCTL_NET_CORE_NETDEV_MAX_BACKLOG, .limit_field = 0,
		.failure_bits = 32,
		.event = "packet dropped: the CPU's input queue was full",
		.sock_in_use = -1,
	},
	{
		.id = TW_DBLOCK_SOFTNET_BUDGET, .per = TW_POOL_PER_CPU, .name = "budget",
		.tunable = TW_SYSCTL_NET_CORE_NETDEV_BUDGET, .limit_field = 0,
		.failure_bits = 32,
		.event = "receive softirq ran out of budget with packets left (time_squeeze)",
		.sock_in_use = -1,
	},
	{
		.id = TW_DBLOCK_TCP_MEMORY, .per = TW_POOL_PER_HOST, .name = "tcp memory",
		.tunable = TW_SYSCTL_NET_IPV4_TCP_MEM, .limit_field = 2,
		.size_pages = 1, .failure_bits = 64,
		.event = "TCP entered memory pressure and shrank socket buffers",
		.proto = "TcpExt", .counters = (const char *const[]){ "TCPMemoryPressures", NULL },
		.sock_in_use = TW_SOCK_TCP_MEM, .tcp_pressure = 1,
	},
	{
		/* UDP has no memory-pressure state, so the kernel refuses
		 * memory above udp_mem's first value (sock.c,
		 * __sk_mem_raise_allocated): that is the limit. Measured
		 * here: at "512 8192 16384" UDP held at most 572 pages. */
		.id = TW_DBLOCK_UDP_MEMORY, .per = TW_POOL_PER_HOST, .name = "udp memory",
		.tunable = TW_SYSCTL_NET_IPV4_UDP_MEM, .limit_field = 0,
		.size_pages = 1, .failure_bits = 64,
		.event = "datagram dropped: UDP memory limit reached",
		.proto = "Udp", .counters = (const char *const[]){ "MemErrors", NULL },
		.sock_in_use = TW_SOCK_UDP_MEM, .udp_uncounted = 1,
	},
	{
		.id = TW_DBLOCK_UDP_RCVBUF, .per = TW_POOL_PER_HOST, .name = "udp receive buffer",
		.tunable = TW_SYSCTL_NET_CORE_RMEM_MAX, .limit_field = 0,
		.failure_bits = 64,
		.event = "datagram dropped: socket receive buffer full",
		.proto = "Udp", .counters = (const char *const[]){ "RcvbufErrors", NULL },
		.sock_in_use = -1,
	},
	{
		.id = TW_DBLOCK_UDP_SNDBUF, .per = TW_POOL_PER_HOST, .name = "udp send buffer",
		.tunable = TW_SYSCTL_NET_CORE_WMEM_MAX, .limit_field = 0,
		.failure_bits = 64,
		.event = "datagram not sent: socket send buffer full",
		.proto = "Udp", .counters = (const char *const[]){ "SndbufErrors", NULL },
		.sock_in_use = -1,
	},
	{
		.id = TW_DBLOCK_TCP_RCVBUF, .per = TW_POOL_PER_HOST, .name = "tcp receive buffer",
		.tunable = TW_SYSCTL_NET_IPV4_TCP_RMEM, .limit_field = 2,
		.failure_bits = 64,
		.event = "segment dropped: receive queue over its buffer",
		.proto = "TcpExt",
		.counters = (const char *const[]){
			"RcvPruned", "OfoPruned", "TCPRcvQDrop", "TCPBacklogDrop", NULL
		},
		.sock_in_use = -1,
	},
	{
		.id = TW_DBLOCK_TCP_LISTEN, .per = TW_POOL_PER_HOST, .name = "tcp listen queue",
		.tunable = TW_SYSCTL_NET_CORE_SOMAXCONN, .limit_field = 0,
		.failure_bits = 64,
		.event = "connection dropped: accept queue full",
		.proto = "TcpExt", .counters = (const char *const[]){ "ListenOverflows", NULL },
		.sock_in_use = -1,
	},
	{
		/* Free high-order blocks of one zone: no failure of its own
		 * (compaction failures are system-wide, below). */
		.id = TW_DBLOCK_BUDDY_ZONE, .per = TW_POOL_PER_ZONE, .name = NULL,
		.tunable = TW_SYSCTL_VM_MIN_FREE_KBYTES, .limit_field = TW_POOL_NO_LIMIT,
		.size_pages = 8, .failure_bits = 64,
		.event = "",
		.sock_in_use = -1,
	},
	{
		.id = TW_DBLOCK_HIGH_ORDER, .per = TW_POOL_PER_HOST, .name = "high-order pages",
		.tunable = TW_SYSCTL_VM_MIN_FREE_KBYTES, .limit_field = TW_POOL_NO_LIMIT,
		.size_pages = 8, .failure_bits = 64,
		.event = "compaction failed to make a high-order block",
		.sock_in_use = -1,
	},
};

const size_t tw_pool_nclasses = sizeof(tw_pool_classes) / sizeof(tw_pool_classes[0]);

const struct tw_pool_class *
tw_pool_class_find(uint32_t id)
{
	size_t i;

	for (i = 0; i < tw_pool_nclasses; i++)
		if (tw_pool_classes[i].id == id)
			return &tw_pool_classes[i];
	return NULL;
}
