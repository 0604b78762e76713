/* SPDX-License-Identifier: ISC */
/* What a monitor holds: private to lib/monitor (monitor.c runs it,
 * monitor_read.c answers its accessors); callers see monitor.h only. */
#ifndef TW_MONITOR_PRIV_H
#define TW_MONITOR_PRIV_H

#include "monitor/monitor.h"

#include "change/watch.h"
#include "finding/judge.h"
#include "finding/observe.h"
#include "finding/tracker.h"
#include "probe/probeset.h"
#include "reqlat/reqwin.h"
#include "sample/pools.h"
#include "sample/sample.h"
#include "sample/sampler.h"
#include "sockets/listenwatch.h"
#include "sockets/sockwatch.h"
#include "view/build.h"
#include "view/view.h"
#include "window/window.h"

struct tw_monitor {
	struct tw_sampler *sampler;
	struct tw_sample sample;
	struct tw_pool_set pools;
	struct tw_window window;
	struct tw_view view;
	struct tw_sockwatch socks;	/* UDP sockets that drop */
	struct tw_listenwatch listen;	/* whose accept queues overflow */
	struct tw_view_settings settings;
	char system[2 * 65 + 2];	/* "sysname release" from uname(2) */
	/* Findings, when tw_monitor_findings() turned them on: judged on
	 * every sample, as the checks judge (lib/finding). */
	int findings;
	struct tw_judge_config judge;
	struct tw_tracker tracker;
	struct tw_view_findings_in found;
	int have_counts;
	struct tw_view_notify_counts counts;
	/* The change history, when tw_monitor_changes() turned it on. */
	int changes;
	int changes_rc;
	struct tw_change_watch watch;
	struct tw_change_record changed[TW_CHANGE_MAX];
	size_t nchanged;
	/* The distribution of every request, when tw_monitor_reqlat() set it
	 * up: the source, its window and its last reading. */
	struct tw_reqlat *reqlat;
	struct tw_reqwin reqwin;
	struct tw_reqlat_reading reading;
	struct tw_reqlat_want *want;
	size_t want_cap;
	struct tw_probeset *probes;	/* the caller's; NULL: none */
};

#endif
