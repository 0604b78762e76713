/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/record_cache.h"

#include "view/recordrow.h"

void
tw_view_cache_record(const struct tw_view_bufcache *bc, struct tw_cache_record *f)
{
	tw_recordrow_decode(tw_column_group(TW_OID_BUFCACHE), bc, f);
}
