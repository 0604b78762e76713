/* SPDX-License-Identifier: ISC */
/* The one place a view is built: every group from its source, in the
 * order their dependencies ask (the sockets before the names are counted,
 * the disks before their request latency, the figures before what is
 * judged from them). */
#include "config.h"

#include "view/build.h"

#include "derive/derive_agent.h"
#include "reqlat/reqwin.h"
#include "util/error.h"
#include "view/build_priv.h"
#include "view/recordrow.h"
#include "view/sockview.h"

/* The agent's scalars, last: they count the names the other rows show. */
static void
build_agent(struct tw_view *v, const struct tw_view_sources *src, uint64_t unprintable)
{
	const struct tw_view_settings *set = src->settings;
	const struct tw_agent_told told = { set->version, set->system, set->interval_s,
	    set->window_s };
	struct tw_agent_record f;

	tw_derive_agent(&told, src->window, src->sample, &f);
	f.unprintable_names = (double)unprintable;
	if (src->reqlat_state != NULL) {
		f.reqlat_state = src->reqlat_state;
		f.reqlat_reason = src->reqlat_reason != NULL ? src->reqlat_reason : "";
		if (src->reqlat_timing)
			f.reqlat_lost = (double)src->reqwin->lost;
	}
	memset(&v->agent, 0, sizeof(v->agent));
	v->agent.newest_ms = src->sample->mono_ms;
	tw_recordrow_project(tw_vb_group(TW_OID_AGENT), &f, &v->agent);
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

/* The tcp listen queue's row gets the one owner of the listeners seen full
 * (sockets/listenwatch.h). */
static void
listen_owner(struct tw_view *v, int64_t uid)
{
	size_t i;

	for (i = 0; i < v->npools; i++)
		if (v->pools[i].cls == TW_DBLOCK_TCP_LISTEN) {
			v->pools[i].has |= TW_VIEW_BIT(TW_OID_DBLOCK_OWNER_UID);
			v->pools[i].col[TW_OID_DBLOCK_OWNER_UID] = (uint64_t)uid;
		}
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
	tw_view_build_bufcache(&v->bc, w, s);
	if ((rc = tw_view_build_disks(v, w, s)) != TW_OK ||
	    (rc = tw_view_build_pools(v, w, src->pools)) != TW_OK)
		return rc;
	if (src->listen_known)
		listen_owner(v, src->listen_owner);
	build_tunables(v, s);
	if ((rc = tw_view_build_cgroups(v, w, s)) != TW_OK)
		return rc;
	if (src->reqlat_state != NULL &&
	    (rc = tw_view_build_reqlat(v, src->reqwin, src->reqlat_timing)) != TW_OK)
		return rc;
	build_agent(v, src, unprintable_names(v));
	return TW_OK;
}

int
tw_view_build(struct tw_view *v, const struct tw_view_sources *src)
{
	int rc;

	if (src->window != NULL && (rc = build_figures(v, src)) != TW_OK)
		return rc;
	if (src->record != NULL)
		src->record(src->assess_ctx, v);
	tw_view_build_changes(v, src->changes, src->nchanges != NULL ? *src->nchanges : 0);
	if (src->assess != NULL && (rc = src->assess(src->assess_ctx, v)) != TW_OK)
		return rc;
	if (src->findings != NULL &&
	    (rc = tw_view_build_findings(v, src->findings, src->notify)) != TW_OK)
		return rc;
	if (src->probing)
		return tw_view_build_probes(v, src->probes, src->nprobes);
	return TW_OK;
}
