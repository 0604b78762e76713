/* SPDX-License-Identifier: ISC */
/* A socket's receive buffer, from the kernel's socket diagnostics
 * (NETLINK_SOCK_DIAG, INET_DIAG_SKMEMINFO): what `ss -u -a -m` prints as
 * rb (sk_rcvbuf: the buffer, after the kernel doubled what SO_RCVBUF asked
 * for) and r (sk_rmem_alloc: what the queued datagrams hold now).
 *
 * One dump of a protocol's sockets answers for all of them; they are
 * matched by inode. The kernel may refuse (no udp_diag module, a
 * seccomp or LSM policy, a kernel built without sock_diag): then the
 * buffers are unknown, which is no error of the caller's. */
#ifndef TW_SOCKDIAG_H
#define TW_SOCKDIAG_H

#include <stddef.h>
#include <stdint.h>

struct tw_sock_mem {
	uint32_t inode;		/* the socket asked about */
	int have;		/* the kernel answered for it */
	uint32_t rcvbuf;	/* bytes: sk_rcvbuf */
	uint32_t rmem_alloc;	/* bytes queued: sk_rmem_alloc */
};

/* Fill mem[n] (sorted by inode, unique) for the sockets of one protocol
 * (enum tw_udp_proto). TW_OK (sockets not found keep have 0), TW_E_ACCESS
 * when the kernel refuses, TW_E_ABSENT when it cannot answer for this
 * protocol, TW_E_IO for anything else, TW_E_INVAL for a bad protocol. */
int tw_sockdiag_query(unsigned proto, struct tw_sock_mem *mem, size_t n);

/* Append the sockets of one protocol whose drops are not 0 to out
 * (unsorted), each with its buffer, from one dump with their memory (its
 * SK_MEMINFO_DROPS is the drops column of /proc/net/udp): one walk of the
 * kernel's table, where /proc/net/udp's text restarts its walk for every
 * page it prints (measured here with 5,000 sockets: 2.95 ms of CPU for the
 * dump, 23.8 ms for the file). out->seen counts every socket. TW_OK, or
 * tw_sockdiag_query's errors, and TW_E_ABSENT also for a kernel that
 * gives no drops count. */
struct tw_udp_set;
int tw_sockdiag_read(unsigned proto, struct tw_udp_set *out);

/* tw_sockdiag_read of all four protocols into out (cleared first, then
 * sorted by key, as tw_udpsock_read_all does); an error only where UDP's
 * own dump fails, a protocol the kernel has not (IPv6, UDP-Lite) adding
 * nothing. */
int tw_sockdiag_read_all(struct tw_udp_set *out);

/* Every TCP listener (IPv4 and IPv6) handed to fn: its owner, local port,
 * accept queue and backlog, from one dump a family (TCP_LISTEN, state
 * 10). TW_OK, or tw_sockdiag_query's errors. */
typedef void tw_listener_fn(void *ctx, uint32_t uid, unsigned port, uint32_t queued,
    uint32_t backlog);
int tw_sockdiag_listeners(tw_listener_fn *fn, void *ctx);

/* Walk one buffer of the kernel's answers into mem: 1 at the end of the
 * dump, 0 for more to come, or a TW_E_* error the kernel sent. Apart so
 * that tests can hand it made-up answers. */
int tw_sockdiag_parse(const void *buf, size_t len, struct tw_sock_mem *mem, size_t n);

#endif
