/* SPDX-License-Identifier: ISC */
/* /proc/net/udp, udp6, udplite and udplite6: one line per socket, with
 * the count of datagrams the kernel dropped on it (the last column,
 * sk_drops: mostly a full receive buffer) beside its local address and
 * port, receive queue and inode.
 *
 * Only sockets whose drops are not 0 are kept: the others have nothing to
 * tell, and a busy host has tens of thousands of them. Every line is still
 * checked and counted, so a malformed one is counted wherever it is. */
#ifndef TW_UDPSOCK_H
#define TW_UDPSOCK_H

#include <stddef.h>
#include <stdint.h>

#include "util/readfile.h"
#include "util/scan.h"

/* Which file a socket is in; the values are TUNEWATCH-MIB's
 * twSockDropProtocol. */
enum tw_udp_proto {
	TW_UDP_UDP = 1,		/* net/udp */
	TW_UDP_UDP6 = 2,	/* net/udp6 */
	TW_UDP_LITE = 3,	/* net/udplite */
	TW_UDP_LITE6 = 4,	/* net/udplite6 */
};
#define TW_UDP_NPROTO 4

struct tw_udp_sock {
	uint32_t inode;		/* sockfs inodes are 32-bit; 0: a kernel socket */
	uint32_t drops;		/* the kernel keeps it in 32 bits and lets it wrap */
	uint32_t rx_queue;	/* bytes waiting to be read */
	uint32_t uid;		/* the socket's owner (who made it) */
	/* The buffer, when the reading had it (collect/sockdiag.h). */
	uint8_t have_mem;
	uint32_t rcvbuf;	/* bytes: sk_rcvbuf */
	uint32_t rmem_alloc;	/* bytes queued */
	uint16_t port;		/* local port */
	uint8_t proto;		/* enum tw_udp_proto */
	uint8_t addr[16];	/* local address, network order; 4 bytes for IPv4 */
};

struct tw_udp_set {
	struct tw_udp_sock *socks;	/* the sockets that dropped, sorted by
					 * tw_udp_key() */
	size_t count;
	size_t cap;
	uint64_t seen;			/* every socket read, dropped or not */
	/* The sort's own room, kept from sort to sort (collect/udpsort.c). */
	struct tw_udp_sock *spare;
	size_t spare_cap;
	uint64_t *order;
	size_t order_cap;
};

void tw_udp_set_init(struct tw_udp_set *s);
void tw_udp_set_free(struct tw_udp_set *s);

/* (protocol, inode): unique on a host, since sockfs numbers its inodes
 * once for every socket. */
static inline uint64_t
tw_udp_key(const struct tw_udp_sock *s)
{
	return (uint64_t)s->proto << 32 | s->inode;
}

/* "udp", "udp6", "udplite", "udplite6"; "?" out of range. */
const char *tw_udp_proto_name(unsigned proto);
/* The file under the proc root: "net/udp" ...; NULL out of range. */
const char *tw_udp_proto_file(unsigned proto);

/* The local address as text ("0.0.0.0", "::1"). */
void tw_udp_addr_text(const struct tw_udp_sock *s, char *out, size_t len);

/* Parse one file's text (proto says which) and append its dropping
 * sockets to out, unsorted. The header line ("sl local_address ...") is
 * a line, not a malformed one. The addresses are printed in the kernel's
 * byte order, which is this host's: parse on the host that wrote them. */
int tw_udpsock_parse(const char *text, size_t len, unsigned proto, struct tw_udp_set *out,
    struct tw_parse_stats *ps);

/* Sort s by key, a socket listed twice kept once (collect/udpsort.c).
 * s->socks may be another array after it. */
void tw_udp_set_sort(struct tw_udp_set *s);

/* Read all four files (out cleared first, then sorted by key). A file the
 * kernel lacks (no IPv6, no UDP-Lite) is skipped; TW_E_ABSENT only when
 * net/udp itself cannot be read. */
int tw_udpsock_read_all(int proc_fd, struct tw_buf *scratch, struct tw_udp_set *out,
    struct tw_parse_stats *ps);

#endif
