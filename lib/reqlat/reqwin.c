/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "reqlat/reqwin.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/sorted.h"

int
tw_reqwin_init(struct tw_reqwin *w, unsigned intervals)
{
	memset(w, 0, sizeof(*w));
	if (intervals < 1 || intervals > 99999)
		return TW_E_INVAL;
	w->intervals = intervals;
	return TW_OK;
}

static void
dev_free(struct tw_reqwin_dev *d)
{
	unsigned dir, kind, i;

	if (d == NULL)
		return;
	for (dir = 0; dir < TW_REQLAT_NDIRS; dir++)
		for (kind = 0; kind < TW_REQLAT_NKINDS; kind++) {
			struct tw_reqwin_series *s = &d->s[dir][kind];

			if (s->ring == NULL)
				continue;
			for (i = 0; i < s->filled; i++) {
				free(s->ring[i].bucket);
				free(s->ring[i].inc);
			}
			free(s->ring);
		}
	free(d);
}

void
tw_reqwin_free(struct tw_reqwin *w)
{
	size_t i;

	for (i = 0; i < w->count; i++)
		dev_free(w->devs[i]);
	free(w->devs);
	memset(w, 0, sizeof(*w));
}

/* A new device's track, its readings the base. */
static struct tw_reqwin_dev *
dev_new(const struct tw_reqwin *w, const struct tw_reqlat_device *rd)
{
	struct tw_reqwin_dev *d = calloc(1, sizeof(*d));
	unsigned dir, kind;

	if (d == NULL)
		return NULL;
	d->major = rd->major;
	d->minor = rd->minor;
	d->gen = rd->gen;
	for (dir = 0; dir < TW_REQLAT_NDIRS; dir++)
		for (kind = 0; kind < TW_REQLAT_NKINDS; kind++) {
			struct tw_reqwin_series *s = &d->s[dir][kind];

			s->ring = calloc(w->intervals, sizeof(*s->ring));
			if (s->ring == NULL) {
				dev_free(d);
				return NULL;
			}
			s->last = rd->s[dir][kind];
		}
	return d;
}

/* The increase from s->last to cur into the next interval of the ring. */
static int
advance(const struct tw_reqwin *w, struct tw_reqwin_series *s,
    const struct tw_reqlat_series *cur, uint64_t dt_ms)
{
	struct tw_reqwin_interval *iv = &s->ring[s->next];
	uint32_t n = 0, b;

	for (b = 0; b < TW_HIST_BUCKETS; b++)
		n += cur->bucket[b] != s->last.bucket[b];
	if (n > iv->cap) {
		uint16_t *nb = realloc(iv->bucket, n * sizeof(*nb));
		uint32_t *ni;

		if (nb == NULL)
			return TW_E_NOMEM;
		iv->bucket = nb;
		if ((ni = realloc(iv->inc, n * sizeof(*ni))) == NULL)
			return TW_E_NOMEM;
		iv->inc = ni;
		iv->cap = n;
	}
	iv->ms = dt_ms;
	iv->count = 0;
	iv->ncells = 0;
	for (b = 0; b < TW_HIST_BUCKETS; b++) {
		uint32_t inc = cur->bucket[b] - s->last.bucket[b];

		if (inc == 0)
			continue;
		iv->bucket[iv->ncells] = (uint16_t)b;
		iv->inc[iv->ncells++] = inc;
		iv->count += inc;
	}
	iv->sum_ns = cur->sum_ns - s->last.sum_ns;
	iv->max_ns = cur->max_ns;
	s->total += iv->count;
	s->last = *cur;
	s->next = (s->next + 1) % w->intervals;
	if (s->filled < w->intervals)
		s->filled++;
	return TW_OK;
}

static int
dev_advance(const struct tw_reqwin *w, struct tw_reqwin_dev *d,
    const struct tw_reqlat_device *rd, uint64_t dt_ms)
{
	unsigned dir, kind;
	int rc;

	for (dir = 0; dir < TW_REQLAT_NDIRS; dir++)
		for (kind = 0; kind < TW_REQLAT_NKINDS; kind++)
			if ((rc = advance(w, &d->s[dir][kind], &rd->s[dir][kind], dt_ms)) != TW_OK)
				return rc;
	return TW_OK;
}

static int
before(uint32_t amaj, uint32_t amin, uint32_t bmaj, uint32_t bmin)
{
	return amaj < bmaj || (amaj == bmaj && amin < bmin);
}

