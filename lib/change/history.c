/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "change/history.h"

#include <string.h>

#include "util/escape.h"
#include "util/uid.h"

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
		h->ring[i].events = 0;
}

/* The class of a change of uid's (finding.h's). */
static int
class_of(int64_t uid)
{
	return uid == 0 ? TW_FINDING_CLASS_HOST : tw_uid_is_user(uid) || uid < 0 ?
	    TW_FINDING_CLASS_USER : TW_FINDING_CLASS_SERVICE;
}

/* Whether a should go before b: its owner's oldest, evaluated first. */
static int
before(const struct tw_change *a, const struct tw_change *b)
{
	return b == NULL || (a->evaluated && !b->evaluated);
}

/* Whether uid holds as many changes as one owner may (root: no quota). */
static int
at_quota(const struct tw_change_history *h, int64_t uid)
{
	size_t i, mine = 0;

	if (uid == 0)
		return 0;
	for (i = 0; i < h->count; i++)
		mine += h->ring[i].owner_uid == uid;
	return mine >= TW_CHANGE_OWNER_QUOTA;
}

/* The change a new one of uid and cls takes the place of (history.h), or
 * -1. Rows are oldest first, so the first of a kind is its oldest. */
static long
victim(const struct tw_change_history *h, int64_t uid, int cls)
{
	const struct tw_change *v = NULL;
	size_t i, mine = at_quota(h, uid) ? TW_CHANGE_OWNER_QUOTA : 0;
	long at = -1;

	for (i = 0; i < h->count; i++) {
		const struct tw_change *c = &h->ring[i];

		if (mine >= TW_CHANGE_OWNER_QUOTA ? c->owner_uid != uid : c->cls < cls)
			continue;
		if (v == NULL || (mine < TW_CHANGE_OWNER_QUOTA && c->cls > v->cls) ||
		    (c->cls == v->cls && before(c, v) && !before(v, c))) {
			v = c;
			at = (long)i;
		}
	}
	return at;
}

/* A new record, with everything but the figure; NULL when the history
 * keeps it not (history.h). */
static struct tw_change *
add(struct tw_change_history *h, const char *tunable, const char *subject,
    const char *old_value, const char *new_value, int64_t uid, uint64_t now_ms,
    int64_t now_s)
{
	struct tw_change *c;
	int cls = class_of(uid);

	h->seen_total++;
	if (h->count == TW_CHANGE_MAX || at_quota(h, uid)) {
		long at = victim(h, uid, cls);

		if (at < 0) {
			h->dropped++;
			return NULL;
		}
		memmove(&h->ring[at], &h->ring[at + 1],
		    (h->count - (size_t)at - 1) * sizeof(h->ring[0]));
		h->count--;
	}
	c = &h->ring[h->count++];
	memset(c, 0, sizeof(*c));
	/* Indexes count down; after 2^32 - 1 changes they start again at
	 * the top, which only a poller that kept the oldest would notice. */
	c->index = h->next_index;
	h->next_index = h->next_index > 1 ? h->next_index - 1 : UINT32_MAX;
	tw_escape_copy(c->tunable, sizeof(c->tunable), tunable);
	tw_escape_copy(c->subject, sizeof(c->subject), subject);
	tw_escape_copy(c->old_value, sizeof(c->old_value), old_value);
	tw_escape_copy(c->new_value, sizeof(c->new_value), new_value);
	c->when_s = now_s;
	c->seen_ms = now_ms;
	c->events = TW_CHANGE_EV_SEEN;
	c->owner_uid = uid;
	c->cls = cls;
	return c;
}

struct tw_change *
tw_change_history_add(struct tw_change_history *h, const struct tw_view *v,
    const char *tunable, const char *disk_name, uint32_t major, uint32_t minor,
    const char *old_value, const char *new_value, uint64_t now_ms, int64_t now_s)
{
	struct tw_change *c = add(h, tunable, disk_name != NULL ? disk_name : "host", old_value,
	    new_value, 0, now_ms, now_s);

	if (c != NULL && tw_change_figure_pick(v, tunable, major, minor,
	    disk_name != NULL ? disk_name : "", &c->fig))
		c->has_before = tw_change_figure_read(v, &c->fig, &c->before);
	return c;
}

struct tw_change *
tw_change_history_add_cgroup(struct tw_change_history *h, const struct tw_view *v,
    const char *tunable, const char *subject, const char *finding_id, int64_t owner_uid,
    uint32_t index, const char *old_value, const char *new_value, uint64_t now_ms,
    int64_t now_s)
{
	struct tw_change *c = add(h, tunable, subject, old_value, new_value, owner_uid, now_ms,
	    now_s);

	if (c == NULL)
		return NULL;
	tw_escape_copy(c->finding_id, sizeof(c->finding_id), finding_id);
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
		struct tw_change *c = &h->ring[i];

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
	return &h->ring[h->count - 1 - i];
}

size_t
tw_change_history_list(const struct tw_change_history *h, struct tw_change_record *out)
{
	size_t i;

	for (i = 0; i < h->count; i++) {
		const struct tw_change *c = tw_change_history_at(h, i);
		struct tw_change_record *e = &out[i];
		int watched = c->fig.kind != TW_CHANGE_FIG_NONE;

		tw_change_record_init(e);
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
		if (c->finding_id[0] != '\0')
			e->finding_id = c->finding_id;
	}
	return h->count;
}
