/* SPDX-License-Identifier: ISC */
/* /proc/meminfo: the size of the page cache and of its dirty part, and the
 * swap that swappiness advice needs to see configured and in use. */
#ifndef TW_MEMINFO_H
#define TW_MEMINFO_H

#include <stddef.h>
#include <stdint.h>

#include "util/readfile.h"
#include "util/scan.h"

enum tw_mem_field {
	TW_MEM_TOTAL,		/* MemTotal */
	TW_MEM_AVAILABLE,	/* MemAvailable (3.14 and later) */
	TW_MEM_CACHED,		/* Cached */
	TW_MEM_BUFFERS,		/* Buffers */
	TW_MEM_DIRTY,		/* Dirty */
	TW_MEM_WRITEBACK,	/* Writeback */
	TW_MEM_SWAP_TOTAL,	/* SwapTotal: 0 without swap */
	TW_MEM_SWAP_FREE,	/* SwapFree */
	TW_MEM_NFIELDS
};

struct tw_meminfo {
	uint32_t present;		/* bit (1 << field) when the kernel gave it */
	uint64_t bytes[TW_MEM_NFIELDS];	/* converted from kB */
};

/* Lines are "Key: value" with an optional " kB"; other keys are ignored,
 * lines of another shape are malformed. So is a kept key without " kB", and
 * a kB value that would overflow 64 bits in bytes (it is not saturated). */
int tw_meminfo_parse(const char *text, size_t len, struct tw_meminfo *out,
    struct tw_parse_stats *ps);
int tw_meminfo_read(int proc_fd, struct tw_buf *scratch, struct tw_meminfo *out,
    struct tw_parse_stats *ps);

#endif
