/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "sockdrops.h"

#include <stdio.h>
#include <string.h>

#include "advise.h"
#include "advice/evidence.h"
#include "collect/sockowner.h"
#include "advice/ticket.h"
#include "finding/judge.h"
#include "sample/poolclass.h"
#include "util/error.h"
#include "util/uid.h"
#include "view/record_socket.h"

void
tw_sock_pool_name(const struct tw_socket_record *s, char *out, size_t len)
{
	int v6 = strchr(s->address, ':') != NULL;
	int cmd = s->command != NULL;

	snprintf(out, len, "%s %s%s%s:%u%s%s", s->proto_name, v6 ? "[" : "", s->address,
	    v6 ? "]" : "", s->port > 0 ? (unsigned)s->port : 0, cmd ? " " : "",
	    cmd ? s->command : "");
}

/* net.core.rmem_max from the socket's own row, read with it; anything
 * else from the agent's tunable table, as for any advice. */
struct sock_lookup {
	struct tw_device_lookup host;
	const struct tw_socket_record *s;
	char buf[32];
};

static const char *
sock_lookup(void *ctx, const char *name)
{
	struct sock_lookup *c = ctx;

	if (strcmp(name, "net.core.rmem_max") == 0 && tw_fig_has(c->s->rmem_max_bytes)) {
		snprintf(c->buf, sizeof(c->buf), "%llu", (unsigned long long)c->s->rmem_max_bytes);
		return c->buf;
	}
	return tw_plugin_device_lookup(&c->host, name);
}

static void
advise(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    const struct tw_socket_record *s, unsigned long long recent)
{
	struct tw_verdict verdict;
	struct sock_lookup lk;
	char subject[TW_VIEW_STR];

	memset(&lk, 0, sizeof(lk));
	tw_device_lookup_init(&lk.host, p, v, NULL);
	lk.s = s;
	if (tw_judge_socket_verdict(v, s, recent, p->window_s, sock_lookup, &lk, &verdict) != TW_OK)
		return;
	/* The socket is the ticket's subject, as tunewatchd's finding. */
	tw_judge_socket_subject(s, subject, sizeof(subject));
	tw_plugin_verdict(p, v, out, &verdict, sock_lookup, &lk, NULL, subject);
}

/* "; buffer 4608 bytes, rmem_max 4194304" with what the row has. */
static void
buffers(const struct tw_socket_record *s, char *out, size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	if (tw_fig_has(s->rcvbuf_bytes))
		n = (size_t)snprintf(out, len, "; buffer %llu bytes",
		    (unsigned long long)s->rcvbuf_bytes);
	if (tw_fig_has(s->rmem_max_bytes) && n < len)
		snprintf(out + n, len - n, "%s rmem_max %llu", n > 0 ? "," : ";",
		    (unsigned long long)s->rmem_max_bytes);
}

/* Each user whose sockets dropped: one line and one finding about that
 * user (lib/finding's, as tunewatchd's), after the rows. */
static void
users(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out)
{
	size_t i, j;

	for (i = 0; i < v->nsocks; i++) {
		struct tw_socket_record s, t;
		struct tw_user_sockets u;

		tw_view_socket_record(&v->socks[i], &s);
		if (!tw_uid_is_user(s.uid))
			continue;
		for (j = 0; j < i; j++) {
			tw_view_socket_record(&v->socks[j], &t);
			if (t.uid == s.uid)
				break;
		}
		if (j < i || !tw_judge_user_sockets(v, s.uid, &p->warn, &p->crit, p->window_s, &u) ||
		    u.state == TW_STATE_OK)
			continue;
		tw_out_line(out, "%s: %s, %llu sockets dropped %llu datagrams in the last %u s",
		    u.subject, tw_state_name(u.state), u.sockets, u.recent, p->window_s);
		tw_plugin_verdict(p, v, out, &u.verdict, NULL, NULL, NULL, u.subject);
	}
}

enum tw_state
tw_pool_sockets(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    const struct tw_namefilter *filter, size_t *shown, struct tw_sock_tally *tally)
{
	const struct tw_range *w = tw_threshold_range(&p->warn);
	const struct tw_range *c = tw_threshold_range(&p->crit);
	enum tw_state worst = TW_STATE_OK;
	unsigned long long sum = 0;
	size_t i, members = 0;

	memset(tally, 0, sizeof(*tally));
	for (i = 0; i < v->nsocks; i++) {
		struct tw_socket_record rec;
		const struct tw_socket_record *s = &rec;
		unsigned long long recent;
		enum tw_state st;
		char name[128], buf[96], pid[32] = "";

		tw_view_socket_record(&v->socks[i], &rec);
		tw_sock_pool_name(s, name, sizeof(name));
		if (!tw_namefilter_keep(filter, name) ||
		    !tw_judge_socket(&p->warn, &p->crit, s, &st, &recent))
			continue;
		members++;
		tally->judged++;
		tally->total += recent;
		sum += recent;
		if (st == TW_STATE_OK) {
			if (p->verbose > 0)
				tw_out_line(out, "%s: OK, no failures in the last %u s", name,
				    p->window_s);
			continue;
		}
		worst = tw_state_worst(worst, st);
		if (s->pid >= 0)
			snprintf(pid, sizeof(pid), " (pid %llu)", (unsigned long long)s->pid);
		else if (s->owner_search == TW_OWNER_SEARCHING)
			/* tunewatchd reads /proc a slice a sample: a later check
			 * will name it. */
			snprintf(pid, sizeof(pid), " (owner: searching)");
		buffers(s, buf, sizeof(buf));
		tw_out_line(out, "%s%s: %s, %llu failures in the last %u s (datagram dropped: the "
		    "socket's receive buffer was full)%s", name, pid, tw_state_name(st), recent,
		    p->window_s, buf);
		if ((*shown)++ < 3)
			tw_out_printf(out, "%s%s %llu failures", *shown > 1 ? ", " : "", name, recent);
		tally->bad++;
		/* A user's sockets are one finding, said below. */
		if (!tw_uid_is_user(s->uid))
			advise(p, v, out, s, recent);
	}
	users(p, v, out);
	/* One figure for all sockets, as for per-CPU pools: the perfdata
	 * keeps its size whatever sockets come and go. */
	if (members > 0) {
		struct tw_perf item;

		memset(&item, 0, sizeof(item));
		item.label = "udp socket drops";
		item.value = (double)sum;
		item.uom = "";
		item.warn = w;
		item.crit = c;
		item.has_min = 1;
		tw_out_perf(out, &item);
	}
	return worst;
}

void
tw_pool_udp_rcvbuf(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    unsigned long long failures)
{
	struct tw_verdict verdict;

	/* lib/finding's judgement, as tunewatchd's finding on the pool. */
	if (tw_judge_udp_rcvbuf(v, failures, p->window_s, &verdict) == TW_OK)
		tw_plugin_verdict(p, v, out, &verdict, NULL, NULL, NULL,
		    tw_ticket_subject_pool(tw_pool_class_find(TW_DBLOCK_UDP_RCVBUF)));
}
