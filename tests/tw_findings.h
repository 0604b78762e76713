/* What the finding tests share: an observer that keeps the first few
 * observations, and one sample fed to a tracker as tunewatchd feeds it
 * (begin, observe the view, end). Static inline: each test program uses
 * a different part of it. */
#ifndef TW_FINDINGS_TEST_H
#define TW_FINDINGS_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "advice/advice.h"
#include "finding/judge.h"
#include "finding/observe.h"
#include "finding/tracker.h"
#include "tw_check.h"
#include "view/view.h"

#define TW_SEEN_MAX 4

struct seen {
	struct tw_observation o[TW_SEEN_MAX];
	size_t n;
};

/* A tw_observe_fn; ctx is a struct seen. Observations past the first
 * TW_SEEN_MAX are dropped. */
static inline int
collect(void *ctx, const struct tw_observation *o)
{
	struct seen *s = ctx;

	if (s->n < TW_SEEN_MAX)
		s->o[s->n++] = *o;
	return 0;
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

#endif
