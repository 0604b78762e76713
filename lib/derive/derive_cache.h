/* SPDX-License-Identifier: ISC */
/* The buffer cache's record (figures/cache_record.h): the newest sample's memory
 * figures, and the window's rates of the reads, refaults and reclaim
 * behind them. */
#ifndef TW_DERIVE_CACHE_H
#define TW_DERIVE_CACHE_H

#include "figures/cache_record.h"
#include "sample/sample.h"
#include "window/window.h"

void tw_derive_cache(const struct tw_window *w, const struct tw_sample *s,
    struct tw_cache_record *f);

#endif
