/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "view/fig_socket.h"
#include "view/fig_pool.h"

/* A socket is judged like a pool of its own (check_dblock counts each
 * twSocketDropTable row so): its drops in the window against the pool
 * thresholds the caller passes. */
int
tw_judge_socket(const struct tw_threshold *warn, const struct tw_threshold *crit,
    const struct tw_socket_fig *s, enum tw_state *st, unsigned long long *recent)
{
	*st = TW_STATE_OK;
	*recent = 0;
	if (!tw_fig_has(s->recent_drops))
		return 0;
	*recent = (unsigned long long)s->recent_drops;
	*st = tw_threshold_state((double)*recent, warn, crit);
	return 1;
}

/* The port, 0 when the row has none (as the MIB's zero port reads). */
static unsigned
port_of(const struct tw_socket_fig *s)
{
	return s->port > 0 ? (unsigned)s->port : 0;
}

void
tw_judge_socket_subject(const struct tw_socket_fig *s, char *out, size_t len)
{
	snprintf(out, len, "%s %s:%u inode %u", s->proto_name, s->address, port_of(s),
	    (unsigned)s->inode);
}

/* A byte count as the tunable table prints it; 0 when it is none. */
static int
bytes_of(const char *text, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (text == NULL || text[0] < '0' || text[0] > '9')
		return 0;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno != 0 || *end != '\0')
		return 0;
	*out = (uint64_t)v;
	return 1;
}

int
tw_judge_socket_verdict(const struct tw_view *v, const struct tw_socket_fig *s,
    unsigned long long recent, unsigned window_s, tw_advice_lookup_fn lookup, void *ctx,
    struct tw_verdict *out)
{
	struct tw_socket_figures f;
	struct tw_pool_class_fig udp_mem;

	memset(&f, 0, sizeof(f));
	tw_view_pool_class_figures(v, TW_DBLOCK_UDP_MEMORY, &udp_mem);
	if (tw_fig_has(udp_mem.recent_failures))
		f.udp_mem_failures = (uint64_t)udp_mem.recent_failures;
	f.proto = s->proto_name;
	f.address = s->address;
	f.port = port_of(s);
	if (s->command != NULL) {
		f.command = s->command;
		f.pid = s->pid > 0 ? (int32_t)s->pid : 0;
	}
	f.recent = recent;
	f.window_s = window_s;
	f.have_rcvbuf = tw_fig_has(s->rcvbuf_bytes);
	f.rcvbuf = (uint64_t)tw_fig_or0(s->rcvbuf_bytes);
	f.have_rmem_max = tw_fig_has(s->rmem_max_bytes);
	f.rmem_max = (uint64_t)tw_fig_or0(s->rmem_max_bytes);
	if (lookup != NULL)
		f.have_rmem_default = bytes_of(lookup(ctx, "net.core.rmem_default"),
		    &f.rmem_default);
	return tw_evidence_socket(&f, out);
}

int
tw_judge_udp_rcvbuf(const struct tw_view *v, unsigned long long failures, unsigned window_s,
    struct tw_verdict *out)
{
	struct tw_udp_rcvbuf_figures f;
	size_t i;

	memset(&f, 0, sizeof(f));
	f.failures = failures;
	f.window_s = window_s;
	for (i = 0; i < v->nsocks; i++) {
		struct tw_socket_fig s;

		tw_view_socket_figures(&v->socks[i], &s);
		if (!tw_fig_has(s.recent_drops) || s.recent_drops <= 0)
			continue;
		f.sockets++;
		if (!tw_fig_has(s.rcvbuf_bytes) || !tw_fig_has(s.rmem_max_bytes))
			f.unknown++;
		else if (s.rcvbuf_bytes >= s.rmem_max_bytes)
			f.at_max++;
	}
	return tw_evidence_udp_rcvbuf(&f, out);
}
