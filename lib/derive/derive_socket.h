/* SPDX-License-Identifier: ISC */
/* A dropping socket's record (figures/socket_record.h) from the socket watcher's
 * row (sockets/sockwatch.h). */
#ifndef TW_DERIVE_SOCKET_H
#define TW_DERIVE_SOCKET_H

#include "figures/socket_record.h"
#include "sockets/sockwatch.h"

/* Where a record's address is written. */
struct tw_socket_shown {
	char address[48];	/* INET6_ADDRSTRLEN */
};

/* recent: the watcher has a window's drops; rmem_max is net.core.rmem_max,
 * -1 when unknown. f's strings point into r, *shown and static text. */
void tw_derive_socket(const struct tw_sock_row *r, int recent, int64_t rmem_max,
    struct tw_socket_shown *shown, struct tw_socket_record *f);

#endif
