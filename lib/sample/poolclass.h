/* SPDX-License-Identifier: ISC */
/* The classes of message-buffer pool: one table row per class says
 * what the sampler needs to know of it, so that the pools it builds and the
 * MIB's class values cannot drift apart. What is said of a judged class
 * (its symptom, the evidence's words) is advice/poolwords.h's.
 *
 * A row gives the class's TUNEWATCH-MIB value (TwDblockClassType, from
 * mib/tunewatch_oids.h: the MIB is the contract, so there is no second
 * enum), how its instances are numbered and named, the tunable that sizes
 * it and, for a socket pool, which kernel counters it is built from. Rows
 * are in increasing class order. */
#ifndef TW_POOLCLASS_H
#define TW_POOLCLASS_H

#include <stddef.h>
#include <stdint.h>

#include "collect/sysctl.h"
#include "tunewatch_oids.h"

/* How a class's pools are numbered (the MIB's twDblockInstance). */
enum tw_pool_per {
	TW_POOL_PER_HOST,	/* one pool, instance 0 */
	TW_POOL_PER_CPU,	/* instance: the CPU */
	TW_POOL_PER_ZONE,	/* instance: node * 256 + tw_pool_zone_number() */
};

/* No sysctl field is the pool's limit. */
#define TW_POOL_NO_LIMIT (-1)

struct tw_pool_class {
	uint32_t id;			/* TW_DBLOCK_* */
	enum tw_pool_per per;
	/* A per-host pool's name ("tcp memory"); for per-CPU pools the word
	 * after the CPU ("backlog": "cpu1 backlog"); per-zone pools are named
	 * by their node and zone. */
	const char *name;
	enum tw_sysctl_id tunable;	/* the Linux tunable that sizes the pool */
	int limit_field;		/* the tunable's field that is the limit, or
					 * TW_POOL_NO_LIMIT */
	unsigned size_pages;		/* block size in pages; 0: no size */
	uint8_t failure_bits;		/* 32 or 64: how the kernel keeps the count */
	const char *event;		/* what one failure is; "" when none is counted */

	/* Socket pools: failures are the sum of these counters of one
	 * /proc/net/snmp or netstat protocol, in use the sockstat field (or
	 * -1); the pool exists when either is there. NULL proto: another
	 * source (softnet, buddyinfo, vmstat) builds the class's pools. */
	const char *proto;
	const char *const *counters;	/* NULL-terminated */
	int sock_in_use;		/* enum tw_sock_field, or -1 */
	/* The pool's time in memory pressure is the sample's TCP figure
	 * (sample/pressureclock.h). */
	int tcp_pressure;
	/* The sockets' drops no counter counted are failures too (the
	 * sample's udp_uncounted). */
	int udp_uncounted;
};

/* The table, in increasing class order, and its length. */
extern const struct tw_pool_class tw_pool_classes[];
extern const size_t tw_pool_nclasses;

/* The row of a class; NULL for a value no row has (a foreign agent's). */
const struct tw_pool_class *tw_pool_class_find(uint32_t id);

#endif
