/* SPDX-License-Identifier: ISC */
/* What the finding tests share: an observer that keeps the first few
 * observations, one sample fed to a tracker as tunewatchd feeds it
 * (begin, observe the view, end), and the two fixtures each family's
 * tests repeat: one observation of a view with its ticket id recomputed,
 * and a finding raised on the third sample and published. Static inline:
 * each test program uses a different part of it. */
#ifndef TW_FINDINGS_TEST_H
#define TW_FINDINGS_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "advice/advice.h"
#include "advice/ticket.h"
#include "finding/judge.h"
#include "finding/observe.h"
#include "finding/tracker.h"
#include "tw_check.h"
#include "util/error.h"
#include "view/build.h"
#include "view/view.h"

/* The tracker's findings put into v, as the monitor's build puts them. */
static inline int
publish_findings(const struct tw_tracker *t, struct tw_view *v)
{
	struct tw_view_findings_in f;

	tw_tracker_findings(t, &f);
	return tw_view_build(v, &(struct tw_view_sources){ .findings = &f });
}

/* An event's finding as its row of twFindingTable shows it. */
static inline struct tw_view_finding
event_row(const struct tw_finding_event *e)
{
	struct tw_view_finding row;

	tw_view_finding_row(&e->finding, &row);
	return row;
}

#define TW_SEEN_MAX 4

struct seen {
	struct tw_finding o[TW_SEEN_MAX];
	size_t n;
};

/* A tw_observe_fn; ctx is a struct seen. Observations past the first
 * TW_SEEN_MAX are dropped. */
static inline int
collect(void *ctx, const struct tw_finding *o)
{
	struct seen *s = ctx;

	if (s->n < TW_SEEN_MAX)
		s->o[s->n++] = *o;
	return 0;
}

/* The observation in s on subject, or NULL. */
static inline const struct tw_finding *
find_subject(const struct seen *s, const char *subject)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->o[i].subject, subject) == 0)
			return &s->o[i];
	return NULL;
}

/* One sample of v, judged with c on Linux, through tracker t at time now;
 * the events it gave. */
static inline size_t
feed_tracker(struct tw_tracker *t, const struct tw_judge_config *c, const struct tw_view *v,
    uint64_t now)
{
	tw_tracker_begin(t);
	ck_assert_int_eq(tw_observe(c, v, 60, TW_OS_LINUX, tw_tracker_observe, t), 0);
	tw_tracker_end(t, now);
	return t->nevents;
}

/* One sample of v judged with c on Linux must give exactly one
 * observation, of sym at severity on subject with tunable ("" for none),
 * its id tw_ticket_id's for sym, subject and knob (the tunable, or the
 * part of it a per-device path is hashed by). It is left in s->o[0]. */
static inline const struct tw_finding *
observe_one(struct seen *s, const struct tw_judge_config *c, const struct tw_view *v,
    enum tw_symptom sym, enum tw_state severity, const char *subject, const char *knob)
{
	char id[TW_TICKET_ID_LEN];

	s->n = 0;
	ck_assert_int_eq(tw_observe(c, v, 60, TW_OS_LINUX, collect, s), 0);
	ck_assert_uint_eq(s->n, 1);
	ck_assert_int_eq(s->o[0].sym, sym);
	ck_assert_int_eq(s->o[0].severity, severity);
	ck_assert_str_eq(s->o[0].subject, subject);
	tw_ticket_id(id, sym, subject, knob);
	ck_assert_str_eq(s->o[0].id, id);
	return &s->o[0];
}

/* A new tracker t (raise and clear after 3) fed v three times from time
 * now: no event before the third sample, then n, the first the raising of
 * the finding with id on subject; published into out (initialised here),
 * n rows, the first that finding. The caller frees t and out. */
static inline void
raise_on_third(struct tw_tracker *t, const struct tw_judge_config *c, const struct tw_view *v,
    uint64_t now, size_t n, const char *subject, const char *id, struct tw_view *out)
{
	int i;

	tw_view_init(out);
	ck_assert_int_eq(tw_tracker_init(t, 3, 3), TW_OK);
	for (i = 0; i < 3; i++)
		ck_assert_uint_eq(feed_tracker(t, c, v, now + (uint64_t)i), i < 2 ? 0 : n);
	ck_assert_int_eq(t->events[0].kind, TW_FINDING_EVENT_RAISED);
	ck_assert_str_eq(t->events[0].finding.subject, subject);
	ck_assert_str_eq(t->events[0].finding.id, id);
	ck_assert_int_eq(publish_findings(t, out), TW_OK);
	ck_assert_uint_eq(out->nfindings, n);
	ck_assert_str_eq(out->findings[0].subject, subject);
	ck_assert_str_eq(out->findings[0].id, id);
}

#endif
