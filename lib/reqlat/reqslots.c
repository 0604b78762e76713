/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "reqlat/reqslots.h"

#include <string.h>

#include "util/error.h"
#include "util/sorted.h"

enum { SLOT_FREE, SLOT_USED, SLOT_COOLING };

int
tw_reqslots_init(struct tw_reqslots *s, unsigned nslots)
{
	memset(s, 0, sizeof(*s));
	if (nslots < 1 || nslots > TW_REQLAT_MAX_DEVICES)
		return TW_E_INVAL;
	s->nslots = nslots;
	return TW_OK;
}

/* The table entry naming dev, or -1. */
static int
entry_of(const struct tw_reqslots *s, uint32_t dev)
{
	uint32_t h = TW_REQLAT_DEV_HASH(dev);
	unsigned i;

	for (i = 0; i < TW_REQLAT_DEV_PROBE; i++) {
		unsigned e = (h + i) & (TW_REQLAT_DEV_ENTRIES - 1);

		if (s->table[e].dev == dev)
			return (int)e;
	}
	return -1;
}

int
tw_reqslots_find(const struct tw_reqslots *s, uint32_t major, uint32_t minor, uint64_t *gen)
{
	int e;

	if (major >= (1u << (32 - TW_REQLAT_MINOR_BITS)) || minor >= (1u << TW_REQLAT_MINOR_BITS))
		return -1;
	e = entry_of(s, TW_REQLAT_DEV(major, minor));
	if (e < 0)
		return -1;
	if (gen != NULL)
		*gen = s->gen[s->table[e].slot];
	return (int)s->table[e].slot;
}

static int
before(const struct tw_reqlat_want *a, const struct tw_reqlat_want *b)
{
	return a->major < b->major || (a->major == b->major && a->minor < b->minor);
}

/* A want's place in the order of before(). */
static uint64_t
want_key(const void *want, size_t i)
{
	const struct tw_reqlat_want *w = (const struct tw_reqlat_want *)want + i;

	return (uint64_t)w->major << 32 | w->minor;
}

static int
wanted(const struct tw_reqlat_want *want, size_t n, uint32_t dev)
{
	uint64_t key = (uint64_t)(dev >> TW_REQLAT_MINOR_BITS) << 32 |
	    (dev & ((1u << TW_REQLAT_MINOR_BITS) - 1));

	return tw_sorted_find(want, n, want_key, key) < n;
}

int
tw_reqslots_sync(struct tw_reqslots *s, const struct tw_reqlat_want *want, size_t n,
    struct tw_reqslot_change *changes, size_t *nchanges, size_t *unslotted)
{
	size_t i, nc = 0, left = 0;
	unsigned slot, e;

	*nchanges = 0;
	*unslotted = 0;
	for (i = 0; i < n; i++)
		if (i > 0 && !before(&want[i - 1], &want[i]))
			return TW_E_INVAL;
	for (slot = 0; slot < s->nslots; slot++)
		if (s->use[slot] == SLOT_COOLING)
			s->use[slot] = SLOT_FREE;
	for (slot = 0; slot < s->nslots; slot++) {
		if (s->use[slot] != SLOT_USED)
			continue;
		e = s->entry[slot];
		if (wanted(want, n, s->table[e].dev))
			continue;
		changes[nc++] = (struct tw_reqslot_change){ TW_REQSLOT_TAKE, e, slot,
		    s->table[e].dev };
		s->table[e].dev = 0;
		s->table[e].slot = 0;
		s->use[slot] = SLOT_COOLING;
	}
	for (i = 0; i < n; i++) {
		uint32_t dev, h;
		unsigned k;
		int free_entry = -1;

		if (want[i].major >= (1u << (32 - TW_REQLAT_MINOR_BITS)) ||
		    want[i].minor >= (1u << TW_REQLAT_MINOR_BITS) ||
		    (want[i].major == 0 && want[i].minor == 0)) {
			left++;
			continue;
		}
		dev = TW_REQLAT_DEV(want[i].major, want[i].minor);
		if (entry_of(s, dev) >= 0)
			continue;
		h = TW_REQLAT_DEV_HASH(dev);
		for (k = 0; k < TW_REQLAT_DEV_PROBE && free_entry < 0; k++)
			if (s->table[(h + k) & (TW_REQLAT_DEV_ENTRIES - 1)].dev == 0)
				free_entry = (int)((h + k) & (TW_REQLAT_DEV_ENTRIES - 1));
		for (slot = 0; slot < s->nslots && s->use[slot] != SLOT_FREE; slot++)
			;
		if (free_entry < 0 || slot == s->nslots) {
			left++;
			continue;
		}
		s->use[slot] = SLOT_USED;
		s->entry[slot] = (unsigned)free_entry;
		s->gen[slot] = ++s->next_gen;
		s->table[free_entry].dev = dev;
		s->table[free_entry].slot = slot;
		changes[nc++] = (struct tw_reqslot_change){ TW_REQSLOT_GIVE, (unsigned)free_entry,
		    slot, dev };
	}
	*nchanges = nc;
	*unslotted = left;
	return TW_OK;
}
