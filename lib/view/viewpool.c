/* SPDX-License-Identifier: ISC */
/* twDblockTable's rows: each pool of the newest sample, its record
 * (lib/derive/derive_pool.c) projected into the MIB's numbers. */
#include "config.h"

#include "view/build_priv.h"

#include "derive/derive_pool.h"
#include "util/error.h"
#include "view/recordrow.h"

int
tw_view_build_pools(struct tw_view *v, const struct tw_window *w, const struct tw_pool_set *pools)
{
	const struct tw_column_group *g = tw_vb_group(TW_OID_DBLOCK_TABLE);
	size_t i;
	int rc;

	if ((rc = tw_view_reserve_pools(v, pools->count)) != TW_OK)
		return rc;
	for (i = 0; i < pools->count; i++) {
		struct tw_view_pool *vp = &v->pools[i];
		struct tw_pool_record f;

		tw_derive_pool(w, &pools->pools[i], &f);
		memset(vp, 0, sizeof(*vp));
		vp->cls = f.cls;
		vp->instance = f.instance;
		tw_recordrow_project(g, &f, vp);
	}
	v->npools = pools->count;
	return TW_OK;
}
