/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding/ratchet.h"
#include "util/error.h"
#include "util/uid.h"
#include "view/record_socket.h"
#include "view/record_pool.h"

/* A socket is judged like a pool of its own (check_dblock counts each
 * twSocketDropTable row so): its drops in the window against the pool
 * thresholds the caller passes. */
int
tw_judge_socket(const struct tw_threshold *warn, const struct tw_threshold *crit,
    const struct tw_socket_record *s, enum tw_state *st, unsigned long long *recent)
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
port_of(const struct tw_socket_record *s)
{
	return s->port > 0 ? (unsigned)s->port : 0;
}

void
tw_judge_socket_subject(const struct tw_socket_record *s, char *out, size_t len)
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
tw_judge_socket_verdict(const struct tw_view *v, const struct tw_socket_record *s,
    unsigned long long recent, unsigned window_s, tw_advice_lookup_fn lookup, void *ctx,
    struct tw_verdict *out)
{
	struct tw_socket_figures f;
	struct tw_pool_class_record udp_mem;

	memset(&f, 0, sizeof(f));
	tw_view_pool_class_record(v, TW_DBLOCK_UDP_MEMORY, &udp_mem);
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
	f.have_full = tw_fig_has(s->full_share);
	f.have_cpu = tw_fig_has(s->owner_cpu) && tw_fig_has(s->owner_cpu_wait);
	f.owner_cpu = tw_fig_or0(s->owner_cpu);
	f.owner_cpu_wait = tw_fig_or0(s->owner_cpu_wait);
	f.full_share = tw_fig_or0(s->full_share);
	return tw_evidence_socket(&f, out);
}

/* The owner of row i of v's sockets, straight from its cell (rows are
 * compared by owner many times a sample); -1 when it has none. */
static int64_t
row_uid(const struct tw_view *v, size_t i)
{
	const struct tw_view_sock *r = &v->socks[i];

	return (r->has & TW_VIEW_BIT(TW_OID_SOCKDROP_UID)) ?
	    (int64_t)r->col[TW_OID_SOCKDROP_UID] : -1;
}

/* Whether row i is the first row of its owner's that dropped in the
 * window. */
static int
first_of_owner(const struct tw_view *v, size_t i)
{
	int64_t uid = row_uid(v, i);
	size_t j;

	for (j = 0; j < i; j++)
		if (row_uid(v, j) == uid && (v->socks[j].has &
		    TW_VIEW_BIT(TW_OID_SOCKDROP_RECENT_DROPS)) &&
		    v->socks[j].col[TW_OID_SOCKDROP_RECENT_DROPS] > 0)
			return 0;
	return 1;
}

int
tw_judge_user_sockets(const struct tw_view *v, int64_t uid, const struct tw_threshold *warn,
    const struct tw_threshold *crit, unsigned window_s, struct tw_user_sockets *out)
{
	struct tw_user_sockets_figures f;
	struct tw_socket_record worst;
	char name[TW_VIEW_STR], *cut;
	size_t i;
	int have = 0;

	memset(out, 0, sizeof(*out));
	memset(&f, 0, sizeof(f));
	tw_socket_record_init(&worst);
	for (i = 0; i < v->nsocks; i++) {
		struct tw_socket_record s;

		if (row_uid(v, i) != uid)
			continue;
		tw_view_socket_record(&v->socks[i], &s);
		if (!tw_fig_has(s.uid_sockets) || !tw_fig_has(s.uid_recent_drops) ||
		    !tw_fig_has(s.recent_drops))
			continue;
		f.sockets = (uint64_t)s.uid_sockets;
		f.recent = (uint64_t)s.uid_recent_drops;
		if (!have++ || s.recent_drops > worst.recent_drops)
			worst = s;
	}
	if (!have)
		return 0;
	out->uid = uid;
	out->recent = f.recent;
	out->sockets = f.sockets;
	out->state = tw_threshold_state((double)f.recent, warn, crit);
	snprintf(out->subject, sizeof(out->subject), "sockets of user %" PRId64, uid);
	f.uid = (uint32_t)uid;
	f.window_s = window_s;
	tw_judge_socket_subject(&worst, name, sizeof(name));
	/* "udp 127.0.0.1:514", without the inode the subject has. */
	if ((cut = strstr(name, " inode ")) != NULL)
		*cut = '\0';
	f.worst = name;
	f.command = worst.command;
	f.pid = worst.pid > 0 ? (int32_t)worst.pid : 0;
	f.worst_recent = (uint64_t)worst.recent_drops;
	tw_evidence_user_sockets(&f, &out->verdict);
	return 1;
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
		struct tw_socket_record s;

		tw_view_socket_record(&v->socks[i], &s);
		if (!tw_fig_has(s.recent_drops) || s.recent_drops <= 0)
			continue;
		if (tw_uid_is_user(s.uid)) {
			/* Each of a user's rows carries all their sockets'
			 * count: the first row of each user's counts it. */
			if (!first_of_owner(v, i))
				continue;
			if (f.users++ == 0)
				f.user_uid = (uint32_t)s.uid;
			f.user_sockets += tw_fig_has(s.uid_sockets) ? (uint64_t)s.uid_sockets : 1;
			continue;
		}
		f.sockets++;
		if (tw_evidence_cannot_keep_up(tw_fig_has(s.full_share), s.full_share,
		    s.command != NULL && tw_fig_has(s.owner_cpu) && tw_fig_has(s.owner_cpu_wait),
		    s.owner_cpu, s.owner_cpu_wait))
			f.cannot_keep_up++;
		else if (!tw_fig_has(s.rcvbuf_bytes) || !tw_fig_has(s.rmem_max_bytes))
			f.unknown++;
		else if (s.rcvbuf_bytes >= s.rmem_max_bytes)
			f.at_max++;
	}
	if (f.sockets == 0 && f.users == 0) {
		static const char *const knobs[] = { "net.core.rmem_default", "net.core.rmem_max" };
		struct tw_change_record c;
		size_t k;

		for (k = 0; k < sizeof(knobs) / sizeof(knobs[0]) && f.changed == NULL; k++)
			if (tw_ratchet_pending(v, knobs[k], &c))
				f.changed = knobs[k];
	}
	return tw_evidence_udp_rcvbuf(&f, out);
}
