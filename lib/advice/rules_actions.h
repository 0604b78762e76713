/* SPDX-License-Identifier: ISC */
/* The words the advice table (advice/rules.c) is written in: where each
 * rule's documentation is, an action by how it moves its value, and the
 * actions whose bounds need a comment of their own. Private to
 * lib/advice/rules.c. It holds macros only, expanded in rules.c after its
 * include of advice.h (TW_ADV_*, TW_KERNEL), so it needs no include of
 * its own. */
#ifndef TW_ADVICE_RULES_ACTIONS_H
#define TW_ADVICE_RULES_ACTIONS_H

#define NET_RST		"Documentation/admin-guide/sysctl/net.rst"
#define IP_SYSCTL	"Documentation/networking/ip-sysctl.rst"
#define VM_RST		"Documentation/admin-guide/sysctl/vm.rst"
#define QUEUE_SYSFS	"Documentation/block/queue-sysfs.rst"
#define TUNING_7	"tuning(7)"
#define SCO_GUIDE	"SCO OpenServer Performance Guide"

/* Actions, by how they move the value. */
#define DOUBLE(n, fl, src) \
	{ .name = (n), .dir = TW_ADV_UP, .op = TW_ADV_DOUBLE, .flags = (fl), .source = (src) }
#define DOUBLE_MAX(n, mx, fl, src) \
	{ .name = (n), .dir = TW_ADV_UP, .op = TW_ADV_DOUBLE, .max = (mx), .flags = (fl), \
	  .source = (src) }
/* A maximum that grew in kernel release `rel`: mx before it, mx2 since. */
#define DOUBLE_MAX_SINCE(n, mx, rel, mx2, fl, src) \
	{ .name = (n), .dir = TW_ADV_UP, .op = TW_ADV_DOUBLE, .max = (mx), .since = (rel), \
	  .max_since = (mx2), .flags = (fl), .source = (src) }
#define DOUBLE_MIN(n, mn, fl, src) \
	{ .name = (n), .dir = TW_ADV_UP, .op = TW_ADV_DOUBLE, .min = (mn), .flags = (fl), \
	  .source = (src) }
#define DOUBLE_FIELD(n, f, src) \
	{ .name = (n), .dir = TW_ADV_UP, .op = TW_ADV_DOUBLE, .field = (f), .source = (src) }
#define HALVE(n, mn, fl, src) \
	{ .name = (n), .dir = TW_ADV_DOWN, .op = TW_ADV_HALVE, \
	  .min = (mn), .flags = (fl), .source = (src) }
#define SET_NUM(n, d, v, fl, src) \
	{ .name = (n), .dir = (d), .op = TW_ADV_SET_NUM, .set_num = (v), .flags = (fl), \
	  .source = (src) }
#define SET_WORD(n, w, ok, fl, src) \
	{ .name = (n), .dir = TW_ADV_SET, .op = TW_ADV_SET_WORD, .set_word = (w), \
	  .accept = (ok), .flags = (fl), .source = (src) }

/* Writing -1 to wbt_lat_usec restores the kernel's default; 0 turns
 * writeback throttling off (queue-sysfs.rst). */
#define WBT_LAT \
	{ .name = "queue/wbt_lat_usec", .dir = TW_ADV_DOWN, .op = TW_ADV_HALVE, .min = 1, \
	  .enable = "-1", .flags = TW_ADV_PER_DEVICE | TW_ADV_ZERO_OFF, .source = QUEUE_SYSFS }

/* vfs_bio.c refuses a hirunningspace below lorunningspace (two thirds of
 * it by default): stop there, or at 1 MiB when lorunningspace is unknown. */
#define HIRUNNINGSPACE \
	{ .name = "vfs.hirunningspace", .dir = TW_ADV_DOWN, .op = TW_ADV_HALVE, \
	  .min = 1048576, .min_from = "vfs.lorunningspace", .source = "vfs_bio.c" }

/* netisr.c refuses a queue limit above net.isr.maxqlimit (10240 unless set
 * at boot). */
#define NETISR_LIMIT(n, fl, src) \
	{ .name = (n), .dir = TW_ADV_UP, .op = TW_ADV_DOUBLE, .max = 10240, \
	  .max_from = "net.isr.maxqlimit", .flags = (fl), .source = (src) }

/* The kernel takes no fewer than 4 requests (BLKDEV_MIN_RQ). */
#define NR_REQUESTS HALVE("queue/nr_requests", 4, TW_ADV_PER_DEVICE, QUEUE_SYSFS)

/* vm.rst: "Setting this too high will OOM your machine instantly"; the
 * kernel's own value stops at 262144 (mm/page_alloc.c), and so does ours. */
#define MIN_FREE_KBYTES DOUBLE_MAX("vm.min_free_kbytes", 262144, 0, VM_RST)

/* 1000 is the most kernels before 5.17 accept (3000 since; the 5.15 stable
 * series has it too, from July 2022, and is given 1000, which it also
 * accepts). */
#define WATERMARK_SCALE_FACTOR \
	DOUBLE_MAX_SINCE("vm.watermark_scale_factor", 1000, TW_KERNEL(5, 17), 3000, 0, VM_RST)

/* NBUF 0 is 10 % of memory chosen at boot and 1-9 are tenths of it; from
 * 10 up it counts KiB, at most 450000 (SCO). */
#define NBUF \
	{ .name = "NBUF", .dir = TW_ADV_UP, .op = TW_ADV_DOUBLE, .max = 450000, .enable = "2", \
	  .flags = TW_ADV_RELINK | TW_ADV_ZERO_AUTO | TW_ADV_TENTHS, .source = SCO_GUIDE }
/* NHBUF 0 is sized from NBUF at boot: leave it so. */
#define NHBUF \
	{ .name = "NHBUF", .dir = TW_ADV_UP, .op = TW_ADV_DOUBLE, \
	  .flags = TW_ADV_RELINK | TW_ADV_ZERO_AUTO, .source = SCO_GUIDE }

#define NONE { .name = NULL }

#endif
