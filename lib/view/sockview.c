/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/sockview.h"

#include <stdlib.h>
#include <string.h>

#include "derive/socket.h"
#include "util/error.h"
#include "view/columns.h"
#include "view/figrow.h"

/* Most recent drops first, then most drops: the rows kept past the cap. */
static int
cmp_worst(const void *a, const void *b)
{
	const struct tw_sock_row *x = *(const struct tw_sock_row *const *)a;
	const struct tw_sock_row *y = *(const struct tw_sock_row *const *)b;

	if (x->recent != y->recent)
		return x->recent < y->recent ? 1 : -1;
	if (x->drops != y->drops)
		return x->drops < y->drops ? 1 : -1;
	return 0;
}

static int
cmp_key(const void *a, const void *b)
{
	uint64_t x = tw_udp_key(&(*(const struct tw_sock_row *const *)a)->sock);
	uint64_t y = tw_udp_key(&(*(const struct tw_sock_row *const *)b)->sock);

	return (x > y) - (x < y);
}

/* The row: the socket's record (lib/derive/socket.c) projected into the
 * MIB's numbers. */
static void
build_row(struct tw_view_sock *vs, const struct tw_sock_row *r, int recent, int64_t rmem_max)
{
	struct tw_socket_shown shown;
	struct tw_socket_fig f;

	tw_derive_socket(r, recent, rmem_max, &shown, &f);
	memset(vs, 0, sizeof(*vs));
	vs->proto = f.proto;
	vs->inode = f.inode;
	tw_figrow_project(tw_column_group(TW_OID_SOCKDROP_TABLE), &f, vs);
}

int
tw_view_build_socks(struct tw_view *v, const struct tw_sockwatch *w, const struct tw_sample *s)
{
	const struct tw_sysctl_value *mx = &s->sysctl.v[TW_SYSCTL_NET_CORE_RMEM_MAX];
	const struct tw_sock_row **pick;
	size_t n = w->nrows, i;
	int64_t rmem_max = 0;
	int have_max, rc;

	v->nsocks = 0;
	if (n == 0)
		return TW_OK;
	have_max = (s->have & TW_SRC_BIT(TW_SRC_SYSCTL)) && mx->rc == TW_OK &&
	    tw_sysctl_field(mx->text, 0, &rmem_max) == TW_OK && rmem_max >= 0;
	if ((pick = malloc(n * sizeof(*pick))) == NULL)
		return TW_E_NOMEM;
	for (i = 0; i < n; i++)
		pick[i] = &w->rows[i];
	if (n > TW_VIEW_SOCKS_MAX) {
		qsort(pick, n, sizeof(*pick), cmp_worst);
		n = TW_VIEW_SOCKS_MAX;
		qsort(pick, n, sizeof(*pick), cmp_key);
	}
	if ((rc = tw_view_reserve_socks(v, n)) != TW_OK) {
		free(pick);
		return rc;
	}
	for (i = 0; i < n; i++)
		build_row(&v->socks[i], pick[i], tw_sockwatch_has_recent(w),
		    have_max ? rmem_max : -1);
	v->nsocks = n;
	free(pick);
	return TW_OK;
}
