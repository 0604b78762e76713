/* SPDX-License-Identifier: ISC */
/* The rows of a table met so far in a walk, found by their index: a
 * small open-addressing map from a 64-bit key to a row number. A walk
 * comes column by column, so each row is met once a column. */
#ifndef TW_ROWMAP_H
#define TW_ROWMAP_H

#include <stddef.h>
#include <stdint.h>

struct tw_rowmap {
	uint64_t *keys;
	size_t *rows;
	size_t cap;
	size_t used;
};

/* The row of key; when key is new, it becomes row number next and *fresh
 * is set. TW_OK or TW_E_NOMEM. */
int tw_rowmap_find(struct tw_rowmap *m, uint64_t key, size_t next, size_t *row, int *fresh);

void tw_rowmap_free(struct tw_rowmap *m);

#endif
