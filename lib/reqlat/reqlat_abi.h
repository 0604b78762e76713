/* SPDX-License-Identifier: ISC */
/* What the BPF program (reqlat.bpf.c) and tunewatchd share: the layout of
 * its global data and maps, in one header both compilers read. Each side
 * brings its own __u32 and __u64 (the BPF side from reqlat_kernel.h,
 * tunewatchd from <linux/types.h>).
 *
 * The buckets are lib/probe/histogram.h's, counted in whole microseconds:
 * a bucket per microsecond below TW_REQLAT_SUB, then TW_REQLAT_SUB buckets
 * an octave up to 2^(TW_REQLAT_TOP_BIT+1) us (67 s), anything slower in
 * the last. tunewatchd asserts that the two agree, so a request counted
 * here lands in the bucket a tw_hist would count it in.
 *
 * tunewatchd gives each device it publishes a slot (an entry of `devs`,
 * placed within TW_REQLAT_DEV_PROBE entries of where its dev_t hashes
 * to); the program times only requests of devices with a slot, and counts
 * them into that slot's histograms, TW_REQLAT_PER_DEV of them. A slot
 * taken back is given again only at a later sample, so a request timed
 * under the old device counts nowhere else: the program looks the device
 * up again when the request ends. */
#ifndef TW_REQLAT_ABI_H
#define TW_REQLAT_ABI_H

#define TW_REQLAT_SUB_BITS 4
#define TW_REQLAT_SUB (1u << TW_REQLAT_SUB_BITS)
#define TW_REQLAT_TOP_BIT 25
#define TW_REQLAT_MAX_US ((1ull << (TW_REQLAT_TOP_BIT + 1)) - 1)
#define TW_REQLAT_BUCKETS \
	(TW_REQLAT_SUB + (TW_REQLAT_TOP_BIT - TW_REQLAT_SUB_BITS + 1) * TW_REQLAT_SUB)

/* The kernel's dev_t: MKDEV(major, minor). */
#define TW_REQLAT_MINOR_BITS 20
#define TW_REQLAT_DEV(major, minor) \
	((((__u32)(major)) << TW_REQLAT_MINOR_BITS) | (__u32)(minor))

enum tw_reqlat_dir {
	TW_REQLAT_READ,
	TW_REQLAT_WRITE,
	TW_REQLAT_NDIRS
};

enum tw_reqlat_kind {
	TW_REQLAT_SERVICE,	/* issue to completion */
	TW_REQLAT_QUEUE,	/* insertion into the scheduler to issue */
	TW_REQLAT_NKINDS
};

#define TW_REQLAT_PER_DEV (TW_REQLAT_NDIRS * TW_REQLAT_NKINDS)
/* The histogram of a slot, direction and kind in `hists`. */
#define TW_REQLAT_INDEX(slot, dir, kind) \
	((slot) * TW_REQLAT_PER_DEV + (dir) * TW_REQLAT_NKINDS + (kind))

/* The device table: a dev_t is looked for in the TW_REQLAT_DEV_PROBE
 * entries from its hash on. dev 0 is a free entry (no block device is
 * 0:0). */
#define TW_REQLAT_DEV_BITS 8
#define TW_REQLAT_DEV_ENTRIES (1u << TW_REQLAT_DEV_BITS)
#define TW_REQLAT_DEV_PROBE 4
#define TW_REQLAT_DEV_HASH(dev) \
	((__u32)((__u32)(dev) * 2654435761u) >> (32 - TW_REQLAT_DEV_BITS))

struct tw_reqlat_dev {
	__u32 dev;
	__u32 slot;
};

/* Requests in flight, in a table of sets of TW_REQLAT_WAYS starts chosen
 * by the hash of the struct request's address: a request looks for its
 * start only in its own set, so each event reads one set. A set with
 * every way taken loses the request (counted), never pairs two. */
#define TW_REQLAT_SET_BITS 12
#define TW_REQLAT_SETS (1u << TW_REQLAT_SET_BITS)
#define TW_REQLAT_WAYS 4
/* Of the low 32 bits of the address: all the verifier lets a program
 * compute with (a 32-bit copy of a pointer is a number). */
#define TW_REQLAT_SET_HASH(lo32) \
	((__u32)((__u32)(lo32) * 2654435761u) >> (32 - TW_REQLAT_SET_BITS))

/* A start: the request's address (0: a free way) and when it was issued,
 * or inserted while the lowest bit is set. Sixteen bytes, so that a set is
 * one cache line. */
#define TW_REQLAT_INSERTED 1ull

struct tw_reqlat_start {
	__u64 rq;
	__u64 ns;
};

/* One CPU's counts of one histogram since its slot was given. The largest
 * request is kept per epoch (tunewatchd advances `epoch` at each sample),
 * in two slots by the epoch's parity, so that the interval just ended can
 * be read while the next one is counted into the other slot. */
struct tw_reqlat_hist {
	__u64 sum_ns;
	__u64 max_ns[2];
	__u32 max_epoch[2];
	__u32 bucket[TW_REQLAT_BUCKETS];
};

/* The per-CPU counters of requests of published devices the program could
 * not time. */
enum tw_reqlat_counter {
	TW_REQLAT_LOST_FULL,	/* every way of its set was taken */
	TW_REQLAT_NCOUNTERS
};

#endif
