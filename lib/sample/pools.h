/* SPDX-License-Identifier: ISC */
/* Message-buffer pools ("dblocks"), derived from one sample.
 *
 * SVR4 kept STREAMS data blocks in size classes, each with a configured
 * number (NBLKnnnn) and a count of failed allocations (netstat -m). Linux
 * has no such table, but it has pools that fail the same way: per-CPU
 * input queues, socket memory, socket buffers, the accept queue, and free
 * high-order pages. Each becomes a row with the columns of netstat -m
 * where they exist, and the tunable that sizes it; what each class is
 * comes from its row in poolclass.h. */
#ifndef TW_POOLS_H
#define TW_POOLS_H

#include <stddef.h>
#include <stdint.h>

#include "sample/poolclass.h"
#include "sample/sample.h"

#define TW_POOL_HAS_SIZE	0x01u
#define TW_POOL_HAS_IN_USE	0x02u
#define TW_POOL_HAS_FREE	0x04u
#define TW_POOL_HAS_LIMIT	0x08u
#define TW_POOL_HAS_FAILURES	0x10u
#define TW_POOL_HAS_PRESSURE	0x20u

#define TW_POOL_NAME_LEN 48

struct tw_pool {
	uint32_t cls;			/* TW_DBLOCK_*: a row of tw_pool_classes */
	uint32_t instance;
	int32_t cpu;			/* a per-CPU pool's CPU; -1 for any other */
	char name[TW_POOL_NAME_LEN];	/* "cpu1 backlog", "tcp memory" */
	uint32_t has;			/* TW_POOL_HAS_* */
	uint64_t size;			/* bytes per block */
	uint64_t in_use;		/* blocks */
	uint64_t free;
	uint64_t limit;
	uint64_t failures;		/* the kernel's cumulative count */
	uint8_t failure_bits;		/* 32 or 64: how the kernel keeps it */
	uint64_t pressure_ms;		/* time in memory pressure, cumulative */
	const char *tunable;		/* the Linux tunable that sizes the pool */
	const char *event;		/* what one failure is */
};

struct tw_pool_set {
	struct tw_pool *pools;		/* sorted by (cls, instance) */
	size_t count;
	size_t cap;
};

void tw_pool_set_init(struct tw_pool_set *ps);
void tw_pool_set_free(struct tw_pool_set *ps);

static inline uint64_t
tw_pool_key(const struct tw_pool *p)
{
	return (uint64_t)p->cls << 32 | p->instance;
}

/* Build the pools of sample s into out (cleared first). A pool appears
 * when the sample has any of its sources. */
int tw_pools_build(const struct tw_sample *s, struct tw_pool_set *out);

/* The zone number used in buddy-zone instances: DMA 0, DMA32 1, Normal 2,
 * HighMem 3, Movable 4, Device 5, anything else 255. */
unsigned tw_pool_zone_number(const char *zone);

#endif
