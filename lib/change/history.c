/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "change/history.h"

#include <string.h>

#include "util/escape.h"

void
tw_change_history_init(struct tw_change_history *h)
{
	memset(h, 0, sizeof(*h));
	h->next_index = UINT32_MAX;
}

void
tw_change_history_begin(struct tw_change_history *h)
{
	size_t i;

	for (i = 0; i < h->count; i++)
		h->ring[(h->start + i) % TW_CHANGE_MAX].events = 0;
}

/* A new record, the oldest dropped when full, with everything but the
 * figure. */
static struct tw_change *
add(struct tw_change_history *h, const char *tunable, const char *subject,
    const char *old_value, const char *new_value, uint64_t now_ms, int64_t now_s)
{
	struct tw_change *c;

	if (h->count < TW_CHANGE_MAX) {
		c = &h->ring[(h->start + h->count) % TW_CHANGE_MAX];
		h->count++;
	} else {
		/* Full: the oldest makes room. */
		c = &h->ring[h->start];
		h->start = (h->start + 1) % TW_CHANGE_MAX;
	}
	memset(c, 0, sizeof(*c));
	/* Indexes count down; after 2^32 - 1 changes they start again at
	 * the top, which only a poller that kept the oldest would notice. */
	c->index = h->next_index;
	h->next_index = h->next_index > 1 ? h->next_index - 1 : UINT32_MAX;
	h->seen_total++;
	tw_escape_copy(c->tunable, sizeof(c->tunable), tunable);
	tw_escape_copy(c->subject, sizeof(c->subject), subject);
	tw_escape_copy(c->old_value, sizeof(c->old_value), old_value);
	tw_escape_copy(c->new_value, sizeof(c->new_value), new_value);
	c->when_s = now_s;
	c->seen_ms = now_ms;
	c->events = TW_CHANGE_EV_SEEN;
	return c;
}

struct tw_change *
tw_change_history_add(struct tw_change_history *h, const struct tw_view *v,
    const char *tunable, const char *disk_name, uint32_t major, uint32_t minor,
    const char *old_value, const char *new_value, uint64_t now_ms, int64_t now_s)
{
	struct tw_change *c = add(h, tunable, disk_name != NULL ? disk_name : "host", old_value,
	    new_value, now_ms, now_s);

	if (tw_change_figure_pick(v, tunable, major, minor, disk_name != NULL ? disk_name : "",
	    &c->fig))
		c->has_before = tw_change_figure_read(v, &c->fig, &c->before);
	return c;
}

struct tw_change *
tw_change_history_add_cgroup(struct tw_change_history *h, const struct tw_view *v,
    const char *tunable, const char *subject, uint32_t index, const char *old_value,
    const char *new_value, uint64_t now_ms, int64_t now_s)
{
	struct tw_change *c = add(h, tunable, subject, old_value, new_value, now_ms, now_s);

	tw_change_figure_cgroup(index, &c->fig);
	c->has_before = tw_change_figure_read(v, &c->fig, &c->before);
	return c;
}

void
tw_change_history_evaluate(struct tw_change_history *h, const struct tw_view *v,
    uint64_t now_ms, uint64_t window_ms)
{
	size_t i;

	for (i = 0; i < h->count; i++) {
		struct tw_change *c = &h->ring[(h->start + i) % TW_CHANGE_MAX];

		if (c->evaluated || now_ms < c->seen_ms || now_ms - c->seen_ms < window_ms)
			continue;
		c->has_after = c->fig.kind != TW_CHANGE_FIG_NONE &&
		    tw_change_figure_read(v, &c->fig, &c->after);
		c->evaluated = 1;
		c->events |= TW_CHANGE_EV_EVALUATED;
	}
}

const struct tw_change *
tw_change_history_at(const struct tw_change_history *h, size_t i)
{
	return &h->ring[(h->start + h->count - 1 - i) % TW_CHANGE_MAX];
}

size_t
tw_change_history_list(const struct tw_change_history *h, struct tw_change_fig *out)
{
	size_t i;

	for (i = 0; i < h->count; i++) {
		const struct tw_change *c = tw_change_history_at(h, i);
		struct tw_change_fig *e = &out[i];
		int watched = c->fig.kind != TW_CHANGE_FIG_NONE;

		tw_change_fig_init(e);
		e->index = c->index;
		e->tunable = c->tunable;
		e->subject = c->subject;
		e->old_value = c->old_value;
		e->new_value = c->new_value;
		e->time_s = (double)c->when_s;
		e->evaluated = c->evaluated ? 1 : 0;
		if (watched) {
			e->figure = c->fig.name;
			e->unit = c->fig.unit != NULL ? c->fig.unit : "";
		}
		if (c->has_before)
			e->before = c->before;
		if (c->has_after)
			e->after = c->after;
	}
	return h->count;
}
