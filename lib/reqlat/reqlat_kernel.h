/* SPDX-License-Identifier: ISC */
/* The few kernel types the BPF program reads, declared for CO-RE: libbpf
 * moves each field access to where the running kernel's BTF
 * (/sys/kernel/btf/vmlinux) puts it, so the program is built without the
 * build host's kernel and runs on any kernel that has these fields. A
 * kernel without one refuses the program at load, which tunewatchd
 * reports as a state, never a crash. */
#ifndef TW_REQLAT_KERNEL_H
#define TW_REQLAT_KERNEL_H

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
/* Named by the helper declarations of <bpf/bpf_helper_defs.h>. */
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;

#define TW_CORE __attribute__((preserve_access_index))

struct gendisk {
	int major;
	int first_minor;
} TW_CORE;

struct request_queue {
	void *elevator;		/* NULL: requests go to the driver directly */
	unsigned long queue_flags;
	struct gendisk *disk;
} TW_CORE;

struct request {
	struct request_queue *q;
	unsigned int cmd_flags;	/* its low byte is the operation */
	/* The kernel's own issue time, where it keeps statistics for the
	 * queue (QUEUE_FLAG_STATS); 0 otherwise, from allocation on. */
	__u64 io_start_time_ns;
} TW_CORE;

#define TW_REQ_OP_MASK 0xffu
#define TW_REQ_OP_READ 0u
#define TW_REQ_OP_WRITE 1u

/* The map type of the BPF UAPI used here. */
enum {
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
};

#endif
