/* SPDX-License-Identifier: ISC */
/* Findings that last: hysteresis over the observations of each sample.
 *
 * An observation (observe.h) becomes a finding only after it has been
 * seen in raise_after consecutive samples, and a finding is cleared only
 * after clear_after consecutive samples without it: one dropped packet
 * opens no ticket, and a flapping figure does not open ten. A change of
 * severity while raised must hold for raise_after samples as well. Each
 * state change is one event, and there is at most one per finding per
 * sample, so the events are a notification's worth each.
 *
 * The table is bounded: at most capacity symptoms are followed at once
 * (raised or on their way); one more is counted in overflows, once a
 * sample, and not followed, so thousands of disks in trouble cost a
 * bounded table and a bounded number of events. What cannot be crowded
 * out: a full table gives a row of a lower class (finding.h: a user's
 * below a service's below the host's) to a symptom of a higher one, one
 * on its way before a raised one, the newest raised before an older one
 * (counted in overflows and evicted; a row given up sends no event: its
 * symptom did not go away, and it is followed again when there is room);
 * and one owner (a uid, root's but not) follows at most
 * TW_TRACKER_OWNER_QUOTA symptoms, so that one user's thousands of
 * cgroups leave room for another's. A user's sockets are one finding
 * already (observe_socket.c).
 *
 * A finding keeps its index (twFindingIndex) while it lasts; indexes are
 * handed out in increasing order, so a new finding never takes the row of
 * an old one within 2^32 findings. */
#ifndef TW_FINDING_TRACKER_H
#define TW_FINDING_TRACKER_H

#include <stddef.h>
#include <stdint.h>

#include "finding/observe.h"
#include "view/build.h"
#include "view/view.h"

#define TW_TRACKER_DEFAULT_RAISE 3
#define TW_TRACKER_DEFAULT_CLEAR 3
#define TW_TRACKER_CAPACITY 256		/* the MIB's bound on twFindingTable */
#define TW_TRACKER_OWNER_QUOTA 16	/* symptoms one uid but root's may have */

/* The event kinds are the notifications' numbers (twNotifications.N). */
enum tw_finding_event_kind {
	TW_FINDING_EVENT_RAISED = TW_NOTIFY_FINDING_RAISED,
	TW_FINDING_EVENT_CLEARED = TW_NOTIFY_FINDING_CLEARED,
	TW_FINDING_EVENT_SEVERITY = TW_NOTIFY_FINDING_SEVERITY,
};

struct tw_finding_event {
	enum tw_finding_event_kind kind;
	struct tw_view_finding_in finding;	/* as it is (or was) */
};

struct tw_tracked;

struct tw_tracker {
	unsigned raise_after, clear_after;
	struct tw_tracked *rows;	/* capacity entries, n in use */
	size_t n;
	struct tw_finding_event *events;	/* of the last sample */
	size_t nevents;
	struct tw_view_finding_in *raised;	/* the raised ones, by index */
	size_t nraised;
	uint32_t next_index;
	uint64_t overflows;
	uint64_t evicted;		/* of those, rows given up for a higher class */
	uint64_t last_change;	/* seconds since the epoch; 0: none yet */
	uint64_t samples;
};

/* raise_after and clear_after of at least 1. Returns TW_OK, TW_E_INVAL or
 * TW_E_NOMEM. */
int tw_tracker_init(struct tw_tracker *t, unsigned raise_after, unsigned clear_after);
void tw_tracker_free(struct tw_tracker *t);

/* One sample: begin, every observation (tw_tracker_observe is a
 * tw_observe_fn), then end with the wall-clock time, which fills
 * t->events. */
void tw_tracker_begin(struct tw_tracker *t);
int tw_tracker_observe(void *tracker, const struct tw_finding *o);
void tw_tracker_end(struct tw_tracker *t, uint64_t now_s);

/* The raised findings, by index, and the tracker's figures, as the view
 * takes them in (tw_view_sources.findings); valid until the next
 * tw_tracker_end. */
void tw_tracker_findings(const struct tw_tracker *t, struct tw_view_findings_in *out);

#endif
