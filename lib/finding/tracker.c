/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/tracker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice/ticket.h"
#include "util/error.h"
#include "util/escape.h"

/* One followed symptom: raised (index != 0) or on its way. */
struct tw_tracked {
	struct tw_finding obs;	/* the newest */
	uint32_t index;			/* 0 while not raised */
	enum tw_state severity;		/* as raised or last changed */
	enum tw_state pending;		/* a different severity seen */
	unsigned seen, missed, pending_seen;
	int hit;			/* observed in this sample */
	uint64_t raised, changed;
};

int
tw_tracker_init(struct tw_tracker *t, unsigned raise_after, unsigned clear_after)
{
	memset(t, 0, sizeof(*t));
	if (raise_after < 1 || clear_after < 1)
		return TW_E_INVAL;
	t->rows = calloc(TW_TRACKER_CAPACITY, sizeof(*t->rows));
	t->events = calloc(TW_TRACKER_CAPACITY, sizeof(*t->events));
	t->raised = calloc(TW_TRACKER_CAPACITY, sizeof(*t->raised));
	if (t->rows == NULL || t->events == NULL || t->raised == NULL) {
		tw_tracker_free(t);
		return TW_E_NOMEM;
	}
	t->raise_after = raise_after;
	t->clear_after = clear_after;
	t->next_index = 1;
	return TW_OK;
}

void
tw_tracker_free(struct tw_tracker *t)
{
	free(t->rows);
	free(t->events);
	free(t->raised);
	memset(t, 0, sizeof(*t));
}

void
tw_tracker_begin(struct tw_tracker *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		t->rows[i].hit = 0;
	t->nevents = 0;
}

/* Whether o's owner has as many rows as one owner may: root's and the
 * host's have no quota. */
static int
at_quota(const struct tw_tracker *t, const struct tw_finding *o)
{
	size_t i, n = 0;

	if (o->owner_uid <= 0)
		return 0;
	for (i = 0; i < t->n; i++)
		if (t->rows[i].obs.owner_uid == o->owner_uid &&
		    ++n >= TW_TRACKER_OWNER_QUOTA)
			return 1;
	return 0;
}

/* The row a finding of class cls may take when the table is full: one of
 * the lowest class below cls, a row on its way before a raised one, the
 * newest raised before an older one; NULL when every row is of cls or
 * higher. */
static struct tw_tracked *
victim(struct tw_tracker *t, int cls)
{
	struct tw_tracked *v = NULL;
	size_t i;

	for (i = 0; i < t->n; i++) {
		struct tw_tracked *r = &t->rows[i];

		if (r->obs.cls <= cls)
			continue;
		if (v == NULL || r->obs.cls > v->obs.cls ||
		    (r->obs.cls == v->obs.cls && (r->index == 0 ||
		    (v->index != 0 && r->index > v->index))))
			v = r;
	}
	return v;
}

int
tw_tracker_observe(void *tracker, const struct tw_finding *o)
{
	struct tw_tracker *t = tracker;
	struct tw_tracked *r = NULL;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->rows[i].obs.id, o->id) == 0) {
			r = &t->rows[i];
			break;
		}
	if (r != NULL && r->hit) {
		/* Twice in one sample (reads and writes of one disk): the
		 * worse counts. */
		if (tw_state_worst(o->severity, r->obs.severity) != r->obs.severity)
			r->obs = *o;
		return 0;
	}
	if (r == NULL) {
		/* A new symptom: within its owner's quota, in a free row or
		 * in one of a lower class, given up for it. */
		if (at_quota(t, o)) {
			t->overflows++;
			return 0;
		}
		if (t->n < TW_TRACKER_CAPACITY) {
			r = &t->rows[t->n++];
		} else if ((r = victim(t, o->cls)) != NULL) {
			t->overflows++;
			t->evicted++;
		} else {
			t->overflows++;
			return 0;
		}
		memset(r, 0, sizeof(*r));
	}
	r->obs = *o;
	r->hit = 1;
	return 0;
}

/* A tracked finding as the tracker hands it out. Its texts are shown
 * already (built around shown names, util/escape.h); those longer than a
 * DisplayString, as a check prints them, are cut at a character. */
