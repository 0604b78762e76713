/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "probe/probeopen.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Why the open failed. EINVAL is O_DIRECT refused only if the node is a
 * block device at all: stat(2) says, without a read. */
static enum tw_probe_state
open_failed(const char *path, int err, char *reason, size_t len)
{
	struct stat st;

	if (err == EINVAL && stat(path, &st) == 0 && S_ISBLK(st.st_mode)) {
		snprintf(reason, len, "open %s with O_DIRECT: %s", path, strerror(err));
		return TW_PROBE_ODIRECT_REFUSED;
	}
	if (err == EINVAL)
		snprintf(reason, len, "%s is not a block device", path);
	else
		snprintf(reason, len, "open %s: %s", path, strerror(err));
	return TW_PROBE_OPEN_FAILED;
}

enum tw_probe_state
tw_probe_open_device(const char *path, struct tw_probe_device *d, char *reason, size_t len)
{
	uint64_t size = 0;
	int lbs = 0, fd;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	reason[0] = '\0';
	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return open_failed(path, errno, reason, len);
	/* O_NONBLOCK only for the open (a tape or a FIFO named by mistake
	 * must not hang the agent); reads block. */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (ioctl(fd, BLKGETSIZE64, &size) != 0) {
		snprintf(reason, len, "%s is not a block device (%s)", path, strerror(errno));
		close(fd);
		return TW_PROBE_OPEN_FAILED;
	}
	if (ioctl(fd, BLKSSZGET, &lbs) != 0 || lbs <= 0)
		lbs = 512;
	d->bs = (unsigned)lbs > TW_PROBE_READ_SIZE ? (unsigned)lbs : TW_PROBE_READ_SIZE;
	d->nblocks = size / d->bs;
	if (d->nblocks == 0) {
		snprintf(reason, len, "%s holds %s: less than one read", path,
		    size == 0 ? "nothing" : "a few bytes");
		close(fd);
		return TW_PROBE_OPEN_FAILED;
	}
	if (posix_memalign(&d->buf, d->bs, d->bs) != 0) {
		d->buf = NULL;
		snprintf(reason, len, "%s: no memory for the buffer", path);
		close(fd);
		return TW_PROBE_OPEN_FAILED;
	}
	d->fd = fd;
	return TW_PROBE_PROBING;
}
