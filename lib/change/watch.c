#include "config.h"

#include "change/watch.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/diskstats.h"
#include "util/array.h"
#include "util/error.h"

/* A disk's queue attributes, as the previous sample read them. */
struct tw_change_queue {
	uint64_t key;			/* tw_disk_key(major, minor) */
	struct tw_queue q;
};

void
tw_change_watch_init(struct tw_change_watch *w, unsigned window_s)
{
	memset(w, 0, sizeof(*w));
	tw_change_history_init(&w->history);
	w->window_ms = (uint64_t)window_s * 1000;
}

void
tw_change_watch_free(struct tw_change_watch *w)
{
	free(w->queues);
	w->queues = NULL;
	w->nqueues = w->queues_cap = 0;
	tw_change_free_cgroups(w);
}

static void
watch_sysctl(struct tw_change_watch *w, const struct tw_sample *s, const struct tw_view *v,
    int64_t now_s)
{
	size_t i;

	for (i = 0; i < TW_SYSCTL_COUNT; i++) {
		const struct tw_sysctl_value *a = &w->sysctl.v[i], *b = &s->sysctl.v[i];

		if (a->rc != TW_OK || b->rc != TW_OK || strcmp(a->text, b->text) == 0)
			continue;
		tw_change_history_add(&w->history, v, tw_sysctl_name((enum tw_sysctl_id)i), NULL,
		    0, 0, a->text, b->text, s->mono_ms, now_s);
	}
}

static void
number(char *buf, size_t len, int64_t n)
{
	snprintf(buf, len, "%" PRId64, n);
}

/* One attribute that was read in both samples and differs. */
static void
record(struct tw_change_watch *w, const struct tw_view *v, const struct tw_disk_stat *ds,
    const char *attr, const char *old_value, const char *new_value, uint64_t now_ms,
    int64_t now_s)
{
	tw_change_history_add(&w->history, v, attr, ds->name, ds->major, ds->minor, old_value,
	    new_value, now_ms, now_s);
}

static void
compare_queue(struct tw_change_watch *w, const struct tw_view *v, const struct tw_disk_stat *ds,
    const struct tw_queue *a, const struct tw_queue *b, uint64_t now_ms, int64_t now_s)
{
	static const struct {
		const char *name;
		size_t off;
	} nums[] = {
		{ "queue/nr_requests", offsetof(struct tw_queue, nr_requests) },
		{ "queue/read_ahead_kb", offsetof(struct tw_queue, read_ahead_kb) },
		{ "queue/wbt_lat_usec", offsetof(struct tw_queue, wbt_lat_usec) },
	};
	char x[24], y[24];
	size_t i;

	if (a->scheduler[0] != '\0' && b->scheduler[0] != '\0' &&
	    strcmp(a->scheduler, b->scheduler) != 0)
		record(w, v, ds, "queue/scheduler", a->scheduler, b->scheduler, now_ms, now_s);
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		int64_t p, q;

		memcpy(&p, (const char *)a + nums[i].off, sizeof(p));
		memcpy(&q, (const char *)b + nums[i].off, sizeof(q));
		/* -1 is "unknown", except that wbt_lat_usec may be written -1
		 * and then reads back as the default: never a value here. */
		if (p < 0 || q < 0 || p == q)
			continue;
		number(x, sizeof(x), p);
		number(y, sizeof(y), q);
		record(w, v, ds, nums[i].name, x, y, now_ms, now_s);
	}
}

/* The sample's disks and the kept queues are both sorted by key: walk
 * them side by side, as the view's builder does. */
static void
watch_queues(struct tw_change_watch *w, const struct tw_sample *s, const struct tw_view *v,
    int64_t now_s)
{
	size_t i, j = 0;

	for (i = 0; i < s->disks.count; i++) {
		const struct tw_disk_stat *ds = &s->disks.disks[i];
		uint64_t key = tw_disk_key(ds->major, ds->minor);

		while (j < w->nqueues && w->queues[j].key < key)
			j++;
		if (j < w->nqueues && w->queues[j].key == key)
			compare_queue(w, v, ds, &w->queues[j].q, &s->queues[i], s->mono_ms, now_s);
	}
}

static int
keep(struct tw_change_watch *w, const struct tw_sample *s)
{
	void *p;
	size_t i;
	int rc;

	rc = tw_array_grow(w->queues, &w->queues_cap, s->disks.count, sizeof(*w->queues), &p);
	w->queues = p;
	if (rc != TW_OK)
		return rc;
	for (i = 0; i < s->disks.count; i++) {
		w->queues[i].key = tw_disk_key(s->disks.disks[i].major, s->disks.disks[i].minor);
		w->queues[i].q = s->queues[i];
	}
	w->nqueues = s->disks.count;
	w->sysctl = s->sysctl;
	w->sysctl_read = (s->have & TW_SRC_BIT(TW_SRC_SYSCTL)) != 0;
	if ((rc = tw_change_keep_cgroups(w, s)) != TW_OK)
		return rc;
	w->primed = 1;
	return TW_OK;
}

int
tw_change_watch_step(struct tw_change_watch *w, const struct tw_sample *s,
    const struct tw_view *v, int64_t now_s)
{
	tw_change_history_begin(&w->history);
	if (w->primed) {
		if (w->sysctl_read && (s->have & TW_SRC_BIT(TW_SRC_SYSCTL)))
			watch_sysctl(w, s, v, now_s);
		watch_queues(w, s, v, now_s);
		tw_change_watch_cgroups(w, s, v, now_s);
	}
	tw_change_history_evaluate(&w->history, v, s->mono_ms, w->window_ms);
	return keep(w, s);
}
