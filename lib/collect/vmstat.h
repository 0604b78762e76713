/* /proc/vmstat: paging, fault, refault and compaction counters, by key. */
#ifndef TW_VMSTAT_H
#define TW_VMSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "util/readfile.h"
#include "util/scan.h"

enum tw_vm_field {
	TW_VM_PGPGIN,		/* kB read from storage */
	TW_VM_PGPGOUT,		/* kB written to storage */
	TW_VM_PGFAULT,
	TW_VM_PGMAJFAULT,
	TW_VM_REFAULT_FILE,	/* workingset_refault_file, or workingset_refault before 5.9 */
	TW_VM_ACTIVATE_FILE,	/* workingset_activate_file, or workingset_activate before 5.9 */
	TW_VM_COMPACT_STALL,
	TW_VM_COMPACT_FAIL,
	TW_VM_ALLOCSTALL,	/* sum of allocstall_* (4.x+), or allocstall */
	TW_VM_PGSTEAL_HOST,	/* pages reclaimed by host-wide reclaim: the sum of
				 * pgsteal_kswapd, _direct, _khugepaged and
				 * _proactive (per zone before 4.8), which leave out
				 * a cgroup's reclaim at its own limit */
	TW_VM_NR_DIRTY,		/* gauges, pages: nr_dirty */
	TW_VM_NR_WRITEBACK,	/* nr_writeback */
	TW_VM_DIRTY_THRESHOLD,	/* nr_dirty_threshold: the limit in force */
	TW_VM_DIRTY_BG_THRESHOLD, /* nr_dirty_background_threshold */
	TW_VM_NFIELDS
};

struct tw_vmstat {
	uint32_t present;	/* bit (1 << field) */
	uint64_t v[TW_VM_NFIELDS];
};

/* Lines are "key value"; unknown keys are ignored, other shapes are
 * malformed. When both the _file and the older key appear, the _file one
 * wins (the older one counted anon pages too on 5.9+). */
int tw_vmstat_parse(const char *text, size_t len, struct tw_vmstat *out,
    struct tw_parse_stats *ps);
int tw_vmstat_read(int proc_fd, struct tw_buf *scratch, struct tw_vmstat *out,
    struct tw_parse_stats *ps);

#endif
