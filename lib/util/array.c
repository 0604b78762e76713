/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "util/array.h"

#include <stdint.h>
#include <stdlib.h>

#include "util/error.h"

int
tw_array_grow(void *data, size_t *cap, size_t need, size_t elem, void **out)
{
	size_t n = *cap;
	void *p;

	*out = data;
	if (need <= *cap && data != NULL)
		return TW_OK;
	if (n < 8)
		n = 8;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return TW_E_NOMEM;
		n *= 2;
	}
	if (elem == 0 || n > SIZE_MAX / elem)
		return TW_E_NOMEM;
	p = realloc(data, n * elem);
	if (p == NULL)
		return TW_E_NOMEM;
	*out = p;
	*cap = n;
	return TW_OK;
}
