/* SPDX-License-Identifier: ISC */
/* Which symptom the figures show, or that none does.
 *
 * A rule of rules.c names a knob for a symptom; this file decides,
 * from a check's figures, whether the symptom's precondition is shown: a
 * queue knob needs a queue (aqu-sz of 2 or more on that device),
 * swappiness needs swap configured and in use, a read-ahead change needs
 * reads that fill the read-ahead window. Each finding carries the
 * figures that show it, for the "tune:" line. When no precondition holds,
 * the verdict says so in one line, with the figures, for a "no tunable:"
 * line: a person, not a knob, is needed.
 *
 * The functions only read the figures they are given; they name no
 * tunable and print nothing. Thresholds (when a ratio is "bad") stay the
 * checks' own: a figure comes in already judged where that matters. */
#ifndef TW_ADVICE_EVIDENCE_H
#define TW_ADVICE_EVIDENCE_H

#include <stddef.h>
#include <stdint.h>

#include "advice/advice.h"
#include "advice/verdict.h"
#include "figures/cache_record.h"
#include "figures/disk_record.h"

/* "Well above 1": a queue that a queue knob can shorten. */
#define TW_EVIDENCE_DEEP_QUEUE 2.0
/* Refaulted pages that make up this share of what is read from storage
 * mean the cache evicts what is still in use (4 KiB pages against KiB). */
#define TW_EVIDENCE_REFAULT_SHARE 0.25
/* Free blocks of 32 KiB or more, outside the DMA zone, that count as "none
 * left" for a high-order allocation. */
#define TW_EVIDENCE_FEW_HIGHORDER 16
/* Memory pressure (PSI some, percent) that shows tasks stalling. */
#define TW_EVIDENCE_STALL_PSI 0.1
/* A read-ahead window below the kernel's default (VM_READAHEAD_PAGES,
 * 128 KiB) that a device's reads fill, at this many reads a second or
 * more: a stream held to small requests, each a wait for the reader. */
#define TW_EVIDENCE_DEFAULT_WINDOW_KB 128
#define TW_EVIDENCE_SEQ_READS 100.0
/* Device reads the window sets the size of: from this share of the
 * read-ahead window to this many times it (a request merged with the next
 * is larger). */
#define TW_EVIDENCE_FILL_LOW 0.9
#define TW_EVIDENCE_FILL_HIGH 1.5
/* Writers throttled at the dirty limit this share of the window, percent,
 * while the disk that took the writes was busy less than this (and its
 * writes did not queue, TW_EVIDENCE_DEEP_QUEUE): the limit, not the disk,
 * held them back. */
#define TW_EVIDENCE_DIRTY_LIMITED 10.0
#define TW_EVIDENCE_WRITER_BUSY 80.0

/* One slow device as its evidence reads it: the device's record, read as
 * it is (figures/disk_record.h: an absent figure is NAN; nr_requests,
 * read_ahead_kb and rotational -1), where an absent queue depth or request
 * rate reads as none, and what the judge adds to it. */
struct tw_disk_evidence {
	const struct tw_disk_record *rec;
	/* The device as the lines name it; NULL: rec->name. */
	const char *name;
	/* A percentile of the distribution of every request judged instead of
	 * r_await or w_await: its name in the evidence ("read p99") and its
	 * value, ms. NULL: the record's r_await_ms, w_await_ms. */
	const char *r_name, *w_name;
	double r_pct_ms, w_pct_ms;
	unsigned window_s;
	/* Writers held at the dirty limit in the window: dirty pages stayed
	 * past the background threshold, so the flusher wrote all along. */
	int writers_held;
};

/* The name d's lines give the device, and its figures the rules read. */
static inline const char *
tw_disk_evidence_name(const struct tw_disk_evidence *d)
{
	return d->name != NULL ? d->name : d->rec->name;
}

static inline double
tw_disk_evidence_queue(const struct tw_disk_evidence *d)
{
	return tw_fig_or0(d->rec->queue_depth);
}

static inline double
tw_disk_evidence_rops(const struct tw_disk_evidence *d)
{
	return tw_fig_or0(d->rec->read_ops_s);
}

static inline double
tw_disk_evidence_wops(const struct tw_disk_evidence *d)
{
	return tw_fig_or0(d->rec->write_ops_s);
}

