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
};

/* Services' before users' (util/uid.h), then the worst. */
static int
cmp_rank(const void *a, const void *b)
{
	const struct pick *x = a, *y = b;
	int ux = tw_uid_is_user(x->r->sock.uid), uy = tw_uid_is_user(y->r->sock.uid);

	if (ux != uy)
		return ux - uy;
	return worse(x->r, y->r);
}

/* In the rows' order, which is tw_udp_key()'s. */
static int
cmp_place(const void *a, const void *b)
{
	const struct tw_sock_row *x = ((const struct pick *)a)->r;
	const struct tw_sock_row *y = ((const struct pick *)b)->r;

	return (x > y) - (x < y);
}

static int
cmp_word(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The worst of an owner's sockets rows[at[0..n)], TW_VIEW_SOCKS_PER_USER
 * at most, into best (worst first; in the rows' order where they tie):
 * under a flood one user has thousands, of which 8 are published, so
 * they are picked in one pass, not sorted. Returns how many. */
static size_t
worst_of(const struct tw_sock_row *rows, const uint64_t *at, size_t n,
    const struct tw_sock_row **best)
{
	size_t i, k = 0, j;

	for (i = 0; i < n; i++) {
		const struct tw_sock_row *r = &rows[(uint32_t)at[i]];

		if (k == TW_VIEW_SOCKS_PER_USER && worse(r, best[k - 1]) >= 0)
			continue;
		j = k < TW_VIEW_SOCKS_PER_USER ? k++ : k - 1;
		for (; j > 0 && worse(r, best[j - 1]) < 0; j--)
			best[j] = best[j - 1];
		best[j] = r;
	}
	return k;
}

/* The sockets to publish, into p (room for n), with their owners'
 * totals: each owner's sockets that dropped in the window and their
 * drops; a user's worst TW_VIEW_SOCKS_PER_USER, every other owner's
 * (root's, a service account's) all. The rows are grouped by owner
 * through one word a row, uid above place, so that no comparison reads a
 * row. Returns how many; at is room for n words. */
static size_t
choose(const struct tw_sockwatch *w, uint64_t *at, struct pick *p)
{
	const struct tw_sock_row *best[TW_VIEW_SOCKS_PER_USER];
	size_t n = w->nrows, i = 0, j, k, m = 0, nb;

	for (i = 0; i < n; i++)
		at[i] = (uint64_t)w->rows[i].sock.uid << 32 | (uint32_t)i;
	qsort(at, n, sizeof(*at), cmp_word);
	i = 0;
	while (i < n) {
		uint32_t uid = (uint32_t)(at[i] >> 32);
		uint64_t socks = 0, recent = 0;

		for (j = i; j < n && (uint32_t)(at[j] >> 32) == uid; j++) {
			const struct tw_sock_row *r = &w->rows[(uint32_t)at[j]];

			socks += r->recent > 0;
			recent += r->recent;
		}
		if (tw_uid_is_user(uid)) {
			nb = worst_of(w->rows, &at[i], j - i, best);
			for (k = 0; k < nb; k++)
				p[m++] = (struct pick){ best[k], socks, recent };
		} else {
			for (k = i; k < j; k++)
				p[m++] = (struct pick){ &w->rows[(uint32_t)at[k]], socks, recent };
		}
		i = j;
	}
	return m;
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
	uint64_t *at;
	size_t n = w->nrows, i;
	int64_t rmem_max = 0;
	int have_max, rc;

	v->nsocks = 0;
	if (n == 0)
		return TW_OK;
	have_max = (s->have & TW_SRC_BIT(TW_SRC_SYSCTL)) && mx->rc == TW_OK &&
	    tw_sysctl_field(mx->text, 0, &rmem_max) == TW_OK && rmem_max >= 0;
	/* The rows' places must fit the word's 32 bits below the uid. */
	if (n > UINT32_MAX)
		return TW_E_NOMEM;
	pick = calloc(n, sizeof(*pick));
	at = malloc(n * sizeof(*at));
	if (pick == NULL || at == NULL) {
		free(pick);
		free(at);
		return TW_E_NOMEM;
	}
	n = choose(w, at, pick);
	free(at);
	qsort(pick, n, sizeof(*pick), cmp_rank);
	if (n > TW_VIEW_SOCKS_MAX)
		n = TW_VIEW_SOCKS_MAX;
	qsort(pick, n, sizeof(*pick), cmp_place);
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
