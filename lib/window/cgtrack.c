/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "window/window.h"

#include <stdlib.h>

#include "util/error.h"

/* Each published cgroup's counters, keyed by its index: a cgroup that
 * leaves the published set loses its track, and one that comes back starts
 * a new one, so its windowed figures are absent until it has been seen in
 * two samples, as a new disk's are. All are 64-bit counters; a reset
 * (v1 memory.failcnt can be written to 0) adds nothing.
 *
 * The limit events are read every few samples only (sample/cgroups.h) and
 * held in between, so their increase over a span covers the time between
 * the samples they were read in, not the span: EVENTS_MS, a counter of
 * its own, is the stamp of the sample they were last read in, and its
 * increase over the same span is that time, by which the view divides. */

int
tw_window_cgroups_init(struct tw_track_set *set, unsigned slots)
{
	static const uint8_t bits[TW_WCG_K] = { 64, 64, 64, 64, 64, 64, 64 };

	return tw_track_set_init(set, TW_WCG_K, slots, bits);
}

/* When row's limit events were read: now, or as the cgroup's track last
 * said. A track begins at a rescan's sample, which reads them all; one
 * that begins with a held figure starts its time now, which can only
 * stretch its first span. */
static uint64_t
events_ms(const struct tw_track_set *set, const struct tw_sample_cgroup *row, uint64_t now)
{
	const struct tw_track *t;

	if (!(row->held & TW_CG_BIT(TW_CG_LIMIT_EVENTS)))
		return now;
	t = tw_track_set_find(set, row->index);
	return t != NULL ? t->raw[TW_WCG_EVENTS_MS] : now;
}

int
tw_window_push_cgroups(struct tw_track_set *set, const struct tw_sample *s, uint64_t seq,
    uint64_t dt)
{
	static const enum tw_cg_field field[TW_WCG_K] = {
		[TW_WCG_REFAULTS] = TW_CG_REFAULTS,
		[TW_WCG_LIMIT_EVENTS] = TW_CG_LIMIT_EVENTS,
		[TW_WCG_READ_BYTES] = TW_CG_READ_BYTES,
		[TW_WCG_WRITE_BYTES] = TW_CG_WRITE_BYTES,
	};
	size_t n = (s->have & TW_SRC_BIT(TW_SRC_CGROUPS)) ? s->cgroups.count : 0, i;
	uint64_t *keys, *raw;
	unsigned f;
	int rc;

	keys = malloc((n ? n : 1) * sizeof(*keys));
	raw = malloc((n ? n : 1) * TW_WCG_K * sizeof(*raw));
	if (keys == NULL || raw == NULL) {
		free(keys);
		free(raw);
		return TW_E_NOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct tw_sample_cgroup *row = &s->cgroups.rows[i];

		keys[i] = row->index;
		for (f = 0; f < TW_WCG_EVENTS_MS; f++)
			raw[i * TW_WCG_K + f] = row->cg.v[field[f]];
		raw[i * TW_WCG_K + TW_WCG_EVENTS_MS] = events_ms(set, row, s->mono_ms);
		raw[i * TW_WCG_K + TW_WCG_ANON_UP] = row->cg.v[TW_CG_ANON_UP];
		raw[i * TW_WCG_K + TW_WCG_ANON_DOWN] = row->cg.v[TW_CG_ANON_DOWN];
	}
	rc = tw_track_set_update(set, seq, dt, keys, raw, n);
	free(keys);
	free(raw);
	return rc;
}
