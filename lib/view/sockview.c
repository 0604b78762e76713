/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/sockview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"
#include "util/escape.h"
#include "view/columns.h"

/* A count, clamped to the column's range: a Gauge32 stays at its top. */
static void
put(struct tw_view_sock *vs, unsigned c, uint64_t value)
{
	uint64_t max = tw_column(TW_OID_SOCKDROP_TABLE, c)->max;

	vs->col[c] = value > max ? max : value;
	vs->has |= TW_VIEW_BIT(c);
}

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

static void
build_row(struct tw_view_sock *vs, const struct tw_sock_row *r, int recent, int have_max,
    uint64_t rmem_max)
{
	memset(vs, 0, sizeof(*vs));
	vs->proto = r->sock.proto;
	vs->inode = r->sock.inode;
	snprintf(vs->proto_name, sizeof(vs->proto_name), "%s", tw_udp_proto_name(r->sock.proto));
	tw_udp_addr_text(&r->sock, vs->address, sizeof(vs->address));
	vs->has |= TW_VIEW_BIT(TW_OID_SOCKDROP_PROTOCOL_NAME) |
	    TW_VIEW_BIT(TW_OID_SOCKDROP_LOCAL_ADDRESS);
	put(vs, TW_OID_SOCKDROP_LOCAL_PORT, r->sock.port);
	put(vs, TW_OID_SOCKDROP_DROPS, r->drops);
	if (recent)
		put(vs, TW_OID_SOCKDROP_RECENT_DROPS, r->recent);
	put(vs, TW_OID_SOCKDROP_RX_QUEUE, r->sock.rx_queue);
	if (r->owner.pid > 0) {
		tw_escape_copy(vs->command, sizeof(vs->command), r->owner.comm);
		vs->has |= TW_VIEW_BIT(TW_OID_SOCKDROP_OWNER_COMMAND);
		put(vs, TW_OID_SOCKDROP_OWNER_PID, (uint64_t)r->owner.pid);
	}
	put(vs, TW_OID_SOCKDROP_OWNER_SEARCHES_CUT, r->lookups_cut);
	put(vs, TW_OID_SOCKDROP_OWNER_SEARCH, r->owner_state);
	if (r->have_mem) {
		put(vs, TW_OID_SOCKDROP_RCVBUF, r->rcvbuf);
		put(vs, TW_OID_SOCKDROP_RMEM_ALLOC, r->rmem_alloc);
	}
	if (have_max)
		put(vs, TW_OID_SOCKDROP_RMEM_MAX, rmem_max);
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
		build_row(&v->socks[i], pick[i], tw_sockwatch_has_recent(w), have_max,
		    (uint64_t)rmem_max);
	v->nsocks = n;
	free(pick);
	return TW_OK;
}
