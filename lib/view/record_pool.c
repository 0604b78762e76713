/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/record_pool.h"

#include "sample/poolclass.h"
#include "view/recordrow.h"

void
tw_view_pool_record(const struct tw_view_pool *p, struct tw_pool_record *f)
{
	const struct tw_pool_class *cl = tw_pool_class_find(p->cls);

	tw_recordrow_decode(tw_column_group(TW_OID_DBLOCK_TABLE), p, f);
	f->cls = p->cls;
	f->instance = p->instance;
	/* The MIB has no CPU column: a per-CPU class numbers its pools by
	 * their CPU, so the instance is the CPU, on every path alike. */
	f->cpu = cl != NULL && cl->per == TW_POOL_PER_CPU ? (int32_t)p->instance : -1;
}

void
tw_view_pool_class_record(const struct tw_view *v, uint32_t cls, struct tw_pool_class_record *out)
{
	double failures = 0, pressure = 0;
	int have_failures = 0, have_pressure = 0;
	size_t i;

	out->count = 0;
	out->found = 0;
	for (i = 0; i < v->npools; i++) {
		struct tw_pool_record f;

		if (v->pools[i].cls != cls)
			continue;
		out->count++;
		tw_view_pool_record(&v->pools[i], &f);
		if (tw_fig_has(f.recent_pressure_ms)) {
			pressure += f.recent_pressure_ms;
			have_pressure = 1;
		}
		if (!tw_fig_has(f.recent_failures))
			continue;
		failures += f.recent_failures;
		have_failures = 1;
		if (!out->found || f.recent_failures > out->busiest.recent_failures) {
			out->busiest = f;
			out->found = 1;
		}
	}
	out->recent_failures = have_failures ? failures : TW_FIG_NONE;
	out->recent_pressure_ms = have_pressure ? pressure : TW_FIG_NONE;
}
