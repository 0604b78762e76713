/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/record_socket.h"

#include "view/recordrow.h"
#include "view/view.h"

void
tw_view_socket_record(const struct tw_view_sock *s, struct tw_socket_record *f)
{
	tw_recordrow_decode(tw_column_group(TW_OID_SOCKDROP_TABLE), s, f);
	f->proto = s->proto;
	f->inode = s->inode;
}
