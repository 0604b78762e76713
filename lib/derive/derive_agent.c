/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "derive/derive_agent.h"

void
tw_derive_agent(const struct tw_agent_told *told, const struct tw_window *w,
    const struct tw_sample *s, struct tw_agent_record *f)
{
	tw_agent_record_init(f);
	f->version = told->version;
	f->system = told->system;
	f->interval_s = told->interval_s;
	f->window_s = told->window_s;
	/* Its age is the agent's to tell when asked (view/mibview.c). */
	f->sample_age_ms = 0;
	f->malformed_lines = (double)w->malformed_total;
	f->window_samples = (double)tw_window_samples(w);
	f->window_span_ms = (double)tw_window_span_ms(w);
	f->samples = (double)w->nsamples;
	/* What the last walk of the cgroup hierarchy found and left out:
	 * nothing to say where the host has no cgroup controllers. */
	if (s->have & TW_SRC_BIT(TW_SRC_CGROUPS)) {
		const struct tw_sample_cgroups *cs = &s->cgroups;

		f->cgroups_walked = (double)cs->walked;
		f->cgroups_unpublished = (double)cs->unpublished;
		f->cgroups_cut_long = (double)cs->cuts.too_long;
		f->cgroups_cut_deep = (double)cs->cuts.too_deep;
		f->cgroups_cut_many = (double)cs->cuts.too_many;
	}
}
