/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "rowmap.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

/* Fibonacci hashing: the high bits of key times 2^64 / phi. */
#define HASH(key, cap) ((size_t)(((key) * UINT64_C(0x9E3779B97F4A7C15)) >> 20) & ((cap) - 1))

static int
grow(struct tw_rowmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	uint64_t *keys = malloc(cap * sizeof(*keys));
	size_t *rows = malloc(cap * sizeof(*rows));

	if (keys == NULL || rows == NULL) {
		free(keys);
		free(rows);
		return TW_E_NOMEM;
	}
	for (i = 0; i < cap; i++)
		rows[i] = SIZE_MAX;
	for (i = 0; i < m->cap; i++) {
		size_t h;

		if (m->rows[i] == SIZE_MAX)
			continue;
		h = HASH(m->keys[i], cap);
		while (rows[h] != SIZE_MAX)
			h = (h + 1) & (cap - 1);
		keys[h] = m->keys[i];
		rows[h] = m->rows[i];
	}
	free(m->keys);
	free(m->rows);
	m->keys = keys;
	m->rows = rows;
	m->cap = cap;
	return TW_OK;
}

int
tw_rowmap_find(struct tw_rowmap *m, uint64_t key, size_t next, size_t *row, int *fresh)
{
	size_t h;

	if ((m->used + 1) * 2 > m->cap && grow(m) != TW_OK)
		return TW_E_NOMEM;
	h = HASH(key, m->cap);
	while (m->rows[h] != SIZE_MAX) {
		if (m->keys[h] == key) {
			*row = m->rows[h];
			*fresh = 0;
			return TW_OK;
		}
		h = (h + 1) & (m->cap - 1);
	}
	m->keys[h] = key;
	m->rows[h] = next;
	m->used++;
	*row = next;
	*fresh = 1;
	return TW_OK;
}

void
tw_rowmap_free(struct tw_rowmap *m)
{
	free(m->keys);
	free(m->rows);
	memset(m, 0, sizeof(*m));
}

