#include "config.h"

#include "window/window.h"

#include <stdlib.h>

#include "util/error.h"

/* Each published cgroup's counters, keyed by its index: a cgroup that
 * leaves the published set loses its track, and one that comes back starts
 * a new one, so its windowed figures are absent until it has been seen in
 * two samples, as a new disk's are. All four are 64-bit counters; a reset
 * (v1 memory.failcnt can be written to 0) adds nothing. */

int
tw_window_cgroups_init(struct tw_track_set *set, unsigned slots)
{
	static const uint8_t bits[TW_WCG_K] = { 64, 64, 64, 64 };

	return tw_track_set_init(set, TW_WCG_K, slots, bits);
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
		const struct tw_cgroup_row *row = &s->cgroups.rows[i];

		keys[i] = row->index;
		for (f = 0; f < TW_WCG_K; f++)
			raw[i * TW_WCG_K + f] = row->cg.v[field[f]];
	}
	rc = tw_track_set_update(set, seq, dt, keys, raw, n);
	free(keys);
	free(raw);
	return rc;
}
