/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "probe/probestate.h"

static const char *const state_names[TW_PROBE_NSTATES] = {
	[TW_PROBE_PROBING] = "probing",
	[TW_PROBE_IDLE_SKIPPED] = "idle-skipped",
	[TW_PROBE_OPEN_FAILED] = "open-failed",
	[TW_PROBE_ODIRECT_REFUSED] = "odirect-refused",
	[TW_PROBE_ERRORS] = "errors",
	[TW_PROBE_VANISHED] = "vanished",
};

const char *
tw_probe_state_name(enum tw_probe_state s)
{
	return (unsigned)s < TW_PROBE_NSTATES ? state_names[s] : "unknown";
}
