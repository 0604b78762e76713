/* SPDX-License-Identifier: ISC */
/* twDblockTable's rows: each pool of the newest sample, with its
 * failures and pressure over the window. */
#include "config.h"

#include "view/build_priv.h"

#include "util/error.h"

static void
build_pool(struct tw_view_pool *vp, const struct tw_window *w, const struct tw_pool *p)
{
	uint64_t recent;

	memset(vp, 0, sizeof(*vp));
	vp->cls = p->cls;
	vp->instance = p->instance;
	/* A pool's name is tunewatch's words and a CPU's number, or a node's
	 * number and a zone's name, which is the kernel's word only
	 * (collect/buddyinfo.c refuses one that would need escaping). */
	tw_str_copy_cut(vp->name, sizeof(vp->name), p->name);
	tw_str_copy_cut(vp->tunable, sizeof(vp->tunable), p->tunable);
	vp->has = TW_VIEW_BIT(TW_OID_DBLOCK_NAME) | TW_VIEW_BIT(TW_OID_DBLOCK_TUNABLE);
	if (p->has & TW_POOL_HAS_SIZE)
		tw_vb_put_count(TW_OID_DBLOCK_TABLE, &vp->has, vp->col, TW_OID_DBLOCK_SIZE,
		    p->size);
	if (p->has & TW_POOL_HAS_IN_USE)
		tw_vb_put_count(TW_OID_DBLOCK_TABLE, &vp->has, vp->col, TW_OID_DBLOCK_IN_USE,
		    p->in_use);
	if (p->has & TW_POOL_HAS_FREE)
		tw_vb_put_count(TW_OID_DBLOCK_TABLE, &vp->has, vp->col, TW_OID_DBLOCK_FREE,
		    p->free);
	if (p->has & TW_POOL_HAS_LIMIT)
		tw_vb_put_count(TW_OID_DBLOCK_TABLE, &vp->has, vp->col, TW_OID_DBLOCK_LIMIT,
		    p->limit);
	if (p->has & TW_POOL_HAS_FAILURES) {
		tw_vb_put(&vp->has, vp->col, TW_OID_DBLOCK_FAILURES,
		    tw_window_pool_total(w, tw_pool_key(p)));
		if (tw_window_pool_failures(w, tw_pool_key(p), &recent))
			tw_vb_put_count(TW_OID_DBLOCK_TABLE, &vp->has, vp->col,
			    TW_OID_DBLOCK_RECENT_FAILURES, recent);
	}
	if (p->has & TW_POOL_HAS_PRESSURE) {
		tw_vb_put(&vp->has, vp->col, TW_OID_DBLOCK_PRESSURE_TIME,
		    tw_window_pool_pressure_total(w, tw_pool_key(p)));
		if (tw_window_pool_pressure(w, tw_pool_key(p), &recent))
			tw_vb_put_count(TW_OID_DBLOCK_TABLE, &vp->has, vp->col,
			    TW_OID_DBLOCK_RECENT_PRESSURE_TIME, recent);
	}
	if (p->event != NULL && p->event[0] != '\0') {
		tw_str_copy_cut(vp->event, sizeof(vp->event), p->event);
		vp->has |= TW_VIEW_BIT(TW_OID_DBLOCK_FAILURE_EVENT);
	}
}

int
tw_view_build_pools(struct tw_view *v, const struct tw_window *w, const struct tw_pool_set *pools)
{
	size_t i;
	int rc;

	if ((rc = tw_view_reserve_pools(v, pools->count)) != TW_OK)
		return rc;
	for (i = 0; i < pools->count; i++)
		build_pool(&v->pools[i], w, &pools->pools[i]);
	v->npools = pools->count;
	return TW_OK;
}
