/* SPDX-License-Identifier: ISC */
/* The buffer cache's record (figures/cache_record.h) from the view's
 * twBufferCache scalars: the one place they are decoded, so that the
 * agent's judges and the checks, over SNMP or --local, read the same
 * figures in the same units. */
#ifndef TW_VIEW_RECORD_CACHE_H
#define TW_VIEW_RECORD_CACHE_H

#include "figures/cache_record.h"

struct tw_view_bufcache;

/* Fill f from bc; a scalar bc lacks is absent in f. f->method points
 * into bc. */
void tw_view_cache_record(const struct tw_view_bufcache *bc, struct tw_cache_record *f);

#endif
