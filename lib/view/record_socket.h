/* SPDX-License-Identifier: ISC */
/* A socket's record (figures/socket_record.h) from a row of the view's
 * twSocketDropTable: the one place its cells are decoded. */
#ifndef TW_VIEW_RECORD_SOCKET_H
#define TW_VIEW_RECORD_SOCKET_H

#include "figures/socket_record.h"

struct tw_view_sock;

/* Fill f from row s; its strings point into s. */
void tw_view_socket_record(const struct tw_view_sock *s, struct tw_socket_record *f);

#endif
