/* SPDX-License-Identifier: ISC */
/* A socket that dropped (a row of twSocketDropTable), its figures each in
 * its natural unit. A figure the source did not give is TW_FIG_NONE
 * (figures/fig.h), an integer -1, a string NULL; but proto_name and
 * address, the row's identity, are never NULL ("" when the source gave
 * none). Strings point into the row the record was made from. */
#ifndef TW_FIGURES_SOCKET_RECORD_H
#define TW_FIGURES_SOCKET_RECORD_H

#include <stdint.h>

#include "figures/fig.h"

struct tw_socket_record {
	uint32_t proto;			/* the row's index: enum tw_udp_proto */
	uint32_t inode;
	const char *proto_name;		/* "udp", "udp6"; "" when none */
	const char *address;		/* the local address, shown; "" when none */
	int64_t port;
	double drops;			/* datagrams, since the socket was made */
	double recent_drops;		/* datagrams, in the window */
	double rx_queue_bytes;
	const char *command;		/* the owner's comm, shown, or NULL */
	int64_t pid;			/* the owner's, or -1 */
	int64_t owner_search;		/* enum tw_owner_state, or -1 */
	uint64_t searches_cut;		/* owner searches cut short */
	double rcvbuf_bytes;		/* SO_RCVBUF */
	double rmem_alloc_bytes;
	double rmem_max_bytes;		/* net.core.rmem_max when it was read */
	int64_t uid;			/* the socket's owner, or -1 */
	/* Every socket of that owner that dropped in the window, published
	 * or not (a user's past TW_VIEW_SOCKS_PER_USER are not), and their
	 * drops in it. */
	double uid_sockets;
	double uid_recent_drops;	/* datagrams */
	/* Over the window's intervals in which it dropped, by their drops
	 * (sockets/sockbusy.h): its owner's threads on a CPU and waiting for
	 * one, percent of one CPU; the share of the drops in those that
	 * began or ended with its queue at least half its buffer, percent. */
	double owner_cpu;
	double owner_cpu_wait;
	double full_share;
};

/* Every figure absent; the identity's strings "". */
static inline void
tw_socket_record_init(struct tw_socket_record *f)
{
	*f = (struct tw_socket_record){
		.proto_name = "", .address = "", .port = -1, .drops = TW_FIG_NONE,
		.recent_drops = TW_FIG_NONE, .rx_queue_bytes = TW_FIG_NONE, .pid = -1,
		.owner_search = -1, .searches_cut = TW_FIG_NO_COUNT, .rcvbuf_bytes = TW_FIG_NONE,
		.rmem_alloc_bytes = TW_FIG_NONE, .rmem_max_bytes = TW_FIG_NONE, .uid = -1,
		.uid_sockets = TW_FIG_NONE, .uid_recent_drops = TW_FIG_NONE,
		.owner_cpu = TW_FIG_NONE, .owner_cpu_wait = TW_FIG_NONE, .full_share = TW_FIG_NONE,
	};
}

#endif
