/* SPDX-License-Identifier: ISC */
/* The window's reads by processes (window/procreads.c): the logical and
 * physical bytes read, from each process's io counters between samples.
 * Private to lib/window. */
#ifndef TW_WINDOW_PROCREADS_H
#define TW_WINDOW_PROCREADS_H

#include <stdint.h>

#include "window/window.h"

/* Update the reads' track with sample s (number seq, dt ms after the one
 * before). */
int tw_window_push_reads(struct tw_window *w, const struct tw_sample *s, uint64_t seq,
    uint64_t dt);

#endif
