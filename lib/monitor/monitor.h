/* SPDX-License-Identifier: ISC */
/* The monitor: a sampler, the window and the view, run together. It is
 * what tunewatchd does on its timer and what a plugin's --local mode does
 * twice: take a sample, derive the pools, push both into the window and
 * build the view from every source, the findings and the change history
 * judged from its figures included.
 *
 * Its parts are its own (monitor.c); callers see the view, the findings'
 * events of the last sample and the change history, read-only. */
#ifndef TW_MONITOR_H
#define TW_MONITOR_H

#include <stddef.h>

#include "reqlat/reqlat.h"

struct tw_change_history;
struct tw_finding_event;
struct tw_judge_config;
struct tw_monitor;
struct tw_probeset;
struct tw_sampler_config;
struct tw_tracker;
struct tw_view;
struct tw_view_notify_counts;

/* A monitor with an empty view, to be opened; NULL when out of memory.
 * The view's address (tw_monitor_view) stays the same until
 * tw_monitor_close. */
struct tw_monitor *tw_monitor_new(void);

/* interval_s and window_s set the window's length (window_s / interval_s
 * intervals, at least 1); they are also published in the view. err gets a
 * one-line reason on failure. */
int tw_monitor_open(struct tw_monitor *m, const struct tw_sampler_config *cfg,
    unsigned interval_s, unsigned window_s, const char *version, char *err, size_t errlen);

/* Release m and everything it holds; NULL does nothing. */
void tw_monitor_close(struct tw_monitor *m);

/* Judge every sample against c from now on, raising a finding after
 * raise_after samples and clearing it after clear_after; the view gets
 * twFindings and twFindingTable. Returns TW_OK, TW_E_INVAL or
 * TW_E_NOMEM. */
int tw_monitor_findings(struct tw_monitor *m, const struct tw_judge_config *c,
    unsigned raise_after, unsigned clear_after);

/* Keep the record of tunable changes from now on (change/watch.h), each
 * evaluated a window after it was seen; the view gets twChangeTable. */
void tw_monitor_changes(struct tw_monitor *m);

/* Time every request of the disks the sample publishes from now on, with
 * the source c describes (reqlat/reqlat.h; c->off publishes its state
 * only): load it now, while the process may. Returns TW_OK, whatever the
 * source's state (tw_monitor_reqlat_state says it), or TW_E_NOMEM. */
int tw_monitor_reqlat(struct tw_monitor *m, const struct tw_reqlat_config *c);

/* Put ps's figures into twProbeTable at each sample, a new interval of
 * it begun each time; ps stays the caller's. */
void tw_monitor_probes(struct tw_monitor *m, struct tw_probeset *ps);

/* The agent's notification counters, for twFindings: kept for the next
 * build and put into the view now (they move between samples too). */
void tw_monitor_notify_counts(struct tw_monitor *m, const struct tw_view_notify_counts *c);

/* Take one sample and bring the window, the findings, the change history
 * and the view up to date. On failure the view is to be rebuilt by the
 * next sample. */
int tw_monitor_sample(struct tw_monitor *m);

/* Between samples: whether looks at UDP memory are wanted now (drops no
 * counter counted were found within the window, sockets/uncounted.h), and
 * one such look, which returns whether more are. A program calls the look
 * every few tens of ms, at uneven gaps, while they are: a periodic burst
 * seen by evenly spaced looks may fall between them every time. */
int tw_monitor_looking(const struct tw_monitor *m);
int tw_monitor_look(struct tw_monitor *m);

const struct tw_view *tw_monitor_view(const struct tw_monitor *m);

/* The events of the last sample (what was raised, cleared or changed
 * severity); none while findings are off. */
const struct tw_finding_event *tw_monitor_events(const struct tw_monitor *m, size_t *n);

/* The tracker behind the findings (its counts), NULL while they are off. */
const struct tw_tracker *tw_monitor_tracker(const struct tw_monitor *m);

/* The change history, NULL while it is not kept; and how its last step
 * went (TW_OK, or TW_E_NOMEM when the tunables could not be kept). */
const struct tw_change_history *tw_monitor_change_history(const struct tw_monitor *m);
int tw_monitor_change_status(const struct tw_monitor *m);

/* The request-latency source's state and its reason;
 * TW_REQLAT_NSTATES while there is no source. */
enum tw_reqlat_state tw_monitor_reqlat_state(const struct tw_monitor *m, const char **reason);

#endif
