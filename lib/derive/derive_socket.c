/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "derive/derive_socket.h"

void
tw_derive_socket(const struct tw_sock_row *r, int recent, int64_t rmem_max,
    struct tw_socket_shown *shown, struct tw_socket_record *f)
{
	tw_socket_record_init(f);
	f->proto = r->sock.proto;
	f->inode = r->sock.inode;
	f->proto_name = tw_udp_proto_name(r->sock.proto);
	tw_udp_addr_text(&r->sock, shown->address, sizeof(shown->address));
	f->address = shown->address;
	f->port = r->sock.port;
	f->drops = (double)r->drops;
	if (recent) {
		struct tw_busy_window bw;

		f->recent_drops = (double)r->recent;
		tw_sockbusy_window(&r->busy, &bw);
		if (bw.have_full)
			f->full_share = 100.0 * bw.full_share;
		if (bw.have_cpu && r->owner.pid > 0) {
			f->owner_cpu = 100.0 * bw.run_share;
			f->owner_cpu_wait = 100.0 * bw.wait_share;
		}
	}
	f->rx_queue_bytes = (double)r->sock.rx_queue;
	if (r->owner.pid > 0) {
		f->command = r->owner.comm;
		f->pid = r->owner.pid;
	}
	f->searches_cut = r->lookups_cut;
	f->owner_search = (int64_t)r->owner_state;
	if (r->have_mem) {
		f->rcvbuf_bytes = (double)r->rcvbuf;
		f->rmem_alloc_bytes = (double)r->rmem_alloc;
	}
	if (rmem_max >= 0)
		f->rmem_max_bytes = (double)rmem_max;
	f->uid = r->sock.uid;
}
