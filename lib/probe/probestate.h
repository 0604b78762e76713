/* SPDX-License-Identifier: ISC */
/* What a probe is set to and what it says of itself: its limits and its
 * state words. The probe (probe.h), its reading thread (probereader.h) and
 * the opening of its device (probeopen.h) all speak of these, so they are
 * below all three. */
#ifndef TW_PROBESTATE_H
#define TW_PROBESTATE_H

#define TW_PROBE_MAX_RATE 10
#define TW_PROBE_DEFAULT_RATE 1
#define TW_PROBE_DEFAULT_TIMEOUT_MS 5000
#define TW_PROBE_READ_SIZE 4096
#define TW_PROBE_REASON_LEN 128

/* Append, never reorder: the words are published (twProbeState). */
enum tw_probe_state {
	TW_PROBE_PROBING,		/* reading on schedule */
	TW_PROBE_IDLE_SKIPPED,		/* rotational and idle: let it spin down */
	TW_PROBE_OPEN_FAILED,		/* the device could not be opened */
	TW_PROBE_ODIRECT_REFUSED,	/* O_DIRECT refused: no cached figures */
	TW_PROBE_ERRORS,		/* the last read failed or hangs */
	TW_PROBE_VANISHED,		/* the device is gone */
	TW_PROBE_NSTATES
};

/* "probing", "idle-skipped", ... */
const char *tw_probe_state_name(enum tw_probe_state s);

#endif
