/* SPDX-License-Identifier: ISC */
/* The view's twSocketDropTable rows, from the socket watcher
 * (sockets/sockwatch.h), apart from view.c so that the sockets' rows are
 * built where the sockets are followed: the window knows nothing of them. */
#ifndef TW_SOCKVIEW_H
#define TW_SOCKVIEW_H

#include "sample/sample.h"
#include "sockets/sockwatch.h"
#include "view/view.h"

/* Rows published at most: root's and the service accounts' sockets
 * first, then users' (util/uid.h), each by the most recent drops, then the
 * most drops. A host with more dropping sockets than this has a problem
 * that the first 256 name well enough. */
#define TW_VIEW_SOCKS_MAX 256
/* A user's sockets published at most: their worst. Every row of an owner
 * carries how many of theirs dropped in the window and how much
 * (twSockDropUidSockets, twSockDropUidRecentDrops), so that a user's
 * thousands of sockets are one finding about that user, and take no row
 * from the services' sockets. */
#define TW_VIEW_SOCKS_PER_USER 8

/* Replace v's socket rows with w's, with net.core.rmem_max from s. */
int tw_view_build_socks(struct tw_view *v, const struct tw_sockwatch *w,
    const struct tw_sample *s);

#endif
