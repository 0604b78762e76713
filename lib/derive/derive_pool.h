/* SPDX-License-Identifier: ISC */
/* A message-buffer pool's record (figures/pool_record.h): the newest sample's
 * pool, with its failures and pressure over the window. */
#ifndef TW_DERIVE_POOL_H
#define TW_DERIVE_POOL_H

#include "figures/pool_record.h"
#include "sample/pools.h"
#include "window/window.h"

/* f's strings point into p. */
void tw_derive_pool(const struct tw_window *w, const struct tw_pool *p, struct tw_pool_record *f);

#endif
