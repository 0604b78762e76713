/* SPDX-License-Identifier: ISC */
/* check_disklatency --probe: thresholds on the active probe's latency
 * percentiles (twProbeTable), with perfdata for p50, p99 and max, and
 * advice for slow seeks (lib/advice evidence_probe.c). --local runs a
 * short probe of its own (probelocal.c). */
#ifndef TW_PLUGIN_PROBECHECK_H
#define TW_PLUGIN_PROBECHECK_H

#include <stddef.h>

#include "plugin.h"
#include "util/namefilter.h"

struct tw_probe_check {
	unsigned percentile;			/* 50, 90 or 99 */
	const struct tw_namefilter *devices;	/* --device, --exclude-device */
};

/* The options, for check_disklatency's table and --help. */
enum {
	TW_OPT_PROBE = TW_OPT_CHECK + 100,
	TW_OPT_PERCENTILE,
	TW_OPT_PROBE_COUNT,
};

#define TW_PROBE_LONGOPTS \
	{ "probe", no_argument, NULL, TW_OPT_PROBE }, \
	{ "percentile", required_argument, NULL, TW_OPT_PERCENTILE }, \
	{ "probe-count", required_argument, NULL, TW_OPT_PROBE_COUNT }

#define TW_PROBE_DEFAULT_PERCENTILE 90
#define TW_PROBE_DEFAULT_COUNT 20
#define TW_PROBE_MAX_COUNT 600

#define TW_PROBE_OPTIONS_HELP \
	" --probe\n" \
	"    Threshold the active probe's read latency (twProbeTable: random 4 KiB\n" \
	"    O_DIRECT reads of the devices tunewatchd.conf names with 'probe' lines)\n" \
	"    instead of r_await; -w and -c are then milliseconds of --percentile\n" \
	"    (e.g. --probe --percentile 99 -w 20 -c 50)\n" \
	" --percentile=50|90|99\n" \
	"    With --probe: the probe percentile -w and -c judge (default 90).\n" \
	"    Without: threshold that percentile of every request tunewatchd timed\n" \
	"    (twReqLatTable, a BPF program on the block tracepoints): -w and -c are\n" \
	"    then milliseconds of the reads', --write-warning and --write-critical\n" \
	"    of the writes' (e.g. --percentile 99 -w 20 -c 50); with --local the\n" \
	"    check times --delay seconds of requests itself (root). A percentile\n" \
	"    needs 100/(100-P) reads or requests in the window: p99 needs 100, at\n" \
	"    1 probe read/s a window of 100 s or more; a percentile of every\n" \
	"    request is judged from ten times that (p99 from 1000, p90 from 100,\n" \
	"    p50 from 20), and --min-ops applies to it too\n" \
	" --probe-count=N\n" \
	"    With --local: probe the devices --device names (without --device, the\n" \
	"    disks tunewatchd would show) with N reads each at 10 a second (default\n" \
	"    20, at most 600); it takes N/10 s, so keep -t above that; needs read\n" \
	"    access to the devices (root)\n"

struct tw_probe_opts {
	int on;
	unsigned percentile;
	unsigned count;
};

/* A probe option into o (0: the defaults), and what the check must fetch
 * into *fetch: 0, or -1 with one line in err. */
int tw_probe_check_option(struct tw_probe_opts *o, unsigned *fetch, int opt, const char *arg,
    char *err, size_t errlen);

/* check_disklatency's run() with --probe: the agent's twProbeTable, or
 * with --local a short probe of this host's devices. */
enum tw_state tw_probe_check(const struct tw_plugin *p, const struct tw_view *v,
    const struct tw_probe_opts *o, const struct tw_namefilter *devices, struct tw_out *out);

/* Judge probes (twProbeTable rows, sorted) with v's disk rows for aliases
 * and queue figures; -w and -c are milliseconds of the percentile. */
enum tw_state tw_probe_check_run(const struct tw_plugin *p, const struct tw_view *v,
    const struct tw_view_probe *probes, size_t nprobes, const struct tw_probe_check *c,
    struct tw_out *out);

/* --local --probe-count N: probe this host's devices that --device names
 * (the disks of v when it names none), N reads each at the top rate, all
 * devices at once, and put the rows into pv. TW_OK, or an error code
 * with one line in err. */
int tw_probe_local(const struct tw_plugin *p, const struct tw_view *v,
    const struct tw_namefilter *devices, unsigned count, struct tw_view *pv, char *err,
    size_t errlen);

#endif
