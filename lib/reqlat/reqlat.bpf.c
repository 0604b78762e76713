/* SPDX-License-Identifier: ISC OR GPL-2.0-only */
/* The request-latency program: on the block tracepoints, each request's
 * time from issue to completion (and from insertion to issue where a
 * scheduler queues it) into a log-linear histogram per device, direction
 * and kind (reqlat_abi.h).
 *
 * Requests are keyed by their struct request, which the BTF-typed
 * tracepoints (tp_btf) pass as their first argument: a request is one
 * object from allocation to completion, whatever its sectors, so the key
 * cannot pair two requests as a sector key could.
 *
 * Where the kernel keeps statistics for a queue (QUEUE_FLAG_STATS: on
 * wherever writeback throttling or blk-iolatency runs), it stamps each
 * request's issue time into the request itself, and the program reads it
 * at completion: nothing is kept per request. The kernel takes that stamp
 * from a clock it caches for a task's plug, so it may be the plug's first
 * time, some microseconds before the issue. Elsewhere, or asked to
 * (requestLatencyIssueClock program), the program keeps the start in a
 * table of its own, one set of four starts per hash of the request's
 * address; an address is reused only after its request ended, and each
 * end frees its start.
 *
 * The cost is what a request adds to the I/O path, so the program keeps to
 * plain memory: the device table and the starts are global data (one probe
 * of a small table, one cache line of starts, a compare-and-swap to take a
 * way); only the histograms are a per-CPU map, so that no two CPUs write
 * one line. No hash map, no lock. */
#include "reqlat_kernel.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "reqlat_abi.h"
#include "reqlat_bucket.h"

/* The kernel lets a program call its GPL-only helpers only when the
 * program says it is GPL-compatible; this file is ISC or GPL-2.0, which
 * the kernel reads as "Dual BSD/GPL". */
char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* QUEUE_FLAG_STATS's bit, which tunewatchd finds in the kernel's BTF
 * before the load; 64 (the kernel has none, or the program's own clock
 * is asked for): the kernel's stamps are never used. */
const volatile __u32 stats_bit = 64;

/* Written by tunewatchd through the mmapped global data: the epoch at
 * each sample, a device's entry when it gives or takes back a slot. */
volatile __u32 epoch;
struct tw_reqlat_dev devs[TW_REQLAT_DEV_ENTRIES];
struct tw_reqlat_start starts[TW_REQLAT_SETS][TW_REQLAT_WAYS];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TW_REQLAT_PER_DEV);	/* tunewatchd sets its own */
	__type(key, __u32);
	__type(value, struct tw_reqlat_hist);
} hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TW_REQLAT_NCOUNTERS);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

static __always_inline void
count_lost(void)
{
	__u32 k = TW_REQLAT_LOST_FULL;
	__u64 *c = bpf_map_lookup_elem(&counters, &k);

	if (c != 0)
		(*c)++;
}

static __always_inline void
count(__u32 index, __u64 ns)
{
	struct tw_reqlat_hist *h = bpf_map_lookup_elem(&hists, &index);
	__u32 b = tw_reqlat_bucket(ns), e = epoch, slot = e & 1;

	if (h == 0)
		return;
	/* The bound the verifier needs, on the register the index is read
	 * from. */
	barrier_var(b);
	if (b >= TW_REQLAT_BUCKETS)
		return;
	h->bucket[b]++;
	h->sum_ns += ns;
	if (h->max_epoch[slot] != e) {
		h->max_epoch[slot] = e;
		h->max_ns[slot] = ns;
	} else if (ns > h->max_ns[slot]) {
		h->max_ns[slot] = ns;
	}
}

/* The histogram of rq's device and direction, of kind: 0 and *index, or
 * -1 for a device without a slot, or an operation that is neither a read
 * nor a write (flushes, discards, driver commands). */
static __always_inline int
hist_of(struct request *rq, __u32 kind, __u32 *index)
{
	struct gendisk *disk = rq->q->disk;
	__u32 op = rq->cmd_flags & TW_REQ_OP_MASK, dev, h, i;

	if (op > TW_REQ_OP_WRITE || disk == 0)
		return -1;
	dev = TW_REQLAT_DEV(disk->major, disk->first_minor);
	h = TW_REQLAT_DEV_HASH(dev);
	for (i = 0; i < TW_REQLAT_DEV_PROBE; i++) {
		struct tw_reqlat_dev *d = &devs[(h + i) & (TW_REQLAT_DEV_ENTRIES - 1)];

		if (d->dev == dev) {
			*index = TW_REQLAT_INDEX(d->slot, op == TW_REQ_OP_READ ? TW_REQLAT_READ :
			    TW_REQLAT_WRITE, kind);
			return 0;
		}
	}
	return -1;
}