int
tw_reqwin_push(struct tw_reqwin *w, const struct tw_reqlat_reading *rd, uint64_t now_ms)
{
	struct tw_reqwin_dev **next;
	uint64_t dt = now_ms - w->last_ms;
	size_t i, j = 0, n = 0;
	int rc = TW_OK;

	if (w->last_ms != 0 && now_ms <= w->last_ms)
		return TW_E_INVAL;
	for (i = 1; i < rd->count; i++)
		if (!before(rd->devs[i - 1].major, rd->devs[i - 1].minor, rd->devs[i].major,
		    rd->devs[i].minor))
			return TW_E_INVAL;
	next = calloc(rd->count > 0 ? rd->count : 1, sizeof(*next));
	if (next == NULL)
		return TW_E_NOMEM;
	/* Both lists are sorted: a merge keeps the devices still read, starts
	 * the new ones and drops the rest. */
	for (i = 0; i < rd->count; i++) {
		const struct tw_reqlat_device *r = &rd->devs[i];
		struct tw_reqwin_dev *d = NULL;

		while (j < w->count && before(w->devs[j]->major, w->devs[j]->minor, r->major,
		    r->minor))
			dev_free(w->devs[j++]);
		if (j < w->count && w->devs[j]->major == r->major && w->devs[j]->minor == r->minor)
			d = w->devs[j++];
		if (d != NULL && (d->gen != r->gen || w->last_ms == 0)) {
			dev_free(d);
			d = NULL;
		}
		if (d != NULL) {
			if (rc == TW_OK)
				rc = dev_advance(w, d, r, dt);
		} else if ((d = dev_new(w, r)) == NULL) {
			rc = TW_E_NOMEM;
			continue;
		}
		next[n++] = d;
	}
	while (j < w->count)
		dev_free(w->devs[j++]);
	free(w->devs);
	w->devs = next;
	w->count = n;
	w->cap = rd->count;
	w->last_ms = now_ms;
	w->lost = rd->lost;
	w->unslotted = rd->unslotted;
	return rc;
}

/* A device's place in the order of before(). */
static uint64_t
dev_key(const void *devs, size_t i)
{
	const struct tw_reqwin_dev *d = ((struct tw_reqwin_dev *const *)devs)[i];

	return (uint64_t)d->major << 32 | d->minor;
}

static const struct tw_reqwin_dev *
find(const struct tw_reqwin *w, uint32_t major, uint32_t minor)
{
	size_t i = tw_sorted_find(w->devs, w->count, dev_key, (uint64_t)major << 32 | minor);

	return i < w->count ? w->devs[i] : NULL;
}

int
tw_reqwin_hist(const struct tw_reqwin *w, uint32_t major, uint32_t minor, unsigned dir,
    unsigned kind, struct tw_hist *h, uint64_t *cov_ms, uint64_t *total)
{
	const struct tw_reqwin_dev *d = find(w, major, minor);
	const struct tw_reqwin_series *s;
	uint64_t sum_ns = 0, max_ns = 0, lo, hi;
	unsigned i, c, b;
	int first = -1, last = -1;

	tw_hist_init(h);
	*cov_ms = 0;
	*total = 0;
	if (d == NULL || dir >= TW_REQLAT_NDIRS || kind >= TW_REQLAT_NKINDS)
		return 0;
	s = &d->s[dir][kind];
	*total = s->total;
	if (s->filled == 0)
		return 0;
	for (i = 0; i < s->filled; i++) {
		const struct tw_reqwin_interval *iv = &s->ring[i];

		*cov_ms += iv->ms;
		h->count += iv->count;
		sum_ns += iv->sum_ns;
		if (iv->max_ns > max_ns)
			max_ns = iv->max_ns;
		for (c = 0; c < iv->ncells; c++) {
			uint32_t *slot = &h->bucket[iv->bucket[c]];

			/* A bucket of the window holds at most 2^32 - 1. */
			*slot = *slot > UINT32_MAX - iv->inc[c] ? UINT32_MAX : *slot + iv->inc[c];
		}
	}
	for (b = 0; b < TW_HIST_BUCKETS; b++) {
		if (h->bucket[b] == 0)
			continue;
		if (first < 0)
			first = (int)b;
		last = (int)b;
	}
	if (first < 0) {
		h->count = 0;
		return 1;
	}
	h->sum_us = sum_ns / 1000;
	/* The smallest request is known only to its bucket; the largest
	 * exactly, unless its interval's was missed, when its bucket bounds it
	 * from below. */
	tw_hist_bucket_range((unsigned)first, &lo, &hi);
	h->min_us = lo;
	tw_hist_bucket_range((unsigned)last, &lo, &hi);
	h->max_us = max_ns / 1000;
	if (h->max_us < lo)
		h->max_us = lo;
	else if (h->max_us > hi && last != TW_HIST_BUCKETS - 1)
		h->max_us = hi;
	return 1;
}

size_t
tw_reqwin_memory(const struct tw_reqwin *w)
{
	size_t bytes = sizeof(*w) + w->cap * sizeof(*w->devs), i;
	unsigned dir, kind, k;

	for (i = 0; i < w->count; i++) {
		bytes += sizeof(*w->devs[i]);
		for (dir = 0; dir < TW_REQLAT_NDIRS; dir++)
			for (kind = 0; kind < TW_REQLAT_NKINDS; kind++) {
				const struct tw_reqwin_series *s = &w->devs[i]->s[dir][kind];

				bytes += w->intervals * sizeof(*s->ring);
				for (k = 0; k < s->filled; k++)
					bytes += s->ring[k].cap * (sizeof(uint16_t) + sizeof(uint32_t));
			}
	}
	return bytes;
}
