/* SPDX-License-Identifier: ISC */
/* The one place a view is built: every group from its source, in the
 * order their dependencies ask (the sockets before the names are counted,
 * the disks before their request latency, the figures before what is
 * judged from them). */
#include "config.h"

#include "view/build.h"

#include "util/error.h"
#include "view/build_priv.h"
#include "view/fig_disk.h"
#include "view/sockview.h"

static void
build_agent(struct tw_view_agent *a, const struct tw_view_settings *set,
    const struct tw_window *w, const struct tw_sample *s)
{
	uint64_t span = tw_window_span_ms(w);

	memset(a, 0, sizeof(*a));
	tw_str_copy_cut(a->version, sizeof(a->version), set->version);
	tw_escape_copy(a->system, sizeof(a->system), set->system);
	a->newest_ms = s->mono_ms;
	a->has = TW_VIEW_BIT(TW_OID_AGENT_VERSION) | TW_VIEW_BIT(TW_OID_AGENT_SYSTEM) |
	    TW_VIEW_BIT(TW_OID_AGENT_SAMPLE_AGE);
	tw_vb_put(&a->has, a->col, TW_OID_AGENT_INTERVAL, set->interval_s);
	tw_vb_put(&a->has, a->col, TW_OID_AGENT_WINDOW, set->window_s);
	tw_vb_put(&a->has, a->col, TW_OID_AGENT_MALFORMED, w->malformed_total);
	tw_vb_put(&a->has, a->col, TW_OID_AGENT_WINDOW_SAMPLES, tw_window_samples(w));
	tw_vb_put_count(TW_OID_AGENT, &a->has, a->col, TW_OID_AGENT_WINDOW_SPAN, span);
	tw_vb_put(&a->has, a->col, TW_OID_AGENT_SAMPLES, w->nsamples);
	/* What the last walk of the cgroup hierarchy found and left out:
	 * nothing to say where the host has no cgroup controllers. */
	if (s->have & TW_SRC_BIT(TW_SRC_CGROUPS)) {
		const struct tw_cgroup_set *cs = &s->cgroups;

		tw_vb_put_count(TW_OID_AGENT, &a->has, a->col, TW_OID_AGENT_CGROUPS_WALKED,
		    cs->walked);
		tw_vb_put_count(TW_OID_AGENT, &a->has, a->col, TW_OID_AGENT_CGROUPS_UNPUBLISHED,
		    cs->unpublished);
		tw_vb_put_count(TW_OID_AGENT, &a->has, a->col, TW_OID_AGENT_CGROUPS_CUT_LONG,
		    cs->cuts.too_long);
		tw_vb_put_count(TW_OID_AGENT, &a->has, a->col, TW_OID_AGENT_CGROUPS_CUT_DEEP,
		    cs->cuts.too_deep);
		tw_vb_put_count(TW_OID_AGENT, &a->has, a->col, TW_OID_AGENT_CGROUPS_CUT_MANY,
		    cs->cuts.too_many);
	}
}

static void
build_tunables(struct tw_view *v, const struct tw_sample *s)
{
	size_t i, n = 0;

	for (i = 0; i < TW_SYSCTL_COUNT; i++) {
		const struct tw_sysctl_value *sv = &s->sysctl.v[i];

		if (!(s->have & TW_SRC_BIT(TW_SRC_SYSCTL)) || sv->rc != TW_OK)
			continue;
		v->tunables[n].index = (uint32_t)i + 1;
		tw_str_copy_cut(v->tunables[n].name, sizeof(v->tunables[n].name),
		    tw_sysctl_name((enum tw_sysctl_id)i));
		tw_escape_copy(v->tunables[n].value, sizeof(v->tunables[n].value), sv->text);
		n++;
	}
	v->ntunables = n;
}

/* twAgentUnprintableNames: the names of the view that were shown with a
 * byte escaped other than a backslash (systemd's own "\x2d" is in many
 * an ordinary unit's name). The sockets were built before the rest. */
static uint64_t
unprintable_names(const struct tw_view *v)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < v->ndisks; i++)
		n += (uint64_t)(tw_escape_had_unprintable(v->disks[i].name) +
		    tw_escape_had_unprintable(v->disks[i].alias) +
		    tw_escape_had_unprintable(v->disks[i].stable_id));
	for (i = 0; i < v->ntunables; i++)
		n += (uint64_t)tw_escape_had_unprintable(v->tunables[i].value);
	for (i = 0; i < v->nsocks; i++)
		n += (uint64_t)tw_escape_had_unprintable(v->socks[i].command);
	for (i = 0; i < v->ncgroups; i++)
		n += (uint64_t)(tw_escape_had_unprintable(v->cgroups[i].path) +
		    tw_escape_had_unprintable(v->cgroups[i].unit));
	return n;
}

/* Everything measured: the scalars, the rows of the sample and their
 * figures over the window, and the request latency. */
static int
build_figures(struct tw_view *v, const struct tw_view_sources *src)
{
	const struct tw_window *w = src->window;
	const struct tw_sample *s = src->sample;
	int rc;

	/* Room for every row first, so that running out of memory leaves the
	 * figures as they were. */
	if ((rc = tw_view_reserve_disks(v, s->disks.count)) != TW_OK ||
	    (rc = tw_view_reserve_pools(v, src->pools->count)) != TW_OK ||
	    (rc = tw_view_reserve_tunables(v, TW_SYSCTL_COUNT)) != TW_OK)
		return rc;
	if (src->socks != NULL && (rc = tw_view_build_socks(v, src->socks, s)) != TW_OK)
		return rc;
	build_agent(&v->agent, src->settings, w, s);
	tw_view_build_bufcache(&v->bc, w, s);
	if ((rc = tw_view_build_disks(v, w, s)) != TW_OK ||
	    (rc = tw_view_build_pools(v, w, src->pools)) != TW_OK)
		return rc;
	build_tunables(v, s);
	if ((rc = tw_view_build_cgroups(v, w, s)) != TW_OK)
		return rc;
	tw_vb_put(&v->agent.has, v->agent.col, TW_OID_AGENT_UNPRINTABLE_NAMES,
	    unprintable_names(v));
	if (src->reqlat_state != NULL)
		return tw_view_build_reqlat(v, src->reqwin, src->reqlat_state,
		    src->reqlat_reason != NULL ? src->reqlat_reason : "", src->reqlat_timing);
	return TW_OK;
}

int
tw_view_build(struct tw_view *v, const struct tw_view_sources *src)
{
	int rc;

	if (src->window != NULL && (rc = build_figures(v, src)) != TW_OK)
		return rc;
	if (src->assess != NULL && (rc = src->assess(src->assess_ctx, v)) != TW_OK)
		return rc;
	if (src->findings != NULL &&
	    (rc = tw_view_build_findings(v, src->findings, src->notify)) != TW_OK)
		return rc;
	tw_view_build_changes(v, src->changes, src->nchanges != NULL ? *src->nchanges : 0);
	if (src->probing)
		return tw_view_build_probes(v, src->probes, src->nprobes);
	return TW_OK;
}
