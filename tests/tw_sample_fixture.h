/* SPDX-License-Identifier: ISC */
/* Hand-built samples for window and view tests: the figures they imply are
 * worked out by hand in each test. */
#ifndef TW_SAMPLE_FIXTURE_H
#define TW_SAMPLE_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "sample/sample.h"

/* The eight counters the window keeps, in diskstats order where it matters. */
struct fx_disk {
	unsigned major, minor;
	const char *name;
	uint64_t reads, sectors_read, read_ticks;
	uint64_t writes, sectors_written, write_ticks;
	uint64_t in_flight, io_ticks, weighted_ticks;
};

static inline void
fx_sample_disks(struct tw_sample *s, uint64_t ms, const struct fx_disk *d, size_t n)
{
	size_t i;

	tw_sample_clear(s);
	s->mono_ms = ms;
	s->have |= TW_SRC_BIT(TW_SRC_DISKSTATS);
	s->err[TW_SRC_DISKSTATS] = 0;
	if (n > s->disks.cap) {
		s->disks.disks = realloc(s->disks.disks, n * sizeof(*s->disks.disks));
		s->disks.cap = n;
	}
	(void)tw_sample_reserve_queues(s, n);
	for (i = 0; i < n; i++) {
		struct tw_disk_stat *ds = &s->disks.disks[i];

		memset(ds, 0, sizeof(*ds));
		ds->major = d[i].major;
		ds->minor = d[i].minor;
		strcpy(ds->name, d[i].name);
		ds->present = (UINT32_C(1) << 17) - 1;
		ds->v[TW_DISK_READS] = d[i].reads;
		ds->v[TW_DISK_SECTORS_READ] = d[i].sectors_read;
		ds->v[TW_DISK_READ_TICKS] = d[i].read_ticks;
		ds->v[TW_DISK_WRITES] = d[i].writes;
		ds->v[TW_DISK_SECTORS_WRITTEN] = d[i].sectors_written;
		ds->v[TW_DISK_WRITE_TICKS] = d[i].write_ticks;
		ds->v[TW_DISK_IN_FLIGHT] = d[i].in_flight;
		ds->v[TW_DISK_IO_TICKS] = d[i].io_ticks;
		ds->v[TW_DISK_WEIGHTED_TICKS] = d[i].weighted_ticks;
		tw_queue_init(&s->queues[i]);
	}
	s->disks.count = n;
}

#endif
