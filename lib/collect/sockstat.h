/* SPDX-License-Identifier: ISC */
/* /proc/net/sockstat: socket counts and the memory TCP and UDP hold, in
 * pages, to compare with net.ipv4.tcp_mem and udp_mem. */
#ifndef TW_SOCKSTAT_H
#define TW_SOCKSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "util/readfile.h"
#include "util/scan.h"

enum tw_sock_field {
	TW_SOCK_TCP_INUSE,
	TW_SOCK_TCP_ORPHAN,
	TW_SOCK_TCP_TW,
	TW_SOCK_TCP_ALLOC,
	TW_SOCK_TCP_MEM,	/* pages */
	TW_SOCK_UDP_INUSE,
	TW_SOCK_UDP_MEM,	/* pages */
	TW_SOCK_NFIELDS
};

struct tw_sockstat {
	uint32_t present;	/* bit (1 << field) */
	uint64_t v[TW_SOCK_NFIELDS];
};

/* Lines are "PROTO: key value key value ..."; the TCP: and UDP: lines are
 * read (not UDPLITE:), other lines are ignored if they have that shape. */
int tw_sockstat_parse(const char *text, size_t len, struct tw_sockstat *out,
    struct tw_parse_stats *ps);
int tw_sockstat_read(int proc_fd, struct tw_buf *scratch, struct tw_sockstat *out,
    struct tw_parse_stats *ps);

#endif
