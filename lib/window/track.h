/* SPDX-License-Identifier: ISC */
/* Tracks: the recent history of a set of counters for each entity of one
 * kind (a disk, a pool), keyed by a 64-bit id.
 *
 * A track keeps, for each of the last `slots` samples, the cumulative
 * increase of each counter since the track began and the time those
 * increases cover. The increase over any span of the window is then one
 * subtraction, whatever wrapped or reset in between: a wrap adds its true
 * increase, a reset adds nothing and no time, so it can neither spike nor
 * go negative. An entity missing from a sample loses its track; if it comes
 * back it starts a new one, so no entity ever shifts another's history. */
#ifndef TW_TRACK_H
#define TW_TRACK_H

#include <stddef.h>
#include <stdint.h>

struct tw_track {
	uint64_t key;
	uint64_t first_seq;	/* the sample the unbroken history starts at */
	uint64_t last_seq;	/* the newest sample it was seen in */
	uint64_t *raw;		/* k: the last reading */
	uint64_t *base;		/* k: the first reading */
	uint64_t *ring;		/* slots rows of k increases then covered ms */
};

struct tw_track_set {
	unsigned k;		/* counters per entity */
	unsigned slots;		/* samples kept */
	uint8_t bits[16];	/* width of each counter: 32 or 64 */
	struct tw_track **tracks;	/* sorted by key */
	uint64_t *keys;		/* tracks[i]->key, so that a search or a merge
				 * touches no track it does not need */
	size_t count;
	size_t cap;
	struct tw_track **spare;	/* the next sorted arrays, swapped in */
	uint64_t *spare_keys;
	size_t spare_cap;
};

#define TW_TRACK_MAX_K 16

/* bits has k entries (32 or 64). TW_E_INVAL when k or slots are out of
 * range. */
int tw_track_set_init(struct tw_track_set *ts, unsigned k, unsigned slots, const uint8_t *bits);
void tw_track_set_free(struct tw_track_set *ts);

/* Record sample seq (each call's seq is one more than the last) taken dt_ms
 * after the previous one. keys[n] are sorted and unique; raw holds k
 * readings per key, in the same order. TW_E_INVAL if keys are not sorted
 * and unique; TW_E_NOMEM leaves the set as it was before the call. */
int tw_track_set_update(struct tw_track_set *ts, uint64_t seq, uint64_t dt_ms,
    const uint64_t *keys, const uint64_t *raw, size_t n);

/* The track of key, or NULL when the entity was not in the newest sample. */
const struct tw_track *tw_track_set_find(const struct tw_track_set *ts, uint64_t key);

/* The increase of each counter (delta[k]) and the time it covers, between
 * the oldest sample of the track within [oldest_seq, newest_seq] and
 * newest_seq. Returns 1 when the track spans at least one interval there,
 * 0 when it is too young (delta and cov_ms then 0). */
int tw_track_delta(const struct tw_track_set *ts, const struct tw_track *t, uint64_t oldest_seq,
    uint64_t newest_seq, uint64_t *delta, uint64_t *cov_ms);

/* The counter unwrapped since the track began: base + every increase. */
uint64_t tw_track_total(const struct tw_track_set *ts, const struct tw_track *t, unsigned i);

#endif
