/* SPDX-License-Identifier: ISC */
/* Opening a device for the probe: read-only, with O_DIRECT always (never
 * without: figures from the page cache would be lies), and the size and
 * number of its reads: 4 KiB, or the logical block size when larger,
 * over the whole device (BLKGETSIZE64). */
#ifndef TW_PROBEOPEN_H
#define TW_PROBEOPEN_H

#include <stddef.h>
#include <stdint.h>

#include "probe/probestate.h"

struct tw_probe_device {
	int fd;			/* -1 when not open */
	void *buf;		/* one read, aligned for O_DIRECT */
	unsigned bs;		/* bytes a read */
	uint64_t nblocks;	/* reads that fit in the device */
};

/* TW_PROBE_PROBING with d filled; or TW_PROBE_OPEN_FAILED (not there,
 * permission denied, not a block device, empty) or
 * TW_PROBE_ODIRECT_REFUSED, with one line in reason and nothing left open
 * (d->fd -1, d->buf NULL). */
enum tw_probe_state tw_probe_open_device(const char *path, struct tw_probe_device *d,
    char *reason, size_t len);

#endif
