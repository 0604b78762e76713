/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "view/fig_pool.h"

/* A socket is judged like a pool of its own (check_dblock counts each
 * twSocketDropTable row so): its drops in the window against the pool
 * thresholds the caller passes. */
int
tw_judge_socket(const struct tw_threshold *warn, const struct tw_threshold *crit,
    const struct tw_view_sock *s, enum tw_state *st, unsigned long long *recent)
{
	*st = TW_STATE_OK;
	*recent = 0;
	if (!tw_view_has(s, TW_OID_SOCKDROP_RECENT_DROPS))
		return 0;
	*recent = (unsigned long long)tw_view_num(s, TW_OID_SOCKDROP_RECENT_DROPS);
	*st = tw_threshold_state((double)*recent, warn, crit);
	return 1;
}

void
tw_judge_socket_subject(const struct tw_view_sock *s, char *out, size_t len)
{
	snprintf(out, len, "%s %s:%u inode %u", s->proto_name, s->address,
	    (unsigned)tw_view_num(s, TW_OID_SOCKDROP_LOCAL_PORT), (unsigned)s->inode);
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
tw_judge_socket_verdict(const struct tw_view *v, const struct tw_view_sock *s,
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
	f.port = (unsigned)tw_view_num(s, TW_OID_SOCKDROP_LOCAL_PORT);
	if (tw_view_has(s, TW_OID_SOCKDROP_OWNER_COMMAND)) {
		f.command = s->command;
		f.pid = (int32_t)tw_view_num(s, TW_OID_SOCKDROP_OWNER_PID);
	}
	f.recent = recent;
	f.window_s = window_s;
	f.have_rcvbuf = tw_view_has(s, TW_OID_SOCKDROP_RCVBUF);
	f.rcvbuf = (uint64_t)tw_view_num(s, TW_OID_SOCKDROP_RCVBUF);
	f.have_rmem_max = tw_view_has(s, TW_OID_SOCKDROP_RMEM_MAX);
	f.rmem_max = (uint64_t)tw_view_num(s, TW_OID_SOCKDROP_RMEM_MAX);
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
		const struct tw_view_sock *s = &v->socks[i];

		if (!tw_view_has(s, TW_OID_SOCKDROP_RECENT_DROPS) ||
		    tw_view_num(s, TW_OID_SOCKDROP_RECENT_DROPS) <= 0)
			continue;
		f.sockets++;
		if (!tw_view_has(s, TW_OID_SOCKDROP_RCVBUF) ||
		    !tw_view_has(s, TW_OID_SOCKDROP_RMEM_MAX))
			f.unknown++;
		else if (tw_view_num(s, TW_OID_SOCKDROP_RCVBUF) >=
		    tw_view_num(s, TW_OID_SOCKDROP_RMEM_MAX))
			f.at_max++;
	}
	return tw_evidence_udp_rcvbuf(&f, out);
}
