/* SPDX-License-Identifier: ISC */
/* The increase of a kernel counter between two readings.
 *
 * All counter arithmetic in tunewatch goes through here, as in sysstat's
 * rd_stats.c: readings are kept raw, and only this function decides what
 * a decrease means. */
#ifndef TW_COUNTER_H
#define TW_COUNTER_H

#include <stdint.h>

enum tw_step {
	TW_STEP_OK,		/* cur >= prev: delta = cur - prev */
	TW_STEP_WRAPPED,	/* a 32-bit counter passed 2^32 */
	TW_STEP_RESET,		/* the counter restarted: delta unknown, 0 */
};

/* bits is 32 or 64: the width the kernel keeps the counter in. A 32-bit
 * counter that decreases is taken as one wrap when the increase it implies
 * is below 2^31 (a wrap is a small step across the top, not a leap back to
 * near zero); any other decrease is a reset. */
enum tw_step tw_counter_step(uint64_t prev, uint64_t cur, unsigned bits, uint64_t *delta);

#endif
