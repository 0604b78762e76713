/* SPDX-License-Identifier: ISC */
/* Sockets that drop: the UDP and UDP-Lite sockets whose drop counts grow,
 * followed from sample to sample over the window, each named by its local
 * address and port, its owner (command and pid) and its receive buffer.
 *
 * The costly parts run only when a socket's drops grew since the last
 * sample, and only for those sockets: the buffer query (collect/sockdiag.h:
 * one netlink dump a protocol) in that sample, and the owner search
 * (collect/sockowner.h: the fds of process after process), which starts
 * then and runs once a sample, each run within a budget of CPU time, until
 * it has found the socket, gone round every process without it, or read
 * owner_procs processes for it (cut). An owner once found is kept for as
 * long as the socket lives, and a socket that a whole pass did not find
 * (held by no process: the kernel's, or its holder gone) is not looked
 * for again; a cut one is, the next time it drops more, from where the
 * search stopped. The buffer is asked again each time the socket drops.
 *
 * Even the socket files (a line per socket) are read only when the host's
 * UDP InErrors moved (sockets/dropgate.h: every socket drop is counted
 * there too, on most kernels), and once a window besides, so that closed
 * sockets leave and queues are fresh; a host whose sockets do not drop
 * pays for /proc/net/snmp6 and a comparison.
 *
 * While InErrors moves, a read costs CPU in proportion to the sockets
 * (the kernel's sock_diag dump is most of it: about 1 ms a thousand
 * sockets here). In a steady flood, where the last read found no socket
 * that had not dropped within the window, the next read waits stride
 * samples, stride being what the last read took over dump_budget_us (at
 * most TW_SOCK_DUMP_STRIDE_MAX and the window), so that the reads' CPU a
 * sample stays within the budget on average. No drop is lost: the
 * kernel's counts are cumulative, and the drops of the samples waited go
 * into the interval of the read that sees them. What it costs: a
 * socket's drops, queue and buffer may be stride - 1 samples old, and a
 * socket that starts to drop in a flood is seen up to stride - 1 samples
 * late (the reads after it are every sample again, until the set of
 * dropping sockets is steady).
 *
 * Linux 6.18 drops datagrams at the UDP memory limit (net.ipv4.udp_mem)
 * in its per-NUMA receive queue's batch, counting them in the socket's
 * drops only: no Udp counter moves (measured here: 77,938 datagrams lost
 * in 3 s, InErrors and MemErrors +0). So each read also compares what the
 * sockets dropped since the last read with what InErrors counted, both at
 * one moment, and gives what no counter counted to UDP memory when its
 * memory in use is near udp_mem (sockets/uncounted.h); where it did, the
 * files are read every sample for a window after, so that those drops
 * are seen as they happen.
 *
 * Recent drops are the increases over the last `intervals` intervals, as
 * the window counts them (window/window.h); the counter is the kernel's
 * 32-bit one, unwrapped. A socket seen for the first time with drops is
 * taken to have dropped them in the interval just past, since it either
 * is new or had none before; in the very first sample nothing is recent. */
#ifndef TW_SOCKWATCH_H
#define TW_SOCKWATCH_H

#include <stddef.h>
#include <stdint.h>

#include "collect/netstat.h"
#include "collect/sockowner.h"
#include "collect/udpsock.h"
#include "sockets/sockbusy.h"
#include "sockets/sockrows.h"
#include "sockets/uncounted.h"
#include "util/readfile.h"
#include "util/scan.h"

/* Processes one socket's owner search reads by default: more than most
 * hosts run. Each costs a system call a fd: 5,000 processes with 50,000
 * fds took about 200 ms of CPU on a loaded VM (BENCHMARKS.md), hence the
 * budget a sample below, under the 50 ms a sample may spend on it. */
#define TW_SOCK_OWNER_PROCS_DEFAULT 10000
#define TW_SOCK_OWNER_BUDGET_MS_DEFAULT 40
#define TW_SOCK_OWNER_BUDGET_MS_MAX 10000

/* CPU a sample that reading the sockets may take on average in a steady
 * flood (above): a fifth of the 5 ms a whole sample takes here with no
 * flood (BENCHMARKS.md, issue 34); and the most samples a read may wait
 * for it, so that a socket that starts to drop is seen 3 samples late at
 * most (15 s at tunewatchd's default interval). */
#define TW_SOCK_DUMP_BUDGET_US_DEFAULT 1000
#define TW_SOCK_DUMP_STRIDE_MAX 4