/* A device whose reads are too slow (or whose queue is too deep). */
int tw_evidence_disk_read(const struct tw_disk_evidence *d, struct tw_verdict *out);
/* A device whose writes are too slow. The dirty limits only where a deep
 * queue of writes came in bursts: the device had room in the window
 * (busy under TW_EVIDENCE_WRITER_BUSY) and no writer was held at the
 * dirty limit; one busy through it writes at its throughput, and a writer
 * faster than that is held back whatever the limits (no tunable). */
int tw_evidence_disk_write(const struct tw_disk_evidence *d, struct tw_verdict *out);

/* A queue knob shortens the wait of one kind of request behind another:
 * reads and writes each make up at least this share of the requests. A
 * single stream at its device's throughput queues behind itself, and a
 * shorter queue only moves the wait into the application. */
#define TW_EVIDENCE_MIXED_SHARE 0.05

/* Seeks are slow: the active probe's p-th percentile (ms) of random reads
 * on device d (evidence_probe.c). The same preconditions as slow r_await:
 * a queue knob only where d's queue is deep; without d's queue figures
 * (have_queue 0: the agent's disk filter hides the device) no knob is
 * named, and the line says why. */
int tw_evidence_probe_seek(const struct tw_disk_evidence *d, int have_queue, double p,
    double ms, struct tw_verdict *out);

/* The buffer cache as its evidence reads it: the cache's record, read as
 * it is (figures/cache_record.h: an absent figure is TW_FIG_NONE), and
 * what the judge adds to it: whether the refaults passed the check's
 * threshold, the two disks it chose from the view, by their records, the
 * system and the window. */
struct tw_cache_evidence {
	const struct tw_cache_record *rec;
	int refaults_bad;		/* over the check's refault threshold */
	/* Where read-ahead would matter: the disk whose reads fill a small
	 * window, the busiest such, else the disk that read most; NULL: none. */
	const struct tw_disk_record *disk;
	/* Writers at the dirty limit: the disk that took the writes
	 * (judge_cache.c); NULL: none. */
	const struct tw_disk_record *writer;
	enum tw_os os;
	unsigned window_s;
};

/* The record says how long writers sat at the dirty limit, and the limit. */
static inline int
tw_cache_evidence_has_dirty(const struct tw_cache_record *rec)
{
	return tw_fig_has(rec->dirty_limited_pct) && tw_fig_has(rec->dirty_threshold_bytes);
}

/* The writes queued on the disk that took them, on average over the
 * window (Little's law: requests a second times the time each spent
 * there), requests; 0 with no writer or without its figures. */
double tw_cache_evidence_writer_waiting(const struct tw_cache_evidence *c);

/* The host's own refaults: those its own reclaim can have caused. A
 * cgroup's reclaim at its limit is not the host's (twBcReclaimRate leaves
 * it out), so the refaults are at most the host's reclaim rate; all of
 * them without that figure. */
double tw_evidence_host_refaults(const struct tw_cache_evidence *c);

/* Reads of a device the size of a read-ahead window smaller than the
 * kernel's default (TW_EVIDENCE_FILL_LOW to _HIGH times it), at
 * TW_EVIDENCE_SEQ_READS or more a second. */
int tw_evidence_small_window(double rops, double read_bytes_s, int64_t read_ahead_kb);

/* Writers throttled at the dirty limit for TW_EVIDENCE_DIRTY_LIMITED of
 * the window while the disk that took the writes had room: busy under
 * TW_EVIDENCE_WRITER_BUSY, with fewer than TW_EVIDENCE_DEEP_QUEUE writes
 * queued on average (writes that wait on the disk are held by it, and a
 * higher limit only lets more of them wait). */
int tw_evidence_dirty_limited(const struct tw_cache_evidence *c);

/* The hit ratio is under its threshold, refaults over theirs, or a
 * device's sequential reads fill a small read-ahead window: a cache too
 * small (refaults), or data read once (few refaults) in requests the
 * window sets. */
int tw_evidence_cache_reads(const struct tw_cache_evidence *c, struct tw_verdict *out);

