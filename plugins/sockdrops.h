/* SPDX-License-Identifier: ISC */
/* check_dblock's sockets: each UDP socket that dropped within the window
 * (twSocketDropTable) is judged as a pool of its own, with the check's
 * thresholds and --pool filter, and advised on through lib/advice
 * (tw_evidence_socket: rmem_max only when the socket's buffer is already
 * at it). */
#ifndef TW_PLUGIN_SOCKDROPS_H
#define TW_PLUGIN_SOCKDROPS_H

#include "figures/socket_record.h"
#include "plugin.h"
#include "util/namefilter.h"

/* What the sockets added to the check's totals. */
struct tw_sock_tally {
	size_t judged;		/* sockets thresholded */
	size_t bad;		/* over a threshold */
	unsigned long long total;	/* datagrams dropped in the window */
};

/* Judge v's sockets that filter keeps: long-output lines, one perfdata
 * figure ('udp socket drops', their sum), advice, and the first few
 * failing ones in the summary (after *shown of them, which it counts
 * up). Returns the worst state. */
enum tw_state tw_pool_sockets(const struct tw_plugin *p, const struct tw_view *v,
    struct tw_out *out, const struct tw_namefilter *filter, size_t *shown,
    struct tw_sock_tally *tally);

/* The advice for the host's udp receive buffer pool (failures in the
 * window), in the light of the sockets that dropped (tw_evidence_udp_rcvbuf). */
void tw_pool_udp_rcvbuf(const struct tw_plugin *p, const struct tw_view *v,
    struct tw_out *out, unsigned long long failures);

/* The name --pool matches: "udp 0.0.0.0:514 syslogd" (the command only
 * when it is known). */
void tw_sock_pool_name(const struct tw_socket_record *s, char *out, size_t len);

#endif
