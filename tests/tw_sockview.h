/* SPDX-License-Identifier: ISC */
/* The view of a dropping UDP socket that the socket finding tests judge:
 * one socket's row of twSocketDropTable with net.core.rmem_max in the
 * tunables, and the host's udp receive buffer pool beside it. Static
 * inline, as tw_findings.h. */
#ifndef TW_SOCKVIEW_TEST_H
#define TW_SOCKVIEW_TEST_H

#include <stdint.h>
#include <string.h>

#include "sample/poolclass.h"
#include "tw_check.h"
#include "util/error.h"
#include "view/view.h"

/* v made anew with command's udp socket address:port, inode 4242, owner
 * pid 321, dropping drops datagrams in the window with a buffer of rcvbuf
 * bytes; rmem_max 212992 on its row and in the tunables. Its row, for
 * the caller's further cells. */
static inline struct tw_view_sock *
udp_sock_view(struct tw_view *v, const char *command, const char *address, unsigned port,
    unsigned drops, uint64_t rcvbuf)
{
	struct tw_view_sock *s;

	tw_view_init(v);
	v->agent.has = TW_VIEW_BIT(TW_OID_AGENT_SYSTEM);
	strcpy(v->agent.system, "Linux 6.1.0-18-amd64");
	ck_assert_int_eq(tw_view_reserve_socks(v, 1), TW_OK);
	s = &v->socks[0];
	memset(s, 0, sizeof(*s));
	s->proto = 1;
	s->inode = 4242;
	strcpy(s->proto_name, "udp");
	strcpy(s->address, address);
	strcpy(s->command, command);
	s->has = TW_VIEW_BIT(TW_OID_SOCKDROP_OWNER_COMMAND);
	TW_PUT_CELL(*s, TW_OID_SOCKDROP_LOCAL_PORT, port);
	TW_PUT_CELL(*s, TW_OID_SOCKDROP_RECENT_DROPS, drops);
	TW_PUT_CELL(*s, TW_OID_SOCKDROP_OWNER_PID, 321);
	TW_PUT_CELL(*s, TW_OID_SOCKDROP_RCVBUF, rcvbuf);
	TW_PUT_CELL(*s, TW_OID_SOCKDROP_RMEM_MAX, 212992);
	v->nsocks = 1;
	ck_assert_int_eq(tw_view_reserve_tunables(v, 1), TW_OK);
	v->tunables[0].index = 3;
	strcpy(v->tunables[0].name, "net.core.rmem_max");
	strcpy(v->tunables[0].value, "212992");
	v->ntunables = 1;
	return s;
}

/* The host's "udp receive buffer" pool failing failures times, beside
 * the socket of udp_sock_view. */
static inline void
add_udp_pool(struct tw_view *v, unsigned failures)
{
	struct tw_view_pool *p;

	ck_assert_int_eq(tw_view_reserve_pools(v, 1), TW_OK);
	p = &v->pools[0];
	memset(p, 0, sizeof(*p));
	p->cls = TW_DBLOCK_UDP_RCVBUF;
	strcpy(p->name, "udp receive buffer");
	TW_PUT_CELL(*p, TW_OID_DBLOCK_RECENT_FAILURES, failures);
	v->npools = 1;
}

#endif
