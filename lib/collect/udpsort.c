/* SPDX-License-Identifier: ISC */
/* The set's sort by key (tw_udp_set_sort). Under a flood every socket of
 * the host has dropped and is sorted every sample: qsort's call a
 * comparison and its moves of whole sockets took about a tenth of
 * tunewatchd's CPU with 5,000 sockets (BENCHMARKS.md, issue 34). So each
 * socket's key and its place are packed in one word, the words sorted by
 * radix on the key's bytes (stable, so equal keys keep their order), and
 * each socket then moved once into a second array that is kept for the
 * next sort. qsort remains for what cannot be packed or had. */
#include "config.h"

#include "collect/udpsock.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"

/* The key is the protocol (3 bits packable) above the 32-bit inode; the
 * place takes the 29 bits below it. */
#define PLACE_BITS 29
#define PLACE_MASK ((UINT64_C(1) << PLACE_BITS) - 1)
#define PROTO_PACKABLE 7u
/* Bytes of the key: the inode's four and the protocol's one. */
#define KEY_BYTES 5

static int
cmp_sock(const void *a, const void *b)
{
	uint64_t ka = tw_udp_key(a), kb = tw_udp_key(b);

	return ka < kb ? -1 : ka > kb;
}

static int
packable(const struct tw_udp_set *s)
{
	size_t i;

	if (s->count > PLACE_MASK)
		return 0;
	for (i = 0; i < s->count; i++)
		if (s->socks[i].proto > PROTO_PACKABLE)
			return 0;
	return 1;
}

/* Make room for the packed words (twice: the radix passes go back and
 * forth) and the sorted sockets. */
static int
room(struct tw_udp_set *s)
{
	void *grown;

	if (tw_array_grow(s->order, &s->order_cap, 2 * s->count, sizeof(*s->order), &grown) !=
	    TW_OK)
		return TW_E_NOMEM;
	s->order = grown;
	if (tw_array_grow(s->spare, &s->spare_cap, s->count, sizeof(*s->spare), &grown) != TW_OK)
		return TW_E_NOMEM;
	s->spare = grown;
	return TW_OK;
}

/* Sort s->socks by key into s->spare, then swap the two. */
static void
radix(struct tw_udp_set *s)
{
	size_t count[KEY_BYTES][256];
	uint64_t *from = s->order, *to = s->order + s->count, *t;
	struct tw_udp_sock *sorted;
	size_t i, n = s->count, cap;
	unsigned d;

	memset(count, 0, sizeof(count));
	for (i = 0; i < n; i++) {
		uint64_t w = tw_udp_key(&s->socks[i]) << PLACE_BITS | i;

		from[i] = w;
		for (d = 0; d < KEY_BYTES; d++)
			count[d][(w >> (PLACE_BITS + 8 * d)) & 0xff]++;
	}
	for (d = 0; d < KEY_BYTES; d++) {
		size_t sum = 0, c;
		unsigned shift = PLACE_BITS + 8 * d, b;

		/* A byte that is the same in every key orders nothing. */
		if (count[d][(from[0] >> shift) & 0xff] == n)
			continue;
		for (b = 0; b < 256; b++) {
			c = count[d][b];
			count[d][b] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			to[count[d][(from[i] >> shift) & 0xff]++] = from[i];
		t = from;
		from = to;
		to = t;
	}
	for (i = 0; i < n; i++)
		s->spare[i] = s->socks[from[i] & PLACE_MASK];
	sorted = s->spare;
	cap = s->spare_cap;
	s->spare = s->socks;
	s->spare_cap = s->cap;
	s->socks = sorted;
	s->cap = cap;
}

/* Sort by key and keep one socket a key: kernel sockets share inode 0, and
 * of those the one that dropped most is kept (the first of equals). */
void
tw_udp_set_sort(struct tw_udp_set *s)
{
	size_t i, n = 0;

	if (s->count > 1) {
		if (packable(s) && room(s) == TW_OK)
			radix(s);
		else
			qsort(s->socks, s->count, sizeof(s->socks[0]), cmp_sock);
	}
	for (i = 0; i < s->count; i++) {
		if (n > 0 && tw_udp_key(&s->socks[n - 1]) == tw_udp_key(&s->socks[i])) {
			if (s->socks[i].drops > s->socks[n - 1].drops)
				s->socks[n - 1] = s->socks[i];
			continue;
		}
		s->socks[n++] = s->socks[i];
	}
	s->count = n;
}
