/* SPDX-License-Identifier: ISC */
/* Arrays that grow: every set in lib/ keeps its rows in one allocation that
 * doubles when full, so that adding n rows costs O(n) in all. */
#ifndef TW_ARRAY_H
#define TW_ARRAY_H

#include <stddef.h>

/* Make room for need elements of size elem in data, whose capacity is
 * *cap. On TW_OK, *out is the array to use from now on (data itself when
 * it was big enough) and *cap its capacity; on TW_E_NOMEM, data and *cap
 * are as they were. */
int tw_array_grow(void *data, size_t *cap, size_t need, size_t elem, void **out);

#endif
