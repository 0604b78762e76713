/* SPDX-License-Identifier: ISC */
/* check_disklatency --percentile P without --probe: thresholds on a
 * percentile of every request's service time, as tunewatchd's BPF
 * program times them (twReqLatTable): -w and -c the reads', and
 * --write-warning and --write-critical the writes', in milliseconds. The
 * advice for slow requests is slow r_await's and w_await's on the
 * distribution's figures (lib/finding judge_reqlat.c), with perfdata for
 * p50 and the percentile. --local loads the program itself (root). */
#ifndef TW_PLUGIN_REQLATCHECK_H
#define TW_PLUGIN_REQLATCHECK_H

#include "plugin.h"
#include "threshold/threshold.h"
#include "util/namefilter.h"

struct tw_reqlat_check {
	unsigned percentile;			/* 50, 90 or 99 */
	const struct tw_threshold *write_warn;	/* --write-warning */
	const struct tw_threshold *write_crit;
	const struct tw_namefilter *devices;	/* --device, --exclude-device */
	double min_ops;				/* --min-ops */
};

/* check_disklatency's run() on the distribution. */
enum tw_state tw_reqlat_check_run(const struct tw_plugin *p, const struct tw_view *v,
    const struct tw_reqlat_check *c, struct tw_out *out);

#endif
