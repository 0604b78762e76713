/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "derive/derive_pool.h"

void
tw_derive_pool(const struct tw_window *w, const struct tw_pool *p, struct tw_pool_record *f)
{
	uint64_t recent;

	tw_pool_record_init(f);
	f->cls = p->cls;
	f->instance = p->instance;
	f->cpu = p->cpu;
	/* A pool's name is tunewatch's words and a CPU's number, or a node's
	 * number and a zone's name, which is the kernel's word only
	 * (collect/buddyinfo.c refuses one that would need escaping). */
	f->name = p->name;
	f->tunable = p->tunable != NULL ? p->tunable : "";
	if (p->event != NULL && p->event[0] != '\0')
		f->event = p->event;
	if (p->has & TW_POOL_HAS_SIZE)
		f->size_bytes = (double)p->size;
	if (p->has & TW_POOL_HAS_IN_USE)
		f->in_use = (double)p->in_use;
	if (p->has & TW_POOL_HAS_FREE)
		f->free = (double)p->free;
	if (p->has & TW_POOL_HAS_LIMIT)
		f->limit = (double)p->limit;
	if (p->has & TW_POOL_HAS_FAILURES) {
		f->failures = tw_window_pool_total(w, tw_pool_key(p));
		if (tw_window_pool_failures(w, tw_pool_key(p), &recent))
			f->recent_failures = (double)recent;
	}
	if (p->has & TW_POOL_HAS_PRESSURE) {
		f->pressure_ms = tw_window_pool_pressure_total(w, tw_pool_key(p));
		if (tw_window_pool_pressure(w, tw_pool_key(p), &recent))
			f->recent_pressure_ms = (double)recent;
	}
}
