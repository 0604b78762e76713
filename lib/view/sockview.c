/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/sockview.h"

#include <stdlib.h>
#include <string.h>

#include "derive/derive_socket.h"
#include "util/error.h"
#include "util/uid.h"
#include "view/columns.h"
#include "view/recordrow.h"

/* Most recent drops first, then most drops: the rows kept past the cap. */
static int
worse(const struct tw_sock_row *x, const struct tw_sock_row *y)
{
	if (x->recent != y->recent)
		return x->recent < y->recent ? 1 : -1;
	if (x->drops != y->drops)
		return x->drops < y->drops ? 1 : -1;
	return 0;
}

/* One socket as the rows are chosen: its row, and its owner's totals. */
struct pick {
	const struct tw_sock_row *r;
	uint64_t uid_sockets, uid_recent;
	int keep;
};

/* By owner, each owner's worst first. */
static int
cmp_owner(const void *a, const void *b)
{
	const struct pick *x = a, *y = b;

	if (x->r->sock.uid != y->r->sock.uid)
		return x->r->sock.uid < y->r->sock.uid ? -1 : 1;
	return worse(x->r, y->r);
}

/* The kept first, services' before users' (util/uid.h), then the worst. */
static int
cmp_rank(const void *a, const void *b)
{
	const struct pick *x = a, *y = b;
	int ux = tw_uid_is_user(x->r->sock.uid), uy = tw_uid_is_user(y->r->sock.uid);

	if (x->keep != y->keep)
		return x->keep ? -1 : 1;
	if (ux != uy)
		return ux - uy;
	return worse(x->r, y->r);
}

static int
cmp_key(const void *a, const void *b)
{
	uint64_t x = tw_udp_key(&((const struct pick *)a)->r->sock);
	uint64_t y = tw_udp_key(&((const struct pick *)b)->r->sock);

	return (x > y) - (x < y);
}

/* Each owner's sockets that dropped in the window and their drops, on
 * every row of theirs; a user's worst TW_VIEW_SOCKS_PER_USER kept, every
 * other owner's (root's, a service account's) all. */
static void
totals(struct pick *p, size_t n)
{
	size_t i = 0, j, k;

	qsort(p, n, sizeof(*p), cmp_owner);
	while (i < n) {
		uint64_t socks = 0, recent = 0;

		for (j = i; j < n && p[j].r->sock.uid == p[i].r->sock.uid; j++) {
			socks += p[j].r->recent > 0;
			recent += p[j].r->recent;
		}
		for (k = i; k < j; k++) {
			p[k].uid_sockets = socks;
			p[k].uid_recent = recent;
			p[k].keep = !tw_uid_is_user(p[k].r->sock.uid) ||
			    k - i < TW_VIEW_SOCKS_PER_USER;
		}
		i = j;
	}
}

/* The row: the socket's record (lib/derive/derive_socket.c) projected into the
 * MIB's numbers. */
static void
build_row(struct tw_view_sock *vs, const struct pick *p, int recent, int64_t rmem_max)
{
	struct tw_socket_shown shown;
	struct tw_socket_record f;

	tw_derive_socket(p->r, recent, rmem_max, &shown, &f);
	if (recent) {
		f.uid_sockets = (double)p->uid_sockets;
		f.uid_recent_drops = (double)p->uid_recent;
	}
	memset(vs, 0, sizeof(*vs));
	vs->proto = f.proto;
	vs->inode = f.inode;
	tw_recordrow_project(tw_column_group(TW_OID_SOCKDROP_TABLE), &f, vs);
}

int
tw_view_build_socks(struct tw_view *v, const struct tw_sockwatch *w, const struct tw_sample *s)
{
	const struct tw_sysctl_value *mx = &s->sysctl.v[TW_SYSCTL_NET_CORE_RMEM_MAX];
	struct pick *pick;
	size_t n = w->nrows, i;
	int64_t rmem_max = 0;
	int have_max, rc;

	v->nsocks = 0;
	if (n == 0)
		return TW_OK;
	have_max = (s->have & TW_SRC_BIT(TW_SRC_SYSCTL)) && mx->rc == TW_OK &&
	    tw_sysctl_field(mx->text, 0, &rmem_max) == TW_OK && rmem_max >= 0;
	if ((pick = calloc(n, sizeof(*pick))) == NULL)
		return TW_E_NOMEM;
	for (i = 0; i < n; i++)
		pick[i].r = &w->rows[i];
	totals(pick, n);
	qsort(pick, n, sizeof(*pick), cmp_rank);
	for (i = 0; i < n && pick[i].keep; i++)
		continue;
	n = i < TW_VIEW_SOCKS_MAX ? i : TW_VIEW_SOCKS_MAX;
	qsort(pick, n, sizeof(*pick), cmp_key);
	if ((rc = tw_view_reserve_socks(v, n)) != TW_OK) {
		free(pick);
		return rc;
	}
	for (i = 0; i < n; i++)
		build_row(&v->socks[i], &pick[i], tw_sockwatch_has_recent(w),
		    have_max ? rmem_max : -1);
	v->nsocks = n;
	free(pick);
	return TW_OK;
}