struct tw_sockwatch_config {
	unsigned intervals;	/* the window, in intervals; at least 1 */
	unsigned owner_procs;	/* processes one socket's owner search reads;
				 * 0: no search */
	uint32_t owner_budget_us; /* thread CPU time a sample's run of the
				 * search may take; 0: no bound (in us, not
				 * the keyword's ms, so that tests can make
				 * a run stop at its first look at the
				 * clock) */
	int diag;		/* ask sock_diag for receive buffers */
	int netlink;		/* read the sockets from sock_diag, not the
				 * files (collect/sockdiag.h: a tenth of the
				 * CPU with thousands of sockets); the files
				 * when the kernel refuses */
	uint64_t (*clock_ns)(void); /* for the owners' CPU (sockbusy.h);
				 * NULL: CLOCK_MONOTONIC */
	uint32_t dump_budget_us; /* CPU a sample the reads of the sockets
				 * may take on average in a steady flood
				 * (above); 0: no budget, read whenever
				 * InErrors moved */
	uint64_t (*cpu_ns)(void); /* the thread's CPU time, to measure a
				 * read; NULL: CLOCK_THREAD_CPUTIME_ID */
};

/* Owners read for their CPU a sample (sockbusy.h), each once however
 * many of its sockets drop, services' before users' (util/uid.h): a
 * bound on what a flood of sockets costs. */
#define TW_SOCK_BUSY_ROWS 64

struct tw_sockwatch {
	struct tw_sockwatch_config cfg;
	uint64_t seq;			/* samples taken */
	struct tw_udp_set cur;		/* the newest reading */
	struct tw_sock_row *rows;	/* sockets in the newest reading that
					 * dropped, sorted by tw_udp_key() */
	size_t nrows;
	size_t cap;
	struct tw_sock_row *spare;
	size_t spare_cap;
	struct tw_buf scratch;
	int read_rc;			/* the newest reading: TW_OK or why not */
	int netlink_failed;		/* sock_diag refused: the files from now on */
	uint64_t reads;			/* times the socket files were read */
	uint64_t last_read_seq;		/* the sample they were last read in */
	int gate_valid;			/* gate_sum holds the last sample's */
	uint64_t gate_sum;		/* UDP InErrors, see dropgate.h */
	uint64_t grown;			/* drops added at the newest read */
	struct tw_uncounted uncounted;	/* what no counter counted */
	uint64_t eager_until;		/* read every sample before this one */
	int pending;			/* InErrors moved since the last read */
	unsigned stride;		/* samples from a read to the next while
					 * InErrors moves: 1, or more in a
					 * steady flood (dump_budget_us) */
	uint64_t read_ns;		/* CPU time the newest read took */
	uint64_t deferred;		/* samples whose read the budget put off */
	struct tw_owner_cursor owner_cursor;	/* where the search stands */
	/* What the costly parts did, for tests and benchmarks. */
	uint64_t owner_runs;		/* samples the fd scan ran in */
	struct tw_owner_scan last_scan;	/* its newest run */
	int diag_rc;			/* the newest buffer query: TW_OK or why not */
};

int tw_sockwatch_init(struct tw_sockwatch *w, const struct tw_sockwatch_config *cfg);
void tw_sockwatch_free(struct tw_sockwatch *w);

/* Bring the rows up to date with one sample: the socket files under
 * proc_fd are read when net (the sample's net/snmp counters; NULL: read
 * every time) says a drop may have happened. mem: UDP memory as the
 * sample read it (NULL: unknown, and no drop is UDP memory's). Lines go
 * to ps. Fails only with TW_E_NOMEM; a missing file leaves no rows
 * (read_rc says why). */
int tw_sockwatch_step(struct tw_sockwatch *w, int proc_fd, const struct tw_netstat_set *net,
    const struct tw_udp_memory *mem, struct tw_parse_stats *ps);

/* Whether recent drops mean anything yet: two samples or more. */
int tw_sockwatch_has_recent(const struct tw_sockwatch *w);

/* The socket drops that no UDP counter of /proc/net/snmp and snmp6
 * counted while UDP memory was near its limit, since the watch began; 0
 * (and *count 0) until a read could compare them with InErrors. */
int tw_sockwatch_uncounted(const struct tw_sockwatch *w, uint64_t *count);

/* Whether drops no counter counted were found within the last window (the
 * files are then read every sample): looks at UDP memory between samples
 * are wanted (sockets/uncounted.h). */
static inline int
tw_sockwatch_looking(const struct tw_sockwatch *w)
{
	return w->seq < w->eager_until;
}

/* One such look, when wanted; returns tw_sockwatch_looking(). */
static inline int
tw_sockwatch_look(struct tw_sockwatch *w, int proc_fd, const struct tw_udp_memory *mem)
{
	if (!tw_sockwatch_looking(w))
		return 0;
	tw_uncounted_look(&w->uncounted, proc_fd, &w->scratch, mem);
	return 1;
}

#endif
