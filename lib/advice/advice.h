/* SPDX-License-Identifier: ISC */
/* Tuning advice: symptom -> tunable, as data.
 *
 * A rule ties a symptom to one tunable on each system (Linux, FreeBSD,
 * SVR4), with how to move it, the bounds it must stay within, a reason and
 * the document it comes from. rules.c holds the table, built from
 * the project's ADVICE.md; this file computes a concrete suggestion from
 * the tunable's current value and formats it as one line:
 *
 *   net.core.netdev_max_backlog 1000 -> 2000 (cpu1 dropped 152 packets in
 *   the last 60 s; Documentation/admin-guide/sysctl/net.rst)
 *
 * How a suggestion is computed:
 *   double   the value times two, and at least the action's minimum when
 *            it has one (read_ahead_kb: the kernel's default); past the
 *            action's maximum (INT_MAX when none is documented) it stops
 *            at the maximum and says so; already at or above it, nothing
 *            is proposed (at_limit).
 *   sized    a doubling sized up from a figure (TW_ADV_SIZED): the
 *            lookup's TW_ADVICE_SHORTFALL is what the value lacks, and the
 *            suggestion is the value plus that or double, whichever is
 *            more, but never more than TW_ADVICE_SIZE_CAP times the
 *            current value. Without the figure, a doubling. Only the dirty
 *            limit is sized: its shortfall is twice what the disk that
 *            took the writes wrote in a second (writers pause from
 *            half-way), less the limit. The queues whose overflows are
 *            counted are doubled (rules.c says why).
 *   halve    the value divided by two, rounded down, never below the
 *            minimum (nr_requests stops at 4); at or below it: at_limit.
 *   set      a given number or word, only when that moves the value in
 *            the rule's direction ("set read_ahead_kb to 128" only from
 *            above 128; "scheduler mq-deadline" only when the current one
 *            is not already acceptable); otherwise no_change.
 *   vectors  ("4096 131072 6291456") one 0-based field or all fields; the
 *            others are kept, and the text uses single spaces.
 *   unknown  the lookup has no value, or it does not parse: a direction
 *            only ("raise net.core.somaxconn"), never a made-up number;
 *            a "set" still names its target, which is not made up.
 *   zero     for a tunable where 0 means "off" (wbt_lat_usec), a 0 is
 *            answered with the value that switches it back on ("-1": the
 *            kernel's default) rather than with half of nothing.
 *   ratio/bytes pairs (vm.dirty_background_ratio/_bytes, vm.dirty_ratio/
 *            _bytes): only one of each pair is in force and the kernel
 *            reads the other as 0, so a rule on one switches to its twin
 *            when the twin is the one in force.
 *   bounds   a maximum that grew in a later kernel (somaxconn past 65535
 *            since 4.1) applies only when the lookup's "kernel.osrelease"
 *            shows that kernel; otherwise the older one, which every
 *            kernel accepts. A bound that is another tunable's value
 *            (hirunningspace never below lorunningspace) is looked up,
 *            with the static one when that value is unknown.
 *   automatic  a 0 that means "sized at boot" (SVR4 NBUF, NHBUF) is
 *            answered with enable, or with nothing, never with 0 * 2;
 *            NBUF 1-9 counts tenths of memory and moves one tenth a step.
 *
 * Every rule is justified, with the documentation line quoted, in
 * doc/ADVICE-REFERENCE.md; when a rule changes, that file says why.
 *
 * Current values come from a lookup function (the plugins read them from
 * tunewatchd's tunable table; a test passes a fixed list), keyed by the
 * tunable's name on the system asked about: "vm.dirty_bytes",
 * "queue/nr_requests" (the caller knows which device), "NBUF".
 */
#ifndef TW_ADVICE_H
#define TW_ADVICE_H

#include <stddef.h>
#include <stdint.h>

#include "advice/value.h"

