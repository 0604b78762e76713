/* SPDX-License-Identifier: ISC */
/* The request-latency source: the BPF program of reqlat.bpf.c on the block
 * tracepoints, timing every read and write of the devices tunewatchd
 * publishes into a histogram per device, direction and kind (service time
 * from issue to completion; queue time from insertion into a scheduler to
 * issue).
 *
 * It is loaded once, at start-up, while the process still has root (as
 * the probe opens its devices before --user): a load needs CAP_BPF and
 * CAP_PERFMON, reading its maps afterwards only the descriptors. A kernel
 * or build that cannot run it gives a source in a state that says why,
 * once, and nothing is tried again: every other figure goes on.
 *
 * Each sample gives slots to the devices wanted (whole disks of the disk
 * table), takes them back from the devices that left it, and reads the
 * histograms: counters that only grow while the device has its slot. The
 * window (reqlat/reqwin.h) makes intervals of them. */
#ifndef TW_REQLAT_H
#define TW_REQLAT_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/blockident.h"
#include "probe/histogram.h"
#include "reqlat/reqlat_abi.h"
#include "reqlat/reqseries.h"

#define TW_REQLAT_DEFAULT_DEVICES 32
#define TW_REQLAT_REASON_LEN 160

/* Append, never reorder: the words are published (twAgentReqLatState). */
enum tw_reqlat_state {
	TW_REQLAT_TIMING,		/* loaded: requests are timed */
	TW_REQLAT_OFF,			/* turned off (requestLatency no, a fixture root) */
	TW_REQLAT_NOT_BUILT,		/* built without libbpf */
	TW_REQLAT_NO_BTF,		/* the kernel has no BTF to relocate against */
	TW_REQLAT_NO_TRACEPOINTS,	/* no block tracepoints to attach to */
	TW_REQLAT_NO_PERMISSION,	/* no CAP_BPF and CAP_PERFMON at the load */
	TW_REQLAT_LOAD_FAILED,		/* the kernel refused the program */
	TW_REQLAT_READ_FAILED,		/* loaded, but its maps cannot be read */
	TW_REQLAT_NSTATES
};

/* "timing", "off", "not-built", ... */
const char *tw_reqlat_state_name(enum tw_reqlat_state s);

struct tw_reqlat_config {
	int off;		/* do not load: state off, with off_reason */
	const char *off_reason;
	unsigned devices;	/* slots, 1 to TW_REQLAT_MAX_DEVICES; 0: the default */
	int program_clock;	/* take every issue time from the program's clock at
				 * the tracepoint, never the kernel's own stamp (the
				 * stamp comes from a clock the kernel caches for a
				 * task's plug, some us early; the program's clock
				 * costs a start kept per request) */
	const char *btf_path;	/* NULL: /sys/kernel/btf/vmlinux */
};

/* Whether a device of type t has requests of its own to time: whole
 * request-based devices (disks, NVMe namespaces, multipath heads, loop
 * devices). Partitions (type unknown: no /sys/block entry) queue their
 * requests on their disk; device-mapper targets other than multipath, md
 * arrays, ram and zram devices pass bios down without requests. */
int tw_reqlat_times_type(enum tw_disk_type t);

struct tw_reqlat;

/* Load and attach (or not: see the state). NULL only when memory runs
 * out. */
struct tw_reqlat *tw_reqlat_open(const struct tw_reqlat_config *c);
void tw_reqlat_close(struct tw_reqlat *r);

/* The state, and its reason ("" when timing), for the log and the MIB. */
enum tw_reqlat_state tw_reqlat_state(const struct tw_reqlat *r, const char **reason);

/* Give slots to want[n] (sorted by major, minor), take them back from the
 * rest, and read every slotted device into out. TW_OK; TW_E_ABSENT when
 * the source is not timing (out empty); TW_E_NOMEM; TW_E_IO when the maps
 * cannot be read: the state is then read-failed, and stays so. */
int tw_reqlat_sample(struct tw_reqlat *r, const struct tw_reqlat_want *want, size_t n,
    struct tw_reqlat_reading *out);

void tw_reqlat_reading_init(struct tw_reqlat_reading *rd);
void tw_reqlat_reading_free(struct tw_reqlat_reading *rd);

#endif
