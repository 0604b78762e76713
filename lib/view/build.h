/* SPDX-License-Identifier: ISC */
/* How a view is built (build.c): from every source at once, the one
 * place a view is written but for the SNMP client's, which fills one from
 * the wire. The sources are only pointed at here, so that neither this
 * header nor view.h brings in the sample's or the window's headers; the
 * tracker and the change history hand their lists in, in the view's own
 * terms (the view is the stage below them). */
#ifndef TW_VIEW_BUILD_H
#define TW_VIEW_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "figures/change_record.h"

#include "view/view.h"

struct tw_pool_set;
struct tw_probe_row;
struct tw_reqwin;
struct tw_sample;
struct tw_sockwatch;
struct tw_window;

/* A finding as the tracker keeps it, in its own terms: the build gives it
 * its MIB row (tw_view_finding_row). */
struct tw_view_finding_in {
	uint32_t index;		/* twFindingIndex: kept while the finding lasts */
	int critical;		/* else a warning */
	uint64_t raised_s;	/* seconds since the epoch */
	uint64_t changed_s;
	char id[20];
	char symptom[32];
	char subject[TW_VIEW_FINDING_STR];
	char evidence[TW_VIEW_FINDING_STR];
	char tunable[TW_VIEW_FINDING_STR];
	char current[TW_VIEW_STR];
	char suggested[TW_VIEW_STR];
	char apply[TW_VIEW_FINDING_STR];	/* "": nothing to apply */
	char persist[TW_VIEW_FINDING_STR];
	char documentation[TW_VIEW_FINDING_STR];
	char owner[TW_VIEW_FINDING_STR];
	int cls;		/* TW_FINDING_CLASS_* */
	int64_t owner_uid;	/* -1: the host's */
};

/* The tracker's findings, raised ones only, by index, and its figures. */
struct tw_view_findings_in {
	const struct tw_view_finding_in *rows;
	size_t n;
	uint64_t last_change_s;	/* 0: none yet */
	uint64_t overflows;
	unsigned capacity, raise_after, clear_after;
};

/* What the agent's notifications have done (twFindingNotifications*). */
struct tw_view_notify_counts {
	uint64_t suppressed, dropped, sent;
	unsigned per_minute;
};

/* Every source of a view. A NULL window leaves the figures as they are
 * (a view of probes alone), and so does a NULL findings list twFindings;
 * the change history is written from changes, none when *nchanges is 0
 * (or nchanges NULL),
 * and the probe rows only while probing.
 *
 * The change history and the findings are judged from the view's own
 * figures, in that order: record, when set, runs once they are built (it
 * brings the history's list up to date), the change rows are written,
 * then assess (the findings, which read those rows: a knob's raise held
 * back while its change waits, finding/ratchet.h, must be judged on the
 * rows the same view publishes, as a check reading it judges it), and the
 * tracker's list is written after it. The probe rows are written last, so
 * that assess judges those of the sample before, as tunewatchd always
 * has. */
struct tw_view_sources {
	const struct tw_view_settings *settings;
	const struct tw_window *window;
	const struct tw_sample *sample;		/* the newest, last pushed */
	const struct tw_pool_set *pools;	/* the newest sample's */
	const struct tw_sockwatch *socks;	/* NULL: rows left as they are */
	/* listen_known: every listener seen full in the window was
	 * listen_owner's (sockets/listenwatch.h); for the tcp listen
	 * queue's row. */
	int listen_known;
	int64_t listen_owner;
	/* The request-latency source's state (NULL: there is none) and,
	 * while timing, its window. */
	const char *reqlat_state, *reqlat_reason;
	int reqlat_timing;
	const struct tw_reqwin *reqwin;
	void (*record)(void *ctx, const struct tw_view *v);
	int (*assess)(void *ctx, const struct tw_view *v);
	void *assess_ctx;		/* record's and assess's */
	const struct tw_view_findings_in *findings;	/* NULL: findings off */
	const struct tw_view_notify_counts *notify;	/* NULL: none sent */
	const struct tw_change_record *changes;	/* newest first */
	/* Read after record, which may have added the sample's own changes:
	 * a count taken before it would publish them a sample late. */
	const size_t *nchanges;
	/* probing: the probe set's rows replace the view's, sorted by major
	 * and minor. */
	int probing;
	const struct tw_probe_row *probes;
	size_t nprobes;
};

/* Build v from every source: the one place a view is written, but for
 * the SNMP client's, which fills a view from the wire. A failure leaves
 * v to be rebuilt (the agent serves the previous one meanwhile). */
int tw_view_build(struct tw_view *v, const struct tw_view_sources *src);

/* The notification counters alone, which move between samples too, as
 * the agent's queue drains; nothing while findings are off. */
void tw_view_put_notify_counts(struct tw_view *v, const struct tw_view_notify_counts *c);

/* The MIB row of a finding (the build's, and a notification's). */
void tw_view_finding_row(const struct tw_view_finding_in *f, struct tw_view_finding *row);

#endif
