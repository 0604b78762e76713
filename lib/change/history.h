/* SPDX-License-Identifier: ISC */
/* The record of tunable changes: a bounded history, newest first.
 *
 * A change is recorded when it is seen, with the watched figure over the
 * window that ends at that sample (the "before" figure; see figure.h for
 * which figure). Once a whole window has passed since (the window then
 * starts at the sample where the change was seen and holds only samples
 * taken after it), the same figure over that window is the "after" figure
 * and the change is evaluated. A figure that cannot be given is absent,
 * never 0.
 *
 * The history keeps TW_CHANGE_MAX changes. Each has an owner (whoever may
 * make it: root for a /proc/sys value or a disk's queue, the cgroup's
 * owner for a cgroup's limit) and so a class (finding.h's: the host's, a
 * service's, a user's). An owner (but root) holds at most
 * TW_CHANGE_OWNER_QUOTA changes: a new one takes the place of its own
 * oldest, an evaluated one first. When the history is full a new change
 * takes the place of one of the lowest class at or below its own, an
 * evaluated one before one still waiting, the oldest first; and where
 * every change outranks it, it is not kept (dropped).
 * So a user who rewrites the limits of 40 delegated cgroups every 0.25 s
 * churns their own rows and cannot push root's change out before its
 * window after has passed. Each change has an index that counts down from
 * UINT32_MAX, so that the newest comes first in a walk of twChangeTable
 * and keeps its index for as long as it is kept. */
#ifndef TW_CHANGE_HISTORY_H
#define TW_CHANGE_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "change/figure.h"
#include "view/build.h"
#include "view/view.h"

#define TW_CHANGE_MAX TW_VIEW_CHANGES
#define TW_CHANGE_OWNER_QUOTA 8		/* changes one uid but root's may hold */

/* What happened to a change at the latest step (for notifications). */
#define TW_CHANGE_EV_SEEN	0x1u
#define TW_CHANGE_EV_EVALUATED	0x2u

struct tw_change {
	uint32_t index;
	char tunable[64];		/* "net.core.somaxconn", "queue/scheduler" */
	char subject[TW_VIEW_SUBJECT];	/* "host", the disk's name, or the
					   cgroup's unit or path */
	char old_value[TW_VIEW_STR];
	char new_value[TW_VIEW_STR];
	int64_t when_s;			/* wall clock, seconds since the epoch */
	uint64_t seen_ms;		/* monotonic, at the sample that saw it */
	struct tw_change_figure fig;
	int has_before, has_after, evaluated;
	double before, after;
	unsigned events;		/* TW_CHANGE_EV_*, of the latest step */
	char finding_id[20];		/* the finding it answers; "" for none */
	int64_t owner_uid;		/* 0: root's */
	int cls;			/* TW_FINDING_CLASS_* */
};

struct tw_change_history {
	struct tw_change ring[TW_CHANGE_MAX];	/* oldest first */
	size_t count;
	uint32_t next_index;
	uint64_t seen_total;		/* changes seen since start */
	uint64_t dropped;		/* not kept: every change outranked it */
};

void tw_change_history_init(struct tw_change_history *h);

/* Begin a step: forget the previous step's events. */
void tw_change_history_begin(struct tw_change_history *h);

/* Record a change seen at the sample whose view is v (monotonic now_ms,
 * wall clock now_s). old_value and new_value are cut to fit. Returns the
 * record (it has TW_CHANGE_EV_SEEN), or NULL when it was not kept.
 * disk_name is NULL for a host tunable; major and minor name the disk
 * otherwise. */
struct tw_change *tw_change_history_add(struct tw_change_history *h, const struct tw_view *v,
    const char *tunable, const char *disk_name, uint32_t major, uint32_t minor,
    const char *old_value, const char *new_value, uint64_t now_ms, int64_t now_s);

/* The same for a change of the limit of the cgroup with index, whose
 * directory is subject (its finding's subject), owned by owner_uid (-1:
 * unknown, taken for a user's), answering the finding finding_id: its
 * figure is the cgroup's refaults per second (tw_change_figure_cgroup). */
struct tw_change *tw_change_history_add_cgroup(struct tw_change_history *h,
    const struct tw_view *v, const char *tunable, const char *subject, const char *finding_id,
    int64_t owner_uid, uint32_t index, const char *old_value, const char *new_value,
    uint64_t now_ms, int64_t now_s);

/* Evaluate every waiting change whose window after has passed: window_ms
 * after it was seen, by the sample of view v at now_ms. */
void tw_change_history_evaluate(struct tw_change_history *h, const struct tw_view *v,
    uint64_t now_ms, uint64_t window_ms);

/* The i-th change, newest first (i < h->count). */
const struct tw_change *tw_change_history_at(const struct tw_change_history *h, size_t i);

/* The history as the view takes it in (tw_view_sources.changes), newest
 * first, into out's TW_CHANGE_MAX entries; returns how many. The strings
 * are the history's own, valid until its next change. */
size_t tw_change_history_list(const struct tw_change_history *h, struct tw_change_record *out);

#endif
