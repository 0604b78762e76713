/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_socket.h"

#include "view/figrow.h"
#include "view/view.h"

void
tw_view_socket_figures(const struct tw_view_sock *s, struct tw_socket_fig *f)
{
	tw_figrow_decode(tw_column_group(TW_OID_SOCKDROP_TABLE), s, f);
	f->proto = s->proto;
	f->inode = s->inode;
}