enum tw_symptom {
	TW_SYM_SOFTNET_DROPS,		/* softnet "dropped" rises on a CPU */
	TW_SYM_SOFTNET_SQUEEZE,		/* softnet "time_squeeze" rises */
	TW_SYM_UDP_RCVBUF,		/* Udp RcvbufErrors rises */
	TW_SYM_UDP_SNDBUF,		/* Udp SndbufErrors rises */
	TW_SYM_UDP_MEM,			/* Udp MemErrors rises */
	TW_SYM_TCP_MEM,			/* TCP memory pressure */
	TW_SYM_TCP_PRUNE,		/* TcpExt PruneCalled, RcvPruned, OfoPruned */
	TW_SYM_LISTEN_OVERFLOW,		/* TcpExt ListenOverflows, ListenDrops */
	TW_SYM_HIGHORDER_FAIL,		/* no free high-order blocks, compaction fails */
	TW_SYM_MBUF_DENIED,		/* mbuf, cluster or STREAMS block denied */
	TW_SYM_LOW_HIT_REFAULTS,	/* low hit ratio and many refaults */
	TW_SYM_LOW_HIT_SEQUENTIAL,	/* low hit ratio, few refaults, sequential */
	TW_SYM_METADATA_CHURN,		/* dentries and inodes reclaimed too eagerly */
	TW_SYM_DIRTY_BURST,		/* dirty and writeback high, write bursts */
	TW_SYM_MEMORY_PRESSURE,		/* memory PSI, direct reclaim stalls */
	TW_SYM_READ_LATENCY_QUEUE,	/* high r_await with a deep queue */
	TW_SYM_READ_LATENCY_WRITEBACK,	/* high r_await during write bursts */
	TW_SYM_WRITE_LATENCY,		/* high w_await */
	TW_SYM_NONROT_SCHEDULER,	/* NVMe/SSD with a software scheduler */
	TW_SYM_RANDOM_READAHEAD,	/* random reads with a large read_ahead_kb */
	TW_SYM_INTERRUPT_LOAD,		/* latency while interrupt load is high */
	TW_SYM_QUEUE_FULL,		/* a device's queue held near nr_requests */
	TW_SYM_SOCKET_RCVBUF,		/* a socket drops with its buffer at rmem_max */
	TW_SYM_CGROUP_CACHE_BOUNDED,	/* a service refaults at its own memory limit;
					   no rule in the table: its knob is the
					   unit's property (advice/advice_cgroup.c) */
	TW_SYM_SOCKET_RCVBUF_DEFAULT,	/* a socket drops with the buffer rmem_default
					   gives one that sets no SO_RCVBUF */
	TW_SYM_DIRTY_LIMITED,		/* writers throttled at the dirty limit while
					   the disks have room */
	TW_SYM_COUNT
};

enum tw_os {
	TW_OS_LINUX,
	TW_OS_FREEBSD,
	TW_OS_SVR4,
	TW_OS_COUNT
};

enum tw_adv_dir {
	TW_ADV_UP,		/* "raise" */
	TW_ADV_DOWN,		/* "lower" */
	TW_ADV_SET,		/* "set" a word */
};

enum tw_adv_op {
	TW_ADV_DOUBLE,		/* direction UP */
	TW_ADV_HALVE,		/* direction DOWN */
	TW_ADV_SET_NUM,		/* set_num, when that is UP (or DOWN) from here */
	TW_ADV_SET_WORD,	/* set_word, unless one of accept is current */
};

/* field: a vector's fields are all changed. */
#define TW_ADV_ALL_FIELDS (-1)

/* Action flags. */
#define TW_ADV_BOOT		0x01u	/* a loader tunable: takes effect at boot */
#define TW_ADV_RELINK		0x02u	/* SVR4: kernel relink and reboot */
#define TW_ADV_PER_DEVICE	0x04u	/* /sys/block/<dev>/queue/... */
#define TW_ADV_PER_CLASS	0x08u	/* NBLKnnnn: nnnn is the failing class */
#define TW_ADV_ZERO_OFF		0x10u	/* 0 means "off"; see enable */
#define TW_ADV_TWIN_IF_SET	0x20u	/* use twin when twin reads non-zero */
#define TW_ADV_TWIN_IF_ZERO	0x40u	/* use twin when this one reads 0 */
#define TW_ADV_ZERO_AUTO	0x80u	/* 0 means "sized automatically" */
#define TW_ADV_TENTHS		0x100u	/* 1-9 count tenths of memory (NBUF) */
#define TW_ADV_SIZED		0x200u	/* a doubling sized up from the failures
					   (TW_ADVICE_SHORTFALL) */

/* A kernel release as one number, for the bounds that changed with one. */
#define TW_KERNEL(major, minor) ((unsigned)(major) * 1000u + (unsigned)(minor))

/* What to turn on one system. */
struct tw_advice_action {
	const char *name;	/* NULL: nothing to turn on this system */
	enum tw_adv_dir dir;
	enum tw_adv_op op;
	int field;		/* 0-based field of a vector, or TW_ADV_ALL_FIELDS */
	int64_t min;		/* never propose below */
	int64_t max;		/* never propose above; 0 means INT_MAX */
	unsigned since;		/* TW_KERNEL(): from this release on, max_since */
	int64_t max_since;	/* the maximum from release since on */
	const char *min_from;	/* a tunable whose value is the minimum */
	const char *max_from;	/* a tunable whose value is the maximum */
	int64_t set_num;	/* TW_ADV_SET_NUM */
	const char *set_word;	/* TW_ADV_SET_WORD */
	const char *accept;	/* TW_ADV_SET_WORD: blank-separated words that
				   are already good enough */
	const char *enable;	/* TW_ADV_ZERO_OFF: what switches it back on;
				   TW_ADV_ZERO_AUTO: what to set instead of
				   automatic (NULL: leave it automatic) */
	const struct tw_advice_action *twin;	/* the other of a ratio/bytes pair */
	unsigned flags;		/* TW_ADV_* */
	const char *source;	/* the document behind it */
};

/* Rule flags. */
#define TW_RULE_WITH_PREV	0x01u	/* shown together with the rule before
					   it: rmem_default beside rmem_max */

