/* SPDX-License-Identifier: ISC */
/* A dropping socket's row in the watcher (sockets/sockwatch.h), and the
 * rows carried from one reading of the sockets to the next: a socket of
 * the newest reading keeps its row, its drops and window; one no longer
 * read loses it. */
#ifndef TW_SOCKROWS_H
#define TW_SOCKROWS_H

#include <stddef.h>
#include <stdint.h>

#include "collect/sockowner.h"
#include "collect/udpsock.h"
#include "sockets/sockbusy.h"

struct tw_sock_row {
	struct tw_udp_sock sock;	/* the newest reading */
	uint64_t drops;			/* unwrapped since first seen with drops */
	uint64_t recent;		/* within the window */
	struct tw_sock_owner owner;	/* pid 0: unknown */
	enum tw_owner_state owner_state;
	struct tw_owner_want pass;	/* SEARCHING: where its pass began */
	uint64_t lookups_cut;		/* owner searches that stopped at the
					 * process limit without finding it */
	int have_mem;			/* rcvbuf and rmem_alloc are known */
	uint32_t rcvbuf;		/* bytes */
	uint32_t rmem_alloc;		/* bytes */
	uint64_t *ring;			/* intervals: drops added in each */
	int grew;			/* dropped in the newest interval */
	struct tw_sock_busy busy;	/* its owner's CPU, its queue full */
};

/* Free what the rows hold (not the array). */
void tw_sockrows_free(struct tw_sock_row *rows, size_t n);

/* The rows sorted by tw_udp_key(), (*rows, *nrows, *cap), brought up to
 * the newest reading cur (sorted by key) in the sample seq of a window of
 * intervals: where they stand when cur holds their sockets in their order,
 * else into *spare (room for cur->count rows), the two arrays then
 * swapped. A new socket whose row cannot be had is left out until it can.
 * The drops the rows grew by in all. */
uint64_t tw_sockrows_merge(struct tw_sock_row **rows, size_t *nrows, size_t *cap,
    struct tw_sock_row **spare, size_t *spare_cap, const struct tw_udp_set *cur,
    unsigned intervals, uint64_t seq);

#endif