static void
finding_of(const struct tw_tracked *r, struct tw_view_finding_in *f)
{
	const struct tw_finding *o = &r->obs;
	const char *sym = tw_symptom_name(o->sym);

	f->index = r->index;
	f->critical = r->severity == TW_STATE_CRITICAL;
	f->raised_s = r->raised;
	f->changed_s = r->changed;
	tw_escape_copy(f->id, sizeof(f->id), o->id);
	tw_escape_copy(f->symptom, sizeof(f->symptom), sym != NULL ? sym : "");
	tw_escape_copy(f->subject, sizeof(f->subject), o->subject);
	tw_escape_copy(f->evidence, sizeof(f->evidence), o->evidence);
	tw_escape_copy(f->tunable, sizeof(f->tunable), o->tunable);
	tw_escape_copy(f->current, sizeof(f->current), o->current);
	tw_escape_copy(f->suggested, sizeof(f->suggested), o->suggested);
	tw_escape_copy(f->apply, sizeof(f->apply), o->apply);
	tw_escape_copy(f->persist, sizeof(f->persist), o->persist);
	tw_escape_copy(f->documentation, sizeof(f->documentation), o->documentation);
	tw_escape_copy(f->owner, sizeof(f->owner), o->owner);
	f->cls = o->cls;
	f->owner_uid = o->owner_uid;
}

static void
event(struct tw_tracker *t, enum tw_finding_event_kind kind, const struct tw_tracked *r)
{
	struct tw_finding_event *e = &t->events[t->nevents++];

	e->kind = kind;
	finding_of(r, &e->finding);
}

/* Seen in this sample: count towards raising, or towards a new
 * severity. */
static void
seen(struct tw_tracker *t, struct tw_tracked *r, uint64_t now_s)
{
	r->missed = 0;
	if (r->seen < t->raise_after)
		r->seen++;
	if (r->index == 0) {
		if (r->seen < t->raise_after)
			return;
		r->index = t->next_index++;
		if (t->next_index == 0)
			t->next_index = 1;
		r->severity = r->obs.severity;
		r->raised = r->changed = t->last_change = now_s;
		event(t, TW_FINDING_EVENT_RAISED, r);
		return;
	}
	if (r->obs.severity == r->severity) {
		r->pending_seen = 0;
		return;
	}
	if (r->pending_seen == 0 || r->pending != r->obs.severity) {
		r->pending = r->obs.severity;
		r->pending_seen = 0;
	}
	if (++r->pending_seen < t->raise_after)
		return;
	r->severity = r->obs.severity;
	r->pending_seen = 0;
	r->changed = t->last_change = now_s;
	event(t, TW_FINDING_EVENT_SEVERITY, r);
}

static int
by_index(const void *a, const void *b)
{
	const struct tw_view_finding_in *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* The raised findings, by index: what the view and the MIB show. */
static void
list_raised(struct tw_tracker *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++)
		if (t->rows[i].index != 0)
			finding_of(&t->rows[i], &t->raised[n++]);
	if (n > 1)
		qsort(t->raised, n, sizeof(*t->raised), by_index);
	t->nraised = n;
}

void
tw_tracker_end(struct tw_tracker *t, uint64_t now_s)
{
	size_t i, kept = 0;

	t->samples++;
	for (i = 0; i < t->n; i++) {
		struct tw_tracked *r = &t->rows[i];

		if (r->hit) {
			seen(t, r, now_s);
		} else {
			/* A symptom on its way must be seen without a gap; a
			 * raised one is cleared only after clear_after misses. */
			r->seen = 0;
			r->pending_seen = 0;
			if (r->index == 0)
				continue;
			if (++r->missed >= t->clear_after) {
				t->last_change = now_s;
				event(t, TW_FINDING_EVENT_CLEARED, r);
				continue;
			}
		}
		if (kept != i)
			t->rows[kept] = *r;
		kept++;
	}
	t->n = kept;
	list_raised(t);
}

void
tw_tracker_findings(const struct tw_tracker *t, struct tw_view_findings_in *out)
{
	out->rows = t->raised;
	out->n = t->nraised;
	out->last_change_s = t->last_change;
	out->overflows = t->overflows;
	out->capacity = TW_TRACKER_CAPACITY;
	out->raise_after = t->raise_after;
	out->clear_after = t->clear_after;
}
