/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "window/track.h"

#include <stdlib.h>
#include <string.h>

#include "window/counter.h"
#include "util/error.h"
#include "util/sorted.h"

int
tw_track_set_init(struct tw_track_set *ts, unsigned k, unsigned slots, const uint8_t *bits)
{
	unsigned i;

	memset(ts, 0, sizeof(*ts));
	if (k == 0 || k > TW_TRACK_MAX_K || slots < 2 || slots > 100000)
		return TW_E_INVAL;
	for (i = 0; i < k; i++) {
		if (bits[i] != 32 && bits[i] != 64)
			return TW_E_INVAL;
		ts->bits[i] = bits[i];
	}
	ts->k = k;
	ts->slots = slots;
	return TW_OK;
}

static void
track_free(struct tw_track *t)
{
	free(t);
}

void
tw_track_set_free(struct tw_track_set *ts)
{
	size_t i;

	for (i = 0; i < ts->count; i++)
		track_free(ts->tracks[i]);
	free(ts->tracks);
	free(ts->keys);
	free(ts->spare);
	free(ts->spare_keys);
	memset(ts, 0, sizeof(*ts));
}

static uint64_t *
row(const struct tw_track_set *ts, const struct tw_track *t, uint64_t seq)
{
	return t->ring + (size_t)(seq % ts->slots) * (ts->k + 1);
}

/* One allocation per track: header, then raw, base and ring. */
static struct tw_track *
track_new(const struct tw_track_set *ts, uint64_t key, uint64_t seq, const uint64_t *raw)
{
	size_t words = 2 * (size_t)ts->k + (size_t)ts->slots * (ts->k + 1);
	struct tw_track *t = calloc(1, sizeof(*t) + words * sizeof(uint64_t));

	if (t == NULL)
		return NULL;
	t->key = key;
	t->first_seq = seq;
	t->last_seq = seq;
	t->raw = (uint64_t *)(t + 1);
	t->base = t->raw + ts->k;
	t->ring = t->base + ts->k;
	memcpy(t->raw, raw, ts->k * sizeof(uint64_t));
	memcpy(t->base, raw, ts->k * sizeof(uint64_t));
	return t;
}

static void
track_advance(const struct tw_track_set *ts, struct tw_track *t, uint64_t seq, uint64_t dt_ms,
    const uint64_t *raw)
{
	const uint64_t *prev = row(ts, t, t->last_seq);
	uint64_t *cur = row(ts, t, seq);
	uint64_t delta[TW_TRACK_MAX_K];
	int reset = 0;
	unsigned i;

	for (i = 0; i < ts->k; i++)
		if (tw_counter_step(t->raw[i], raw[i], ts->bits[i], &delta[i]) == TW_STEP_RESET)
			reset = 1;
	/* A reset anywhere makes the whole interval untrustworthy: keep the
	 * totals where they were and do not count its time. */
	for (i = 0; i < ts->k; i++)
		cur[i] = prev[i] + (reset ? 0 : delta[i]);
	cur[ts->k] = prev[ts->k] + (reset ? 0 : dt_ms);
	memcpy(t->raw, raw, ts->k * sizeof(uint64_t));
	t->last_seq = seq;
}

int
tw_track_set_update(struct tw_track_set *ts, uint64_t seq, uint64_t dt_ms,
    const uint64_t *keys, const uint64_t *raw, size_t n)
{
	struct tw_track **next, **old;
	uint64_t *old_keys;
	size_t i, j = 0, old_cap;

	for (i = 1; i < n; i++)
		if (keys[i] <= keys[i - 1])
			return TW_E_INVAL;
	if (n > ts->spare_cap) {
		uint64_t *nk;

		next = realloc(ts->spare, n * sizeof(*next));
		if (next == NULL)
			return TW_E_NOMEM;
		ts->spare = next;
		/* Should this one fail, spare is only larger than it says. */
		nk = realloc(ts->spare_keys, n * sizeof(*nk));
		if (nk == NULL)
			return TW_E_NOMEM;
		ts->spare_keys = nk;
		ts->spare_cap = n;
	}
	next = ts->spare;

	/* First pass: find or allocate every track, so that running out of
	 * memory leaves the set as it was. A track made now is the only kind
	 * whose history starts at seq. */
	for (i = 0; i < n; i++) {
		while (j < ts->count && ts->keys[j] < keys[i])
			j++;
		if (j < ts->count && ts->keys[j] == keys[i]) {
			next[i] = ts->tracks[j];
			continue;
		}
		next[i] = track_new(ts, keys[i], seq, raw + i * ts->k);
		if (next[i] == NULL) {
			while (i-- > 0)
				if (next[i]->first_seq == seq)
					track_free(next[i]);
			return TW_E_NOMEM;
		}
	}

	/* Second pass: advance the survivors, free the departed. */
	j = 0;
	for (i = 0; i < n; i++) {
		while (j < ts->count && ts->keys[j] < keys[i])
			track_free(ts->tracks[j++]);
		if (j < ts->count && ts->tracks[j] == next[i]) {
			track_advance(ts, next[i], seq, dt_ms, raw + i * ts->k);
			j++;
		}
	}
	while (j < ts->count)
		track_free(ts->tracks[j++]);

	if (n > 0)
		memcpy(ts->spare_keys, keys, n * sizeof(*keys));
	old = ts->tracks;
	old_keys = ts->keys;
	old_cap = ts->cap;
	ts->tracks = next;
	ts->keys = ts->spare_keys;
	ts->cap = ts->spare_cap;
	ts->count = n;
	ts->spare = old;
	ts->spare_keys = old_keys;
	ts->spare_cap = old_cap;
	return TW_OK;
}

static uint64_t
key_at(const void *keys, size_t i)
{
	return ((const uint64_t *)keys)[i];
}

const struct tw_track *
tw_track_set_find(const struct tw_track_set *ts, uint64_t key)
{
	size_t i = tw_sorted_find(ts->keys, ts->count, key_at, key);

	return i < ts->count ? ts->tracks[i] : NULL;
}

int
tw_track_delta(const struct tw_track_set *ts, const struct tw_track *t, uint64_t oldest_seq,
    uint64_t newest_seq, uint64_t *delta, uint64_t *cov_ms)
{
	const uint64_t *a, *b;
	uint64_t from = oldest_seq;
	unsigned i;

	if (from < t->first_seq)
		from = t->first_seq;
	/* The ring only holds the last `slots` samples. */
	if (newest_seq >= ts->slots && from < newest_seq - ts->slots + 1)
		from = newest_seq - ts->slots + 1;
	if (t->last_seq != newest_seq || from >= newest_seq) {
		memset(delta, 0, ts->k * sizeof(uint64_t));
		*cov_ms = 0;
		return 0;
	}
	a = row(ts, t, from);
	b = row(ts, t, newest_seq);
	for (i = 0; i < ts->k; i++)
		delta[i] = b[i] - a[i];
	*cov_ms = b[ts->k] - a[ts->k];
	return 1;
}

uint64_t
tw_track_total(const struct tw_track_set *ts, const struct tw_track *t, unsigned i)
{
	return t->base[i] + row(ts, t, t->last_seq)[i];
}
