/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "window/counter.h"

enum tw_step
tw_counter_step(uint64_t prev, uint64_t cur, unsigned bits, uint64_t *delta)
{
	if (cur >= prev) {
		*delta = cur - prev;
		return TW_STEP_OK;
	}
	if (bits == 32 && prev <= UINT32_MAX) {
		uint64_t d = ((uint64_t)1 << 32) - prev + cur;

		if (cur <= UINT32_MAX && d < ((uint64_t)1 << 31)) {
			*delta = d;
			return TW_STEP_WRAPPED;
		}
	}
	*delta = 0;
	return TW_STEP_RESET;
}