/* Writers are throttled at the dirty limit (tw_evidence_dirty_limited):
 * raise it. *shortfall gets what the limit lacks of twice a second of the
 * writes of the disk that took them (writers pause from half-way below
 * the limit), in bytes, which sizes the suggestion (advice.h, "sized").
 * Returns TW_OK or TW_E_INVAL. */
int tw_evidence_cache_dirty(const struct tw_cache_evidence *c, struct tw_verdict *out,
    uint64_t *shortfall);
/* Memory pressure is over its threshold: stalls in reclaim, or thrashing. */
int tw_evidence_cache_pressure(const struct tw_cache_evidence *c, struct tw_verdict *out);

/* Compaction failures and what is left of large free blocks. */
struct tw_highorder_figures {
	uint64_t failures;		/* compaction failures in the window */
	int have_free;
	uint64_t free_blocks;		/* 32 KiB blocks free outside DMA */
	int have_psi;
	double psi;			/* memory pressure, percent */
	unsigned window_s;
};

int tw_evidence_highorder(const struct tw_highorder_figures *h, struct tw_verdict *out);

/* Receive queues pruned, or segments dropped for want of memory (TcpExt
 * RcvPruned, OfoPruned, TCPRcvQDrop, TCPBacklogDrop), beside the times
 * TCP entered memory pressure (TCPMemoryPressures) in the same window. */
struct tw_tcp_prune_figures {
	uint64_t failures;
	uint64_t pressures;
	unsigned window_s;
	/* The time TCP was in memory pressure in the window, where the
	 * agent has it: pressure through the window is pressure, though
	 * TCP entered it before. */
	int have_pressure_ms;
	uint64_t pressure_ms;
};

/* tcp_rmem's third field (TCP_PRUNE), unless TCP was under memory
 * pressure in the window: the kernel prunes then because tcp_mem ran out,
 * not because a socket reached its own buffer, and a larger tcp_rmem
 * would ask for more of what ran out; the tcp memory pool's finding
 * names tcp_mem, and this one says so with no tunable. */
int tw_evidence_tcp_prune(const struct tw_tcp_prune_figures *f, struct tw_verdict *out);

/* One UDP socket that dropped datagrams in the window (advice/sockevidence.c).
 * Unknown: command NULL, have_* 0. */
struct tw_socket_figures {
	const char *proto;		/* "udp" */
	const char *address;		/* "0.0.0.0" */
	unsigned port;
	const char *command;		/* the owner's comm; NULL: unknown */
	int32_t pid;
	uint64_t recent;		/* datagrams dropped in the window */
	unsigned window_s;
	int have_rcvbuf;
	uint64_t rcvbuf;		/* bytes */
	int have_rmem_max;
	uint64_t rmem_max;		/* net.core.rmem_max, bytes */
	int have_rmem_default;
	uint64_t rmem_default;		/* net.core.rmem_default, bytes */
	/* Datagrams the host's UDP memory pool dropped in the window (its
	 * twDblockRecentFailures): a socket drops then whatever its buffer. */
	uint64_t udp_mem_failures;
	/* Over the window's intervals in which it dropped, by their drops
	 * (twSockDropOwnerCpu, ...CpuWait, ...FullShare): the owner's time
	 * on a CPU and waiting for one, percent of one CPU, and the share of
	 * the drops in intervals that began or ended with its queue full. */
	int have_full;			/* full_share known */
	int have_cpu;			/* owner_cpu and owner_cpu_wait known */
	double owner_cpu;
	double owner_cpu_wait;
	double full_share;
};

/* A receiver short of CPU: while its socket dropped, TW_SHORT_CPU_FULL
 * percent of its drops or more in intervals that began or ended with its
 * queue full (at least half its buffer), and its owner on a CPU or
 * waiting for one TW_SHORT_CPU_BUSY percent of one CPU or more: never off
 * a CPU for want of data. A steady excess then drops whatever the buffer
 * (the lab's neg-udp-cpu); a receiver that stalls in bursts, which a
 * buffer serves, sleeps between them. */
#define TW_SHORT_CPU_FULL 80.0
#define TW_SHORT_CPU_BUSY 90.0
int tw_evidence_short_of_cpu(double owner_cpu, double owner_cpu_wait, double full_share);

