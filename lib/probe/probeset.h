/* SPDX-License-Identifier: ISC */
/* The probed devices of one tunewatchd: the probe lines resolved to
 * devices, one probe (probe.h) each, watched at every sample.
 *
 * At each sample (tw_probeset_tick) the set starts a new interval in each
 * probe, resolves every line again and
 *   - pauses a probe whose device vanished (state vanished) and resumes it
 *     when the same device (major:minor and diskseq) comes back;
 *   - reopens a probe whose name now leads to another device (replaced);
 *     after tunewatchd has given up root that open may be refused, which
 *     is then state open-failed with the reason;
 *   - pauses a rotational disk that has had no I/O but the probe's own for
 *     idle_s seconds (idle-skipped), so that it can spin down, and resumes
 *     it at its next I/O of its own.
 * Every change of state is told through log(), from the caller's thread:
 * the library itself prints nothing. */
#ifndef TW_PROBESET_H
#define TW_PROBESET_H

#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"
#include "probe/probeconf.h"
#include "probe/probedev.h"

struct tw_probeset_config {
	const struct tw_probe_spec *specs;
	size_t nspecs;
	const char *sys_root;	/* NULL: /sys */
	const char *dev_root;	/* where device nodes are; NULL: /dev */
	unsigned timeout_ms;	/* 0: TW_PROBE_DEFAULT_TIMEOUT_MS */
	unsigned idle_s;	/* 0: probe rotational disks however idle */
	unsigned intervals;	/* the window's intervals */
	/* One line, no newline; warning: 1 for trouble, 0 for news. */
	void (*log)(void *ctx, int warning, const char *line);
	void *log_ctx;
};

/* One probed device as the MIB shows it. */
struct tw_probe_row {
	uint32_t major, minor;
	char name[TW_PROBEDEV_NAME_LEN];
	struct tw_probe_report r;
};

struct tw_probeset;

/* Resolve the lines and open the devices (before dropping root: the opens
 * need it). A line whose device is not there is told through log() and
 * tried again at every tick. TW_OK or TW_E_NOMEM. */
int tw_probeset_open(struct tw_probeset **out, const struct tw_probeset_config *cfg);

/* Start a reading thread for every probe (after a daemon's fork: threads
 * do not survive one). A probe whose thread cannot start is open-failed,
 * with the reason. */
void tw_probeset_run(struct tw_probeset *ps);
void tw_probeset_close(struct tw_probeset *ps);

/* At each sample: see above. now_ms: tw_clock_ms(). */
void tw_probeset_tick(struct tw_probeset *ps, uint64_t now_ms);

/* The rows now, sorted by (major, minor); valid until the next call. */
const struct tw_probe_row *tw_probeset_rows(struct tw_probeset *ps, uint64_t now_ms,
    size_t *n);

#endif
