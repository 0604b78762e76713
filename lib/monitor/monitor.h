/* SPDX-License-Identifier: ISC */
/* The monitor: a sampler, the window and the view, run together. It is
 * what tunewatchd does on its timer and what a plugin's --local mode does
 * twice: take a sample, derive the pools, push both into the window and
 * rebuild the view. */
#ifndef TW_MONITOR_H
#define TW_MONITOR_H

#include <stddef.h>

#include "finding/judge.h"
#include "reqlat/reqlat.h"
#include "finding/tracker.h"
#include "sample/pools.h"
#include "sample/sample.h"
#include "sample/sampler.h"
#include "sockets/sockwatch.h"
#include "view/view.h"
#include "reqlat/reqwin.h"
#include "window/window.h"

struct tw_monitor {
	struct tw_sampler *sampler;
	struct tw_sample sample;
	struct tw_pool_set pools;
	struct tw_window window;
	struct tw_view view;
	struct tw_sockwatch socks;	/* UDP sockets that drop */
	struct tw_view_settings settings;
	char system[2 * 65 + 2];	/* "sysname release" from uname(2) */
	/* Findings, when tw_monitor_findings() turned them on: judged on
	 * every sample, as the checks judge (lib/finding). */
	int findings;
	struct tw_judge_config judge;
	struct tw_tracker tracker;
	/* The distribution of every request, when tw_monitor_reqlat() set it
	 * up: the source, its window and its last reading. */
	struct tw_reqlat *reqlat;
	struct tw_reqwin reqwin;
	struct tw_reqlat_reading reading;
	struct tw_reqlat_want *want;
	size_t want_cap;
};

/* interval_s and window_s set the window's length (window_s / interval_s
 * intervals, at least 1); they are also published in the view. err gets a
 * one-line reason on failure. */
int tw_monitor_open(struct tw_monitor *m, const struct tw_sampler_config *cfg,
    unsigned interval_s, unsigned window_s, const char *version, char *err, size_t errlen);
void tw_monitor_close(struct tw_monitor *m);

/* Judge every sample against c from now on, raising a finding after
 * raise_after samples and clearing it after clear_after; the view gets
 * twFindings and twFindingTable. Returns TW_OK, TW_E_INVAL or
 * TW_E_NOMEM. */
int tw_monitor_findings(struct tw_monitor *m, const struct tw_judge_config *c,
    unsigned raise_after, unsigned clear_after);

/* Time every request of the disks the sample publishes from now on, with
 * the source c describes (reqlat/reqlat.h; c->off publishes its state
 * only): load it now, while the process may. Returns TW_OK, whatever the
 * source's state (tw_reqlat_state says it), or TW_E_NOMEM. */
int tw_monitor_reqlat(struct tw_monitor *m, const struct tw_reqlat_config *c);

/* Take one sample and bring the window, the view and the findings up to
 * date (m->tracker.events: what changed). On failure the view keeps its
 * previous contents. */
int tw_monitor_sample(struct tw_monitor *m);

#endif