/* Whether the kernel stamps rq's issue time itself. */
static __always_inline int
stamped(struct request *rq)
{
	__u32 bit = stats_bit;

	return bit < 64 && (rq->q->queue_flags & (1ull << bit)) != 0;
}

/* rq's set of starts. A program may keep a pointer in memory and compare
 * it whole, but compute only with a 32-bit copy of it. */
static __always_inline struct tw_reqlat_start *
set_of(struct request *rq)
{
	__u32 lo = (__u32)(unsigned long)rq;

	return starts[TW_REQLAT_SET_HASH(lo) & (TW_REQLAT_SETS - 1)];
}

/* rq's start, or NULL. */
static __always_inline struct tw_reqlat_start *
find(struct request *rq)
{
	struct tw_reqlat_start *set = set_of(rq);
	__u32 i;

	for (i = 0; i < TW_REQLAT_WAYS; i++)
		if (set[i].rq == (__u64)rq)
			return &set[i];
	return 0;
}

/* A free way of rq's set, taken for rq, or NULL (counted). */
static __always_inline struct tw_reqlat_start *
take(struct request *rq)
{
	struct tw_reqlat_start *set = set_of(rq);
	__u32 i;

	for (i = 0; i < TW_REQLAT_WAYS; i++)
		if (set[i].rq == 0 &&
		    __sync_val_compare_and_swap(&set[i].rq, 0, (__u64)rq) == 0)
			return &set[i];
	count_lost();
	return 0;
}

/* Give a way back. Its time is read before (a compiler barrier: clang 14
 * has no release store for BPF); a way is taken again only by a
 * compare-and-swap, which orders the rest. */
static __always_inline void
release(struct tw_reqlat_start *s)
{
	asm volatile("" ::: "memory");
	*(volatile __u64 *)&s->rq = 0;
}

/* Time rq from ns on (flag: TW_REQLAT_INSERTED or 0), in the way it has or
 * a new one; s: its way, if known. */
static __always_inline void
start(struct request *rq, struct tw_reqlat_start *s, __u64 ns, __u64 flag)
{
	__u32 index;

	if (hist_of(rq, TW_REQLAT_SERVICE, &index) != 0)
		return;
	if (s == 0 && (s = find(rq)) == 0 && (s = take(rq)) == 0)
		return;
	s->ns = (ns & ~TW_REQLAT_INSERTED) | flag;
}

/* Without a scheduler, a request is inserted only on its way to the
 * driver (a plug's list, a busy driver's dispatch list): no queue time to
 * keep, and the issue would not look for it. */
SEC("tp_btf/block_rq_insert")
int BPF_PROG(tw_reqlat_insert, struct request *rq)
{
	if (rq->q->elevator != 0)
		start(rq, 0, bpf_ktime_get_ns(), TW_REQLAT_INSERTED);
	return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(tw_reqlat_issue, struct request *rq)
{
	struct tw_reqlat_start *s = 0;
	__u64 now;
	__u32 index;

	/* Only a scheduler's requests were inserted: the time one waited
	 * there, then its service time from now. */
	if (rq->q->elevator != 0 && (s = find(rq)) != 0 && (s->ns & TW_REQLAT_INSERTED)) {
		now = bpf_ktime_get_ns();
		if (hist_of(rq, TW_REQLAT_QUEUE, &index) == 0 && now >= s->ns)
			count(index, now - (s->ns & ~TW_REQLAT_INSERTED));
		if (stamped(rq))
			release(s);
		else
			s->ns = now & ~TW_REQLAT_INSERTED;
		return 0;
	}
	if (stamped(rq))
		return 0;
	start(rq, s, bpf_ktime_get_ns(), 0);
	return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(tw_reqlat_complete, struct request *rq)
{
	__u64 now = bpf_ktime_get_ns(), ns = 0;
	struct tw_reqlat_start *s;
	__u32 index;

	if (stats_bit < 64 && bpf_core_field_exists(rq->io_start_time_ns))
		ns = rq->io_start_time_ns;
	if (ns == 0) {
		if ((s = find(rq)) == 0)
			return 0;
		ns = s->ns;
		release(s);
		/* Ended before it was issued (an error in the queue): no
		 * service time. */
		if (ns & TW_REQLAT_INSERTED)
			return 0;
	}
	/* Looked up again, not kept from the issue: the device may have lost
	 * its slot since. */
	if (now >= ns && hist_of(rq, TW_REQLAT_SERVICE, &index) == 0)
		count(index, now - ns);
	return 0;
}

/* A request merged into another is freed without completing: its start
 * must not outlive it. */
SEC("tp_btf/block_rq_merge")
int BPF_PROG(tw_reqlat_merge, struct request *rq)
{
	struct tw_reqlat_start *s = find(rq);

	if (s != 0)
		release(s);
	return 0;
}
