/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "advice/advice.h"

#include <limits.h>
#include <stddef.h>

#include "advice/rules_actions.h"

/*
 * The advice table. Every rule here is justified in doc/ADVICE-REFERENCE.md
 * with the line of documentation or source that says which way the knob
 * moves the symptom; change a rule there first. Keep the table ordered by
 * symptom (tw_advice_rules() returns a slice of it) and, within a
 * symptom, by preference. A rule's actions are the k-th thing to try on
 * each system; where a system has nothing, its name is NULL.
 *
 * A rule only says what to turn once its symptom is shown; whether the
 * figures show it (a queue for a queue knob, swap in use for swappiness)
 * is decided in the evidence files (evidence.c, evidence_disk.c), which
 * name no knob themselves.
 *
 * Bounds are the kernel's where it has one (and the one every kernel
 * accepts when it changed with a release), otherwise INT_MAX (for
 * doubling) or a floor below which the tunable stops making sense.
 *
 * A queue whose overflows are counted (the per-CPU backlog, the accept
 * queue) is doubled, not sized from them: the window's drops are many
 * bursts' (sized from them, the suggestion followed the window's length
 * to the 16x cap), and no counter says how large one burst was. A
 * doubling each round ends within twice what the bursts need; the lab's
 * sweeps measure it (doc/ADVICE-REFERENCE.md, issue 32).
 */

/*
 * The ratio/bytes pairs: "only one of them may be specified at a time ...
 * the other appears as 0 when read" (vm.rst). A ratio rule moves to the
 * bytes twin when bytes is set; a bytes rule moves to the ratio twin when
 * bytes reads 0. The kernel ignores dirty_bytes below two pages: 131072 is
 * two pages on every page size up to 64 KiB.
 */
static const struct tw_advice_action dirty_background_bytes_twin =
	HALVE("vm.dirty_background_bytes", 1, 0, VM_RST);
static const struct tw_advice_action dirty_bytes_twin =
	HALVE("vm.dirty_bytes", 131072, 0, VM_RST);
static const struct tw_advice_action dirty_background_ratio_twin =
	HALVE("vm.dirty_background_ratio", 1, 0, VM_RST);

#define DIRTY_BACKGROUND_RATIO \
	{ .name = "vm.dirty_background_ratio", .dir = TW_ADV_DOWN, .op = TW_ADV_HALVE, \
	  .min = 1, .twin = &dirty_background_bytes_twin, .flags = TW_ADV_TWIN_IF_SET, \
	  .source = VM_RST }
#define DIRTY_RATIO \
	{ .name = "vm.dirty_ratio", .dir = TW_ADV_DOWN, .op = TW_ADV_HALVE, \
	  .min = 1, .twin = &dirty_bytes_twin, .flags = TW_ADV_TWIN_IF_SET, \
	  .source = VM_RST }
#define DIRTY_BACKGROUND_BYTES \
	{ .name = "vm.dirty_background_bytes", .dir = TW_ADV_DOWN, .op = TW_ADV_HALVE, \
	  .min = 1, .twin = &dirty_background_ratio_twin, .flags = TW_ADV_TWIN_IF_ZERO, \
	  .source = VM_RST }

/* The limits raised, where writers are throttled below what the disks
 * take: dirty_bytes sized from a second of the busiest writer's writes
 * (TW_ADV_SIZED, lib/advice/shortfall.h), its background threshold
 * doubled; each moves to its ratio twin when bytes reads 0. A ratio stops
 * at 100. */
static const struct tw_advice_action dirty_ratio_up_twin =
	DOUBLE_MAX("vm.dirty_ratio", 100, 0, VM_RST);
static const struct tw_advice_action dirty_background_ratio_up_twin =
	DOUBLE_MAX("vm.dirty_background_ratio", 100, 0, VM_RST);

#define DIRTY_BYTES_UP \
	{ .name = "vm.dirty_bytes", .dir = TW_ADV_UP, .op = TW_ADV_DOUBLE, \
	  .twin = &dirty_ratio_up_twin, .flags = TW_ADV_TWIN_IF_ZERO | TW_ADV_SIZED, \
	  .source = VM_RST }
