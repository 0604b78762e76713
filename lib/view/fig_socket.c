/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_socket.h"

#include "view/columns.h"
#include "view/view.h"

/* The figure of column col in its natural unit, or none. */
static double
figure(const struct tw_column_group *g, const struct tw_view_sock *s, unsigned col)
{
	return tw_view_has(s, col) ? tw_column_decode(&g->cols[col], s->col[col]) : TW_FIG_NONE;
}

/* An integer column: -1 when the row lacks it. */
static int64_t
integer(const struct tw_column_group *g, const struct tw_view_sock *s, unsigned col)
{
	return tw_view_has(s, col) ? (int64_t)tw_column_decode(&g->cols[col], s->col[col]) : -1;
}

void
tw_view_socket_figures(const struct tw_view_sock *s, struct tw_socket_fig *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_SOCKDROP_TABLE);

	f->proto = s->proto;
	f->inode = s->inode;
	f->proto_name = s->proto_name;
	f->address = s->address;
	f->port = integer(g, s, TW_OID_SOCKDROP_LOCAL_PORT);
	f->drops = figure(g, s, TW_OID_SOCKDROP_DROPS);
	f->recent_drops = figure(g, s, TW_OID_SOCKDROP_RECENT_DROPS);
	f->rx_queue_bytes = figure(g, s, TW_OID_SOCKDROP_RX_QUEUE);
	f->command = tw_view_has(s, TW_OID_SOCKDROP_OWNER_COMMAND) ? s->command : NULL;
	f->pid = integer(g, s, TW_OID_SOCKDROP_OWNER_PID);
	f->owner_search = integer(g, s, TW_OID_SOCKDROP_OWNER_SEARCH);
	f->rcvbuf_bytes = figure(g, s, TW_OID_SOCKDROP_RCVBUF);
	f->rmem_alloc_bytes = figure(g, s, TW_OID_SOCKDROP_RMEM_ALLOC);
	f->rmem_max_bytes = figure(g, s, TW_OID_SOCKDROP_RMEM_MAX);
}