struct tw_advice_rule {
	enum tw_symptom sym;
	const char *reason;	/* one line: why this tunable, for this symptom */
	struct tw_advice_action os[TW_OS_COUNT];
	unsigned flags;		/* TW_RULE_* */
};

/* The rules for sym, in order of preference, as a pointer into the table
 * (*rules) and a count; 0 and NULL for a symptom out of range. Rules
 * without a tunable on some system have a NULL name there. */
size_t tw_advice_rules(enum tw_symptom sym, const struct tw_advice_rule **rules);

/* The whole table, ordered by symptom. */
size_t tw_advice_all(const struct tw_advice_rule **rules);

/* "SOFTNET_DROPS" for TW_SYM_SOFTNET_DROPS; NULL out of range. */
const char *tw_advice_symptom_name(enum tw_symptom sym);

/* The tunable's name on os ("net.core.netdev_max_backlog",
 * "net.isr.defaultqlimit", NULL for SVR4); NULL for a bad os. */
const char *tw_advice_name(const struct tw_advice_rule *r, enum tw_os os);

/* The current value as the system prints it, or NULL when unknown. Besides
 * the tunables, "kernel.osrelease" ("6.1.0-18-amd64") is asked for, to pick
 * the bound that the running kernel accepts. */
typedef const char *(*tw_advice_lookup_fn)(void *ctx, const char *name);

#define TW_ADVICE_OSRELEASE "kernel.osrelease"

/* For a TW_ADV_SIZED action, the lookup is also asked for this: what the
 * value lacks ("515899392"), or NULL when unknown. */
#define TW_ADVICE_SHORTFALL "tunewatch.shortfall"

/* A sized suggestion is at most this many times the current value. */
#define TW_ADVICE_SIZE_CAP 16

/* The release "6.1.0-18-amd64" as TW_KERNEL(6, 1); 0 when it does not
 * start with two dot-separated numbers. */
unsigned tw_advice_kernel(const char *release);

/* Suggestion flags. */
#define TW_SUG_PER_DEVICE	0x001u	/* the caller's detail should name it */
#define TW_SUG_NEEDS_REBOOT	0x002u	/* loader tunable or kernel relink */
#define TW_SUG_RELINK		0x004u	/* SVR4: idtune, relink, reboot */
#define TW_SUG_AT_LIMIT		0x008u	/* already at the bound: no proposal */
#define TW_SUG_CURRENT_UNKNOWN	0x010u	/* no usable current value */
#define TW_SUG_SATURATED	0x020u	/* stopped at the maximum */
#define TW_SUG_NO_CHANGE	0x040u	/* a "set" that is already satisfied */
#define TW_SUG_ENABLE		0x080u	/* 0 ("off") answered with enable */
#define TW_SUG_PER_CLASS	0x100u	/* NBLKnnnn: name the failing class */
#define TW_SUG_AUTOMATIC	0x200u	/* 0: sized automatically; see proposed */
#define TW_SUG_TENTHS		0x400u	/* the value counts tenths of memory */
#define TW_SUG_SIZED		0x800u	/* more than double: sized from the failures */
#define TW_SUG_SIZE_CAPPED	0x1000u	/* the sizing stopped at TW_ADVICE_SIZE_CAP */

struct tw_suggestion {
	const struct tw_advice_rule *rule;
	const struct tw_advice_action *action;	/* chosen: may be the twin */
	enum tw_os os;
	const char *name;			/* the tunable actually chosen */
	enum tw_adv_dir dir;
	char current[TW_ADVICE_VALUE_LEN];	/* normalised; "" when unknown */
	char proposed[TW_ADVICE_VALUE_LEN];	/* "" when nothing is proposed */
	int64_t limit;				/* the bound, with AT_LIMIT or SATURATED */
	unsigned flags;				/* TW_SUG_* */
	const char *reason;
	const char *source;
};

/* Compute the suggestion of rule r on os. lookup may be NULL (every value
 * unknown). Returns TW_OK (also for at_limit, no_change and unknown: the
 * flags say which), TW_E_ABSENT when r names no tunable on os, or
 * TW_E_INVAL for bad arguments. */
int tw_advice_suggest(const struct tw_advice_rule *r, enum tw_os os,
    tw_advice_lookup_fn lookup, void *ctx, struct tw_suggestion *out);

/* One line, no newline, for long output:
 *   "<name> <current> -> <proposed> (<detail>; <notes>; <source>)"
 * detail is the caller's evidence ("sda: r_await 48 ms"); NULL or "" uses
 * the rule's reason. Notes say when the value was capped, is per device,
 * needs a reboot or relink, or is per block class. at_limit, no_change
 * and unknown have their own wording:
 *   "queue/nr_requests 4 is already at its minimum (4) (...)"
 *   "queue/scheduler is already mq-deadline (...)"
 *   "raise net.core.somaxconn (current value unknown; ...)"
 * Returns TW_OK, TW_E_INVAL, or TW_E_TOOBIG (out is "") when it does not
 * fit: never half a line. */
int tw_advice_format(const struct tw_suggestion *s, const char *detail, char *out,
    size_t len);

#endif
