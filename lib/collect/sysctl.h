/* The kernel tunables that tunewatch's advice can name, read from
 * /proc/sys and kept as the kernel prints them, but for the final newline
 * and the tabs between a vector's fields, which are single spaces. Their
 * order here is their index in TUNEWATCH-MIB's twTunableTable: append,
 * never reorder. */
#ifndef TW_SYSCTL_H
#define TW_SYSCTL_H

#include <stddef.h>
#include <stdint.h>

#define TW_SYSCTL_VALUE_LEN 128

enum tw_sysctl_id {
	TW_SYSCTL_VM_DIRTY_RATIO,
	TW_SYSCTL_VM_DIRTY_BACKGROUND_RATIO,
	TW_SYSCTL_VM_DIRTY_BYTES,
	TW_SYSCTL_VM_DIRTY_BACKGROUND_BYTES,
	TW_SYSCTL_VM_VFS_CACHE_PRESSURE,
	TW_SYSCTL_VM_SWAPPINESS,
	TW_SYSCTL_VM_MIN_FREE_KBYTES,
	TW_SYSCTL_VM_WATERMARK_SCALE_FACTOR,
	TW_SYSCTL_NET_CORE_NETDEV_MAX_BACKLOG,
	TW_SYSCTL_NET_CORE_NETDEV_BUDGET,
	TW_SYSCTL_NET_CORE_NETDEV_BUDGET_USECS,
	TW_SYSCTL_NET_CORE_RMEM_MAX,
	TW_SYSCTL_NET_CORE_RMEM_DEFAULT,
	TW_SYSCTL_NET_CORE_WMEM_MAX,
	TW_SYSCTL_NET_CORE_WMEM_DEFAULT,
	TW_SYSCTL_NET_CORE_SOMAXCONN,
	TW_SYSCTL_NET_CORE_BUSY_POLL,
	TW_SYSCTL_NET_IPV4_TCP_MEM,
	TW_SYSCTL_NET_IPV4_TCP_RMEM,
	TW_SYSCTL_NET_IPV4_TCP_WMEM,
	TW_SYSCTL_NET_IPV4_UDP_MEM,
	TW_SYSCTL_NET_IPV4_TCP_MAX_SYN_BACKLOG,
	TW_SYSCTL_COUNT
};

struct tw_sysctl_value {
	int rc;				/* TW_OK, or why the value is missing */
	char text[TW_SYSCTL_VALUE_LEN];	/* shown (util/escape.h) */
};

struct tw_sysctl_set {
	struct tw_sysctl_value v[TW_SYSCTL_COUNT];
};

/* "vm.dirty_ratio" for TW_SYSCTL_VM_DIRTY_RATIO; NULL out of range. */
const char *tw_sysctl_name(enum tw_sysctl_id id);
/* The id of a name, or -1. */
int tw_sysctl_lookup(const char *name);

/* Read every tunable under proc_fd (sys/vm/dirty_ratio, ...). A tunable
 * this kernel lacks has rc TW_E_ABSENT; the call itself fails only on
 * bad arguments. */
int tw_sysctl_read_all(int proc_fd, struct tw_sysctl_set *out);

/* The n-th (0-based) blank-separated integer of a value such as tcp_rmem's
 * "4096 131072 6291456". TW_E_INVAL when there is none or it is not an
 * integer, TW_E_RANGE when it does not fit 64 bits. */
int tw_sysctl_field(const char *text, unsigned n, int64_t *out);

#endif
