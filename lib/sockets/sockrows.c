/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "sockets/sockrows.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

void
tw_sockrows_free(struct tw_sock_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].ring);
		tw_sockbusy_free(&rows[i].busy);
	}
}

/* The newest reading of a row's socket, which dropped grew since the last:
 * its ring's slot, and the window's sum kept by what leaves it and what
 * enters. */
static void
update_row(struct tw_sock_row *r, const struct tw_udp_sock *s, uint64_t grew, unsigned slot)
{
	r->sock = *s;
	if (s->have_mem) {
		/* The reading had the buffer: no query for it. */
		r->have_mem = 1;
		r->rcvbuf = s->rcvbuf;
		r->rmem_alloc = s->rmem_alloc;
	}
	r->drops += grew;
	r->recent += grew - r->ring[slot];
	r->ring[slot] = grew;
	r->grew = grew > 0;
}

/* Whether cur holds the rows' sockets, in their order: the steady state
 * of a flood, where the rows (some hundreds of bytes each) are brought up
 * to date where they stand, not moved. */
static int
same_sockets(const struct tw_sock_row *rows, size_t nrows, const struct tw_udp_set *cur)
{
	size_t i;

	if (cur->count != nrows)
		return 0;
	for (i = 0; i < nrows; i++)
		if (tw_udp_key(&cur->socks[i]) != tw_udp_key(&rows[i].sock))
			return 0;
	return 1;
}

uint64_t
tw_sockrows_merge(struct tw_sock_row **rows, size_t *nrows, size_t *cap,
    struct tw_sock_row **spare, size_t *spare_cap, const struct tw_udp_set *cur,
    unsigned intervals, uint64_t seq)
{
	unsigned slot = (unsigned)(seq % intervals);
	struct tw_sock_row *old = *rows, *next = *spare;
	size_t i, j = 0, n = 0, old_cap;
	uint64_t grown = 0;

	if (same_sockets(old, *nrows, cur)) {
		for (i = 0; i < *nrows; i++) {
			const struct tw_udp_sock *s = &cur->socks[i];
			/* The kernel's count is 32 bits: a smaller one wrapped. */
			uint64_t grew = (uint32_t)(s->drops - old[i].sock.drops);

			update_row(&old[i], s, grew, slot);
			grown += grew;
		}
		return grown;
	}
	for (i = 0; i < cur->count; i++) {
		const struct tw_udp_sock *s = &cur->socks[i];
		uint64_t key = tw_udp_key(s), grew;
		struct tw_sock_row *r = &next[n];

		while (j < *nrows && tw_udp_key(&old[j].sock) < key)
			tw_sockrows_free(&old[j++], 1);
		if (j < *nrows && tw_udp_key(&old[j].sock) == key) {
			*r = old[j++];
			grew = (uint32_t)(s->drops - r->sock.drops);
		} else {
			memset(r, 0, sizeof(*r));
			r->owner_state = TW_OWNER_UNKNOWN;
			if ((r->ring = calloc(intervals, sizeof(*r->ring))) == NULL)
				continue;
			if (tw_sockbusy_init(&r->busy, intervals) != TW_OK) {
				free(r->ring);
				continue;
			}
			/* Seen first with drops: dropped in the interval just
			 * past, unless this is the first sample. */
			grew = seq > 0 ? s->drops : 0;
			r->drops = s->drops - grew;
		}
		update_row(r, s, grew, slot);
		grown += grew;
		n++;
	}
	while (j < *nrows)
		tw_sockrows_free(&old[j++], 1);
	old_cap = *cap;
	*rows = next;
	*cap = *spare_cap;
	*nrows = n;
	*spare = old;
	*spare_cap = old_cap;
	return grown;
}
