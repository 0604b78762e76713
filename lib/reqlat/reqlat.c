/* SPDX-License-Identifier: ISC */
/* What the source is, whether or not this build can load it: its states,
 * its readings. */
#include "config.h"

#include "reqlat/reqlat.h"

#include <stdlib.h>
#include <string.h>

static const char *const state_names[TW_REQLAT_NSTATES] = {
	[TW_REQLAT_TIMING] = "timing",
	[TW_REQLAT_OFF] = "off",
	[TW_REQLAT_NOT_BUILT] = "not-built",
	[TW_REQLAT_NO_BTF] = "no-btf",
	[TW_REQLAT_NO_TRACEPOINTS] = "no-tracepoints",
	[TW_REQLAT_NO_PERMISSION] = "no-permission",
	[TW_REQLAT_LOAD_FAILED] = "load-failed",
	[TW_REQLAT_READ_FAILED] = "read-failed",
};

const char *
tw_reqlat_state_name(enum tw_reqlat_state s)
{
	return (unsigned)s < TW_REQLAT_NSTATES ? state_names[s] : "unknown";
}

int
tw_reqlat_times_type(enum tw_disk_type t)
{
	switch (t) {
	case TW_DISK_TYPE_DISK:
	case TW_DISK_TYPE_NVME:
	case TW_DISK_TYPE_MULTIPATH:
	case TW_DISK_TYPE_LOOP:
		return 1;
	default:
		return 0;
	}
}

void
tw_reqlat_reading_init(struct tw_reqlat_reading *rd)
{
	memset(rd, 0, sizeof(*rd));
}

void
tw_reqlat_reading_free(struct tw_reqlat_reading *rd)
{
	free(rd->devs);
	memset(rd, 0, sizeof(*rd));
}