#define DIRTY_BACKGROUND_BYTES_UP \
	{ .name = "vm.dirty_background_bytes", .dir = TW_ADV_UP, .op = TW_ADV_DOUBLE, \
	  .twin = &dirty_background_ratio_up_twin, .flags = TW_ADV_TWIN_IF_ZERO, \
	  .source = VM_RST }

static const struct tw_advice_rule advice_table[] = {
	/* ---- Message-buffer pools ("dblocks") */
	{ TW_SYM_SOFTNET_DROPS,
	  "the per-CPU input queue overflowed before the stack drained it",
	  { DOUBLE("net.core.netdev_max_backlog", 0, NET_RST),
	    NETISR_LIMIT("net.isr.defaultqlimit", TW_ADV_BOOT, "netisr.c"),
	    NONE }, 0 },
	{ TW_SYM_SOFTNET_DROPS,
	  "the IP input queue overflowed before the stack drained it",
	  { NONE,
	    NETISR_LIMIT("net.inet.ip.intr_queue_maxlen", 0, "netisr.c"),
	    NONE }, 0 },

	{ TW_SYM_SOFTNET_SQUEEZE,
	  "the softirq ran out of budget with packets still waiting",
	  { DOUBLE("net.core.netdev_budget", 0, NET_RST),
	    /* kern_poll.c: 10 <= burst_max <= 1000 */
	    DOUBLE_MAX("kern.polling.burst_max", 1000, 0, "polling(4)"),
	    NONE }, 0 },
	{ TW_SYM_SOFTNET_SQUEEZE,
	  "the softirq ran out of time with packets still waiting",
	  { DOUBLE("net.core.netdev_budget_usecs", 0, NET_RST), NONE, NONE }, 0 },

	{ TW_SYM_UDP_RCVBUF,
	  "datagrams were dropped because the receive buffer was full; rmem_max only "
	  "lets a socket that sets SO_RCVBUF ask for more",
	  { DOUBLE("net.core.rmem_max", 0, NET_RST),
	    DOUBLE("kern.ipc.maxsockbuf", 0, TUNING_7),
	    NONE }, 0 },
	{ TW_SYM_UDP_RCVBUF,
	  "datagrams were dropped because the receive buffer was full; rmem_default "
	  "sizes every socket that does not set SO_RCVBUF",
	  { DOUBLE("net.core.rmem_default", 0, NET_RST),
	    DOUBLE("net.inet.udp.recvspace", 0, "udp(4)"),
	    NONE }, TW_RULE_WITH_PREV },

	{ TW_SYM_UDP_SNDBUF,
	  "sends failed on a full send buffer, or on ENOBUFS from a full device queue, "
	  "which the same counter counts (see tc -s qdisc); wmem_default sizes every "
	  "socket that does not set SO_SNDBUF",
	  { DOUBLE("net.core.wmem_default", 0, NET_RST),
	    DOUBLE("kern.ipc.maxsockbuf", 0, TUNING_7),
	    NONE }, 0 },
	{ TW_SYM_UDP_SNDBUF,
	  "wmem_max only lets a socket that sets SO_SNDBUF ask for more",
	  { DOUBLE("net.core.wmem_max", 0, NET_RST), NONE, NONE }, TW_RULE_WITH_PREV },

	/* UDP has no memory-pressure state: the kernel refuses memory above
	 * the first value (sock.c, __sk_mem_raise_allocated), which the lab
	 * measured; all three are doubled so that their order holds. */
	{ TW_SYM_UDP_MEM,
	  "UDP's memory limit was reached: all UDP sockets together may hold no more pages "
	  "than udp_mem's first value",
	  { DOUBLE_FIELD("net.ipv4.udp_mem", TW_ADV_ALL_FIELDS, IP_SYSCTL), NONE, NONE }, 0 },

	{ TW_SYM_TCP_MEM,
	  "TCP entered memory pressure and shrank its socket buffers",
	  { DOUBLE_FIELD("net.ipv4.tcp_mem", TW_ADV_ALL_FIELDS, IP_SYSCTL),
	    /* Raised at run time; never lowered (kern_mbuf.c). */
	    DOUBLE("kern.ipc.nmbclusters", 0, TUNING_7),
	    NONE }, 0 },

	{ TW_SYM_TCP_PRUNE,
	  "receive queues were pruned to free memory: data was dropped and must be resent",
	  { DOUBLE_FIELD("net.ipv4.tcp_rmem", 2, IP_SYSCTL),
	    DOUBLE("net.inet.tcp.recvbuf_max", 0, "tcp(4)"),
	    NONE }, 0 },

	/* Only the accept queue: tunewatch counts ListenOverflows, not the
	 * SYN-queue drops that tcp_max_syn_backlog would answer. */
	{ TW_SYM_LISTEN_OVERFLOW,
	  "the accept queue was full (the application's listen() backlog must follow)",
	  /* 65535 is the most kernels before 4.1 accept (a u16 backlog). */
	  { DOUBLE_MAX_SINCE("net.core.somaxconn", 65535, TW_KERNEL(4, 1), INT_MAX, 0, IP_SYSCTL),
	    /* 65535 is the most older releases accept. */
	    DOUBLE_MAX("kern.ipc.soacceptqueue", 65535, 0, "listen(2)"),
	    NONE }, 0 },

	{ TW_SYM_HIGHORDER_FAIL,
	  "large contiguous blocks ran out while tasks stalled in reclaim: wake kswapd earlier",
	  { WATERMARK_SCALE_FACTOR,
	    DOUBLE("kern.ipc.nmbjumbop", 0, TUNING_7),
	    DOUBLE("NBLKnnnn", TW_ADV_RELINK | TW_ADV_PER_CLASS, SCO_GUIDE) }, 0 },
	{ TW_SYM_HIGHORDER_FAIL,
	  "large contiguous blocks ran out while tasks stalled in reclaim: keep more memory free",
	  { MIN_FREE_KBYTES,
	    DOUBLE("kern.ipc.nmbjumbo9", 0, TUNING_7),
	    NONE }, 0 },
	{ TW_SYM_HIGHORDER_FAIL,
	  "16 KiB jumbo clusters were denied",
	  { NONE, DOUBLE("kern.ipc.nmbjumbo16", 0, TUNING_7), NONE }, 0 },

	{ TW_SYM_MBUF_DENIED,
	  "the pool of message buffers was exhausted",
	  { NONE,
	    DOUBLE("kern.ipc.nmbclusters", 0, TUNING_7),
	    DOUBLE("NBLKnnnn", TW_ADV_RELINK | TW_ADV_PER_CLASS, SCO_GUIDE) }, 0 },
	{ TW_SYM_MBUF_DENIED,
	  "the pages STREAMS may use for message buffers ran out",
	  { NONE, NONE, DOUBLE("NSTRPAGES", TW_ADV_RELINK, SCO_GUIDE) }, 0 },

	/* ---- Buffer cache */
	{ TW_SYM_LOW_HIT_REFAULTS,
	  "file pages are evicted and read back while anonymous memory sits in swap's "
	  "way: a higher swappiness makes swap cheaper than dropping the cache",
	  /* 0-100 before 5.8, 0-200 since. */
	  { DOUBLE_MAX_SINCE("vm.swappiness", 100, TW_KERNEL(5, 8), 200, 0, VM_RST), NONE, NONE },
	  0 },
	/* FreeBSD: none. tuning(7) leaves the buffer and page cache to the VM
	 * system, which "does an extremely good job tuning itself". */
	{ TW_SYM_LOW_HIT_REFAULTS,
	  "the buffer cache is smaller than the working set",
	  { NONE, NONE, NBUF }, 0 },
	{ TW_SYM_LOW_HIT_REFAULTS,
	  "more buffers need more hash queues (keep NHBUF a power of two)",
	  { NONE, NONE, NHBUF }, 0 },

	/* At least the kernel's default window (VM_READAHEAD_PAGES, 128 KiB):
	 * a stream held to a smaller one takes five doublings from 4 KiB. A
	 * file takes its window when it is opened (file_ra_state_init), so a
	 * reader that has it open keeps the old one: the lab saw none change. */
	{ TW_SYM_LOW_HIT_SEQUENTIAL,
	  "data is read once in reads as large as the read-ahead window: read further ahead, "
	  "in files opened after the change (reopen, or restart the reader)",
	  { DOUBLE_MIN("queue/read_ahead_kb", 128, TW_ADV_PER_DEVICE, QUEUE_SYSFS),
	    DOUBLE("vfs.read_max", 0, TUNING_7),
	    NONE }, 0 },

	{ TW_SYM_METADATA_CHURN,
	  "directory and inode caches are reclaimed too eagerly",
	  { HALVE("vm.vfs_cache_pressure", 1, 0, VM_RST), NONE, NONE }, 0 },
	{ TW_SYM_METADATA_CHURN,
	  "the vnode (inode) cache is smaller than the metadata in use",
	  { NONE,
	    DOUBLE("kern.maxvnodes", 0, TUNING_7),
	    DOUBLE("NINODE", TW_ADV_RELINK, SCO_GUIDE) }, 0 },

	/* Before DIRTY_BURST: the change history watches a dirty limit on the
	 * first rule that names it, and the figure of this one falls when a
	 * raised limit helps (lib/change/figure.c). */
	{ TW_SYM_DIRTY_LIMITED,
	  "writers are throttled at a dirty limit the disks could take more of: raise it "
	  "(hirunningspace up where writes starve)",
	  { DIRTY_BYTES_UP,
	    DOUBLE("vfs.hirunningspace", 0, TUNING_7),
	    NONE }, 0 },
	{ TW_SYM_DIRTY_LIMITED,
	  "with the limit, start background writeback later, half-way below it as the "
	  "kernel's defaults do",
	  { DIRTY_BACKGROUND_BYTES_UP, NONE, NONE }, TW_RULE_WITH_PREV },

	{ TW_SYM_DIRTY_BURST,
	  "large bursts of dirty data stall readers behind writeback: start it earlier "
	  "(hirunningspace: not below lorunningspace)",
	  { DIRTY_BACKGROUND_RATIO,
	    HIRUNNINGSPACE,
	    HALVE("NAUTOUP", 1, TW_ADV_RELINK, SCO_GUIDE) }, 0 },
	{ TW_SYM_DIRTY_BURST,
	  "throttle writers sooner, so that a burst cannot fill memory with dirty pages",
	  { DIRTY_RATIO,
	    NONE,
	    HALVE("BDFLUSHR", 1, TW_ADV_RELINK, SCO_GUIDE) }, 0 },

	{ TW_SYM_MEMORY_PRESSURE,
	  "tasks stall in reclaim, not on refaults: wake kswapd earlier",
	  { WATERMARK_SCALE_FACTOR, NONE, NONE }, 0 },
	{ TW_SYM_MEMORY_PRESSURE,
	  "allocation bursts find too little free memory",
	  { MIN_FREE_KBYTES, NONE, NONE }, 0 },

	/* ---- Disk latency */
	{ TW_SYM_READ_LATENCY_QUEUE,
	  "requests wait in the queue of a disk that seeks: a deadline scheduler bounds reads",
	  { SET_WORD("queue/scheduler", "mq-deadline", "mq-deadline bfq",
	        TW_ADV_PER_DEVICE, QUEUE_SYSFS),
	    NONE, NONE }, 0 },
	/* Not read_expire: it helps only reads that wait past their deadline
	 * (500 ms by default) under mq-deadline, which no figure shows, and
	 * bfq has no such file. */

	{ TW_SYM_READ_LATENCY_WRITEBACK,
	  "background writeback crowds out reads: throttle it sooner",
	  { WBT_LAT,
	    HIRUNNINGSPACE,
	    HALVE("NAUTOUP", 1, TW_ADV_RELINK, SCO_GUIDE) }, 0 },
	{ TW_SYM_READ_LATENCY_WRITEBACK,
	  "start background writeback with less dirty data, in smaller bursts",
	  { DIRTY_BACKGROUND_BYTES,
	    NONE,
	    HALVE("BDFLUSHR", 1, TW_ADV_RELINK, SCO_GUIDE) }, 0 },

	{ TW_SYM_WRITE_LATENCY,
	  "writes queue behind a large backlog of dirty data: flush earlier, in smaller amounts",
	  { DIRTY_BACKGROUND_RATIO,
	    NONE,
	    HALVE("BDFLUSHR", 1, TW_ADV_RELINK, SCO_GUIDE) }, 0 },
	{ TW_SYM_WRITE_LATENCY,
	  "writers are throttled late and then wait for a large flush",
	  { DIRTY_RATIO,
	    NONE,
	    HALVE("NAUTOUP", 1, TW_ADV_RELINK, SCO_GUIDE) }, 0 },

	{ TW_SYM_NONROT_SCHEDULER,
	  "the device has its own queues; a software scheduler adds CPU time and latency",
	  { SET_WORD("queue/scheduler", "none", "none", TW_ADV_PER_DEVICE, QUEUE_SYSFS),
	    NONE, NONE }, 0 },

	/* No check raises this: no figure tells random reads that read-ahead
	 * inflates (mmap faults) from a sequential stream. */
	{ TW_SYM_RANDOM_READAHEAD,
	  "each random read drags in a read-ahead window nobody asked for",
	  { SET_NUM("queue/read_ahead_kb", TW_ADV_DOWN, 128, TW_ADV_PER_DEVICE, QUEUE_SYSFS),
	    HALVE("vfs.read_max", 1, 0, TUNING_7),
	    NONE }, 0 },

	/* Interrupt coalescing is per network card (ethtool -C, or
	 * /sys/class/net/<if>/napi_defer_hard_irqs): no sysctl on Linux. */
	{ TW_SYM_INTERRUPT_LOAD,
	  "polling(4) polls devices on clock ticks: a clock below 1000 Hz delays them",
	  { NONE,
	    SET_NUM("kern.hz", TW_ADV_UP, 1000, TW_ADV_BOOT, "polling(4)"),
	    NONE }, 0 },

	{ TW_SYM_QUEUE_FULL,
	  "the queue is held near its limit: a shorter one bounds how long a request waits "
	  "behind others",
	  { NR_REQUESTS, HIRUNNINGSPACE, NONE }, 0 },

	/* ---- One socket that drops (twSocketDropTable) */
	/* Only when the socket's buffer is already at what SO_RCVBUF may ask
	 * for: below it, the application can grow it without a sysctl
	 * (advice/sockevidence.c says so instead). */
	{ TW_SYM_SOCKET_RCVBUF,
	  "the socket's buffer is at the most SO_RCVBUF may ask for; raise the "
	  "application's SO_RCVBUF with it",
	  { DOUBLE("net.core.rmem_max", 0, NET_RST),
	    DOUBLE("kern.ipc.maxsockbuf", 0, TUNING_7),
	    NONE }, 0 },
	/* A buffer of exactly rmem_default is what a socket that sets no
	 * SO_RCVBUF is given when it is made: rmem_default reaches it, once
	 * the application makes its socket again (the evidence says so). */
	{ TW_SYM_SOCKET_RCVBUF_DEFAULT,
	  "the socket's buffer is rmem_default, what a socket that sets no SO_RCVBUF is given "
	  "when it is made: restart the application after",
	  { DOUBLE("net.core.rmem_default", 0, NET_RST),
	    DOUBLE("net.inet.udp.recvspace", 0, "udp(4)"),
	    NONE }, 0 },
};

size_t
tw_advice_all(const struct tw_advice_rule **rules)
{
	*rules = advice_table;
	return sizeof(advice_table) / sizeof(advice_table[0]);
}

size_t
tw_advice_rules(enum tw_symptom sym, const struct tw_advice_rule **rules)
{
	size_t n = sizeof(advice_table) / sizeof(advice_table[0]), i, count = 0;

	*rules = NULL;
	if ((int)sym < 0 || sym >= TW_SYM_COUNT)
		return 0;
	for (i = 0; i < n && advice_table[i].sym != sym; i++)
		continue;
	if (i == n)
		return 0;
	*rules = &advice_table[i];
	/* The table is ordered by symptom: the rules are one run. */
	while (i + count < n && advice_table[i + count].sym == sym)
		count++;
	return count;
}
