/* /proc/diskstats: per-device I/O counters.
 *
 * Lines have 3 + N fields: major, minor, name, then N counters. N is 11
 * before Linux 4.18, 15 with discard counters (4.18), 17 with flush
 * counters (5.5); old kernels printed partitions with N = 4 (reads,
 * sectors read, writes, sectors written). Counters are kept by position,
 * as many as the line has; `present` says which. See the kernel's
 * Documentation/admin-guide/iostats.rst. */
#ifndef TW_DISKSTATS_H
#define TW_DISKSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "util/escape.h"
#include "util/readfile.h"
#include "util/scan.h"

#define TW_DISK_NAME_LEN 32	/* the kernel's BDEVNAME_SIZE */

enum tw_disk_field {
	TW_DISK_READS,			/* reads completed */
	TW_DISK_READS_MERGED,
	TW_DISK_SECTORS_READ,		/* 512-byte sectors */
	TW_DISK_READ_TICKS,		/* ms spent reading (32-bit) */
	TW_DISK_WRITES,
	TW_DISK_WRITES_MERGED,
	TW_DISK_SECTORS_WRITTEN,
	TW_DISK_WRITE_TICKS,		/* ms spent writing (32-bit) */
	TW_DISK_IN_FLIGHT,		/* I/Os in progress: a gauge (32-bit) */
	TW_DISK_IO_TICKS,		/* ms the device was busy (32-bit) */
	TW_DISK_WEIGHTED_TICKS,		/* ms weighted by queue depth (32-bit) */
	TW_DISK_DISCARDS,
	TW_DISK_DISCARDS_MERGED,
	TW_DISK_SECTORS_DISCARDED,
	TW_DISK_DISCARD_TICKS,		/* (32-bit) */
	TW_DISK_FLUSHES,
	TW_DISK_FLUSH_TICKS,		/* (32-bit) */
	TW_DISK_NFIELDS
};

#define TW_DISK_BIT(f) (UINT32_C(1) << (f))

struct tw_disk_stat {
	uint32_t major;
	uint32_t minor;
	/* The name shown (util/escape.h), for the MIB, filters and output;
	 * cut at a character's boundary in the rare name whose shown form is
	 * longer than the kernel's 31 bytes (10,000 disks are 10,000 of
	 * these, in the sample and in the view). */
	char name[TW_DISK_NAME_LEN];
	/* As the kernel prints it: only to find the device's sysfs directory. */
	char raw_name[TW_DISK_NAME_LEN];
	uint32_t present;		/* TW_DISK_BIT() of each field the line had */
	uint64_t v[TW_DISK_NFIELDS];	/* absent fields are 0 */
};

struct tw_disk_set {
	struct tw_disk_stat *disks;
	size_t count;
	size_t cap;
};

/* The one key a disk goes by in the sampler, the window, the view and the
 * SNMP client: ordered as the MIB's (major, minor) index, so that rows
 * sorted by it are in walk order. */
static inline uint64_t
tw_disk_key(uint32_t major, uint32_t minor)
{
	return (uint64_t)major << 32 | minor;
}

void tw_disk_set_init(struct tw_disk_set *s);
void tw_disk_set_free(struct tw_disk_set *s);

/* The width the kernel keeps field f in, 32 or 64: the tick counters and
 * in_flight are unsigned ints and wrap at 2^32, the rest at 2^64. The
 * window takes its counters' widths from here. */
unsigned tw_disk_field_bits(enum tw_disk_field f);

/* Parse the text of /proc/diskstats, appending one entry per good line to
 * out in file order. Malformed lines are skipped and counted in ps; fields
 * past the 17th are ignored but must still be numbers.
 * Returns TW_OK or TW_E_NOMEM. */
int tw_diskstats_parse(const char *text, size_t len, struct tw_disk_set *out,
    struct tw_parse_stats *ps);

/* Read proc_fd/diskstats into out (cleared first). TW_E_ABSENT when the
 * kernel has no such file. */
int tw_diskstats_read(int proc_fd, struct tw_buf *scratch, struct tw_disk_set *out,
    struct tw_parse_stats *ps);

#endif
