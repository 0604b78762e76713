/* SPDX-License-Identifier: ISC */
/* The drops no UDP counter counted, and whether they are UDP memory's.
 *
 * Linux 6.18 drops datagrams at the UDP memory limit in its per-NUMA
 * receive queue's batch and counts them in the socket's drops only
 * (sockwatch.h says more); every other drop of a UDP socket the kernel
 * counts in the socket and in InErrors (dropgate.h), the socket first and
 * InErrors at once after. So what the sockets dropped between two reads of
 * their files, less what InErrors counted meanwhile, is what no counter
 * counted.
 *
 * The two must be compared at one moment. The sum of InErrors is read
 * before the socket files (the gate, dropgate.h) and again right after
 * them; a socket's count is read between the two. So what InErrors can
 * have counted of the drops between two reads is at most its sum after
 * the newer read less its sum before the older one, and only drops past
 * that are uncounted for sure: under a flood the kernel counts in full
 * (a busy syslog server's sockets, 2.9 million drops, all of them in
 * InErrors), no difference of moments can make one up. (Comparing the
 * sockets read at one moment with InErrors read at another, and keeping
 * every positive difference, once summed the jitter of a steady flood
 * into a "UDP memory limit reached".)
 *
 * And they are UDP memory's only when UDP's memory in use (/proc/net/
 * sockstat's UDP mem, pages) is near the point where the kernel refuses
 * it: udp_mem's first value, above which a UDP socket may only take what
 * net.ipv4.udp_rmem_min guarantees (UDP has no pressure state, so
 * __sk_mem_raise_allocated refuses past the first value what TCP would
 * refuse past the third; the lab measured it, tests/lab/
 * scenario_net_udp_mem.py). Near is at least half of it: the kernel
 * counts memory in per-CPU batches and a workload holds it only while a
 * burst waits to be read, so the figure is read where it can be (in the
 * sample, before and after each read of the socket files, and, while such
 * drops are being found, in looks between samples: tw_uncounted_look)
 * and either end of an interval, or a look within it, near the limit
 * names it and the uncounted drops of the window's reads from it on: the
 * looks see a burst when they see it, and counting only the intervals
 * they saw made the figure follow their luck (the lab's net-udp-mem, a
 * change history that said 451,931 -> 586,318 failures a minute, "did not
 * help", where the sockets' drops fell from 17,011 to 10,728 a second:
 * 44 % of the drops counted before, 91 % after). The looks are there because bursts are brief and often
 * periodic: the lab's net-udp-mem, bursts five a second that held UDP
 * memory some tens of ms each, went unseen for 60 s on a quiet machine
 * (56709ce), the samples falling, second after second, between them.
 * Uncounted drops with memory far from the limit are counted apart (far)
 * and named nowhere. */
#ifndef TW_SOCKETS_UNCOUNTED_H
#define TW_SOCKETS_UNCOUNTED_H

#include <stdint.h>

#include "collect/netstat.h"
#include "util/readfile.h"

/* UDP memory as the sample read it. */
struct tw_udp_memory {
	int have_in_use;
	uint64_t in_use;		/* pages: /proc/net/sockstat UDP mem */
	int have_limit;
	uint64_t limit;			/* pages: net.ipv4.udp_mem's first value */
};

struct tw_uncounted {
	int before_valid;		/* before holds the gate at the last read */
	uint64_t before;
	int had_near;			/* memory was near at the last read */
	int seen_near;			/* a look since it saw memory near */
	unsigned window;		/* reads a sight of memory near names the
					 * drops of: the window's, set by the caller */
	unsigned near_left;		/* reads it still names */
	int known;			/* a read could compare */
	uint64_t count;			/* uncounted, memory near: UDP memory's */
	uint64_t far;			/* uncounted, memory far: no one's */
	struct tw_netstat_set net;	/* scratch: net/snmp after a read */
};

void tw_uncounted_init(struct tw_uncounted *u);
void tw_uncounted_free(struct tw_uncounted *u);

/* After a read of the socket files under proc_fd, whose sockets dropped
 * grown since the last read: before_valid and before are the gate's sum,
 * read before them (dropgate.h); net/snmp and snmp6 and sockstat are read
 * now. first: the first read, which has nothing to compare. mem: the
 * sample's (NULL: unknown, and nothing is UDP memory's). Returns 1 when
 * drops were uncounted, UDP memory's or not (the caller then reads every
 * sample for a while, so that memory is seen where the drops are), 0
 * otherwise, TW_E_NOMEM (negative) when out of memory. */
int tw_uncounted_after_read(struct tw_uncounted *u, int proc_fd, struct tw_buf *scratch,
    int first, int before_valid, uint64_t before, uint64_t grown,
    const struct tw_udp_memory *mem);

/* One look at UDP memory now (sockstat under proc_fd; mem gives the
 * limit), between two reads: memory near the limit then names the next
 * read's uncounted drops UDP memory's. A file that cannot be read is no
 * look. */
void tw_uncounted_look(struct tw_uncounted *u, int proc_fd, struct tw_buf *scratch,
    const struct tw_udp_memory *mem);

/* A read that failed: the next finds every socket anew. */
void tw_uncounted_forget(struct tw_uncounted *u);

#endif
