/* SPDX-License-Identifier: ISC */
/* Sockets that drop, as findings. A socket of root's or of a service
 * account's is a finding of its own, its subject the socket as
 * check_dblock names it in its ticket ("udp 0.0.0.0:514 inode 12345"), so
 * both give the same id. A user's sockets (util/uid.h) are one finding
 * about that user, however many: a user who opens 5,000 sockets that drop
 * gets one ticket, not 5,000, and takes one row of twFindingTable. */
#include "config.h"

#include "finding/observe_priv.h"

#include "finding/lookup.h"
#include "util/error.h"
#include "util/uid.h"
#include "view/record_socket.h"

/* The owner of row i, from its cell; -1 when it has none. */
static int64_t
row_uid(const struct tw_view *v, size_t i)
{
	const struct tw_view_sock *r = &v->socks[i];

	return (r->has & TW_VIEW_BIT(TW_OID_SOCKDROP_UID)) ?
	    (int64_t)r->col[TW_OID_SOCKDROP_UID] : -1;
}

/* A finding handed on with its owner set. */
struct owned_note {
	tw_observe_fn fn;
	void *ctx;
	int64_t uid;
};

static int
hand_on(void *ctx, const struct tw_finding *o)
{
	struct owned_note *on = ctx;
	struct tw_finding f = *o;

	tw_finding_owned(&f, on->uid);
	return on->fn(on->ctx, &f);
}

/* A service's socket: a finding of its own. */
static int
observe_one(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, const struct tw_socket_record *s, tw_observe_fn fn, void *ctx)
{
	struct tw_view_lookup lk = { v, NULL, "" };
	struct owned_note on = { fn, ctx, s->uid >= 0 ? s->uid : 0 };
	unsigned long long recent;
	struct tw_verdict verdict;
	enum tw_state st;
	struct tw_observe_note n;
	char subject[TW_VIEW_STR];

	if (!tw_judge_socket(&c->sock_warn, &c->sock_crit, s, &st, &recent) ||
	    !tw_observe_bad(st) ||
	    tw_judge_socket_verdict(v, s, recent, window_s, tw_view_lookup, &lk, &verdict) != TW_OK)
		return 0;
	tw_judge_socket_subject(s, subject, sizeof(subject));
	tw_observe_note(&n, hand_on, &on, st, &c->sock_warn, &c->sock_crit, "drops in the window");
	return tw_observe_verdict(v, os, &verdict, st, subject, NULL, &n);
}

/* A user's sockets: one finding, at the first row of theirs. */
static int
observe_user(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, int64_t uid, tw_observe_fn fn, void *ctx)
{
	struct owned_note on = { fn, ctx, uid };
	struct tw_user_sockets u;
	struct tw_observe_note n;

	if (!tw_judge_user_sockets(v, uid, &c->sock_warn, &c->sock_crit, window_s, &u) ||
	    !tw_observe_bad(u.state))
		return 0;
	tw_observe_note(&n, hand_on, &on, u.state, &c->sock_warn, &c->sock_crit,
	    "the user's drops in the window");
	return tw_observe_verdict(v, os, &u.verdict, u.state, u.subject, NULL, &n);
}

int
tw_observe_sockets(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, tw_observe_fn fn, void *ctx)
{
	size_t i, j;
	int rc = 0;

	for (i = 0; i < v->nsocks && rc == 0; i++) {
		struct tw_socket_record s;
		int64_t uid = row_uid(v, i);

		if (!tw_uid_is_user(uid)) {
			tw_view_socket_record(&v->socks[i], &s);
			rc = observe_one(c, v, window_s, os, &s, fn, ctx);
			continue;
		}
		for (j = 0; j < i && row_uid(v, j) != uid; j++)
			continue;
		if (j == i)
			rc = observe_user(c, v, window_s, os, uid, fn, ctx);
	}
	return rc;
}