/* Whether a socket's receiver cannot keep up, so that no buffer helps:
 * short of CPU, or its queue full as it dropped (TW_SHORT_CPU_FULL) while
 * its owner's CPU is not known (its owner not found yet, fewer than two
 * intervals of it read, or not readable): a steady excess either way. */
int tw_evidence_cannot_keep_up(int have_full, double full_share, int have_cpu,
    double owner_cpu, double owner_cpu_wait);

/* A receiver short of CPU (tw_evidence_short_of_cpu), or one whose queue
 * was full as it dropped while its CPU is not known yet: no tunable, since
 * a bigger buffer only delays its drops. The buffer at what SO_RCVBUF may
 * ask for: raise rmem_max (and the application's SO_RCVBUF). Below it, or
 * unknown: no tunable, and what to do instead (below it the application's
 * own SO_RCVBUF, which no sysctl sets: verdict.no_apply says so for the
 * ticket); a buffer of
 * exactly rmem_default, what a socket that sets no SO_RCVBUF gets, also
 * names rmem_default for an application that cannot set it. While UDP's
 * memory limit dropped datagrams in the window, none of these: the
 * socket dropped for want of UDP memory, which the udp memory pool's
 * finding names (net.ipv4.udp_mem), so no buffer knob is named. */
int tw_evidence_socket(const struct tw_socket_figures *f, struct tw_verdict *out);

/* The host's RcvbufErrors in the window beside what twSocketDropTable
 * says of the sockets that dropped in it. */
struct tw_udp_rcvbuf_figures {
	uint64_t failures;		/* RcvbufErrors in the window */
	unsigned window_s;
	size_t sockets;			/* sockets that dropped in the window */
	size_t at_max;			/* of those, buffers at rmem_max */
	size_t unknown;			/* of those, buffers unknown */
	size_t cannot_keep_up;		/* of those, receivers that cannot
					 * keep up (tw_evidence_cannot_
					 * keep_up; counted neither at_max
					 * nor unknown) */
	/* Users' sockets (util/uid.h) that dropped in it, not counted above,
	 * how many users own them, and the one user's uid when one does. */
	uint64_t user_sockets;
	size_t users;
	uint32_t user_uid;
	/* A knob of their buffers (rmem_default, rmem_max) changed on the
	 * host less than a window ago, or NULL. */
	const char *changed;
};

/* rmem_max and rmem_default (UDP_RCVBUF), unless every socket that
 * dropped is known and below rmem_max, or its receiver cannot keep up
 * (none at rmem_max): a bigger buffer only delays such a receiver's drops,
 * and below rmem_max the applications' SO_RCVBUF is the knob, which each
 * socket's own line says. Nor when only
 * users' sockets dropped: a host-wide knob would serve those users alone,
 * and each raises their own SO_RCVBUF. Nor when no socket open now dropped
 * and `changed` was changed within the window: the sockets that dropped
 * closed since (made again to take the new value, as its advice says), the
 * window's count is the old value's, and the change history judges it. */
int tw_evidence_udp_rcvbuf(const struct tw_udp_rcvbuf_figures *f, struct tw_verdict *out);

/* No tunable: every listener seen full when the accept queues overflowed
 * (failures in window_s) was user uid's, so that user's own listen()
 * backlog is the knob and a larger net.core.somaxconn would serve that
 * user alone. */
int tw_evidence_listen_user(uint64_t failures, unsigned window_s, uint32_t uid,
    struct tw_verdict *out);

/* One user's sockets that dropped in the window, judged as one. */
struct tw_user_sockets_figures {
	uint32_t uid;
	uint64_t sockets;		/* theirs that dropped in the window */
	uint64_t recent;		/* what they dropped in it */
	unsigned window_s;
	const char *worst;		/* the worst row's name ("udp 127.0.0.1:514"),
					 * or NULL */
	const char *command;		/* its owner's comm, shown; NULL: unknown */
	int32_t pid;
	uint64_t worst_recent;
};

/* No tunable: only that user's sockets drop, so a host-wide sysctl
 * (net.core.rmem_max, rmem_default) would serve that user alone; the
 * user's own SO_RCVBUF is the knob, which verdict.no_apply says. */
int tw_evidence_user_sockets(const struct tw_user_sockets_figures *f, struct tw_verdict *out);

#endif
