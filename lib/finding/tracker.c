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
	if (t->rows == NULL || t->events == NULL) {
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
		if (t->n == TW_TRACKER_CAPACITY) {
			t->overflows++;
			return 0;
		}
		r = &t->rows[t->n++];
		memset(r, 0, sizeof(*r));
	}
	r->obs = *o;
	r->hit = 1;
	return 0;
}

static uint64_t
severity_value(enum tw_state st)
{
	return st == TW_STATE_CRITICAL ? TW_FINDING_CRITICAL : TW_FINDING_WARNING;
}

/* A copy cut to fit, at a character's boundary: the texts are built
 * around shown names (util/escape.h), and a DisplayString with half a
 * character is no longer UTF-8. */
static void
copy(char *dst, size_t len, const char *src)
{
	(void)tw_escape_copy(dst, len, src);
}

/* The MIB row of a tracked finding. */
static void
row_of(const struct tw_tracked *r, struct tw_view_finding *f)
{
	const struct tw_finding *o = &r->obs;
	const char *sym = tw_symptom_name(o->sym);

	memset(f, 0, sizeof(*f));
	f->index = r->index;
	copy(f->id, sizeof(f->id), o->id);
	copy(f->symptom, sizeof(f->symptom), sym != NULL ? sym : "");
	copy(f->subject, sizeof(f->subject), o->subject);
	copy(f->evidence, sizeof(f->evidence), o->evidence);
	copy(f->tunable, sizeof(f->tunable), o->tunable);
	copy(f->current, sizeof(f->current), o->current);
	copy(f->suggested, sizeof(f->suggested), o->suggested);
	copy(f->apply, sizeof(f->apply), o->apply);
	copy(f->persist, sizeof(f->persist), o->persist);
	copy(f->documentation, sizeof(f->documentation), o->documentation);
	copy(f->owner, sizeof(f->owner), o->owner);
	f->col[TW_OID_FINDING_SEVERITY] = severity_value(r->severity);
	f->col[TW_OID_FINDING_RAISED] = r->raised;
	f->col[TW_OID_FINDING_CHANGED] = r->changed;
	/* Every column, empty strings included: an empty apply line says
	 * there is nothing to apply (a value unknown, or at its limit). */
	f->has = ((UINT32_C(1) << TW_VIEW_FINDING_COLS) - 1) & ~UINT32_C(3);
}

static void
event(struct tw_tracker *t, enum tw_finding_event_kind kind, const struct tw_tracked *r)
{
	struct tw_finding_event *e = &t->events[t->nevents++];

	e->kind = kind;
	row_of(r, &e->row);
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
}

static int
by_index(const void *a, const void *b)
{
	const struct tw_view_finding *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

int
tw_tracker_publish(const struct tw_tracker *t, struct tw_view *v)
{
	struct tw_view_findsum *s = &v->findsum;
	size_t i, n = 0;
	int rc;

	if ((rc = tw_view_reserve_findings(v, t->n > 0 ? t->n : 1)) != TW_OK)
		return rc;
	for (i = 0; i < t->n; i++)
		if (t->rows[i].index != 0)
			row_of(&t->rows[i], &v->findings[n++]);
	if (n > 1)
		qsort(v->findings, n, sizeof(*v->findings), by_index);
	v->nfindings = n;
	memset(s, 0, sizeof(*s));
	s->col[TW_OID_FINDING_COUNT] = n;
	s->col[TW_OID_FINDING_LAST_CHANGE] = t->last_change;
	s->col[TW_OID_FINDING_CAPACITY] = TW_TRACKER_CAPACITY;
	s->col[TW_OID_FINDING_OVERFLOWS] = t->overflows;
	s->col[TW_OID_FINDING_RAISE_AFTER] = t->raise_after;
	s->col[TW_OID_FINDING_CLEAR_AFTER] = t->clear_after;
	/* The notification counters (twFindingNotificationsSuppressed and
	 * those after the table) are the agent's to fill in: the sender is
	 * not in lib/. */
	s->has = ((UINT32_C(1) << (TW_OID_FINDING_CLEAR_AFTER + 1)) - 1) & ~UINT32_C(1) &
	    ~TW_VIEW_BIT(TW_OID_FINDING_SUPPRESSED);
	return TW_OK;
}
