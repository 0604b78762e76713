/* SPDX-License-Identifier: ISC */
/* The one clock tunewatch measures intervals with: CLOCK_MONOTONIC, so a
 * change of the wall clock never makes a rate negative or huge. */
#ifndef TW_CLOCK_H
#define TW_CLOCK_H

#include <stdint.h>

/* The current CLOCK_MONOTONIC time in milliseconds. */
uint64_t tw_clock_ms(void);

#endif
