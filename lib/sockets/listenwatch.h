/* SPDX-License-Identifier: ISC */
/* Whose accept queues overflow: the TCP listeners seen full.
 *
 * The kernel counts an accept queue's overflows host-wide only (TcpExt
 * ListenOverflows), never per socket. But a listener whose queue is full
 * has its accept queue at its backlog at that moment (sock_diag's rqueue
 * and wqueue for a LISTEN socket), and its owner is whose queue it is.
 * So in each sample in which ListenOverflows moved, the listeners are
 * dumped (collect/sockdiag.h) and the owners of the full ones kept, for
 * the window. When every listener seen full in the window was one user's
 * (util/uid.h), that user's own listen() backlog is the knob and a larger
 * net.core.somaxconn would serve that user alone; where none was seen
 * full (drained between the overflows and the sample) or several owners'
 * were, nothing is said and the advice stays as it was. */
#ifndef TW_SOCKETS_LISTENWATCH_H
#define TW_SOCKETS_LISTENWATCH_H

#include <stdint.h>

#include "collect/netstat.h"

struct tw_listen_slot {
	int seen;		/* a listener seen full in this interval */
	int mixed;		/* of more than one owner */
	uint32_t uid;		/* the owner, when one */
};

struct tw_listenwatch {
	unsigned intervals;	/* the window */
	int enabled;		/* dump the kernel's listeners (a live /proc) */
	uint64_t seq;
	int gate_valid;
	uint64_t gate;		/* ListenOverflows at the last sample */
	struct tw_listen_slot *ring;	/* intervals slots */
	int dump_rc;		/* the newest dump: TW_OK or why not */
};

/* TW_OK, TW_E_INVAL (intervals 0) or TW_E_NOMEM. */
int tw_listenwatch_init(struct tw_listenwatch *w, unsigned intervals, int enabled);
void tw_listenwatch_free(struct tw_listenwatch *w);

/* One sample: net is its netstat (NULL: nothing is known). */
void tw_listenwatch_step(struct tw_listenwatch *w, const struct tw_netstat_set *net);

/* 1 with *uid when every listener seen full in the window was uid's. */
int tw_listenwatch_owner(const struct tw_listenwatch *w, uint32_t *uid);

#endif
