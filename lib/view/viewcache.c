/* SPDX-License-Identifier: ISC */
/* The buffer cache's scalars (twBufferCache): its record
 * (lib/derive/derive_cache.c) projected into the MIB's numbers. */
#include "config.h"

#include "view/build_priv.h"

#include "derive/derive_cache.h"
#include "view/recordrow.h"

void
tw_view_build_bufcache(struct tw_view_bufcache *bc, const struct tw_window *w,
    const struct tw_sample *s)
{
	struct tw_cache_record f;

	tw_derive_cache(w, s, &f);
	memset(bc, 0, sizeof(*bc));
	tw_recordrow_project(tw_vb_group(TW_OID_BUFCACHE), &f, bc);
}
