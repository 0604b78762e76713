/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "monitor/monitor_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "util/array.h"
#include "util/clock.h"
#include "util/error.h"
#include "view/record_agent.h"

static void release(struct tw_monitor *m);

struct tw_monitor *
tw_monitor_new(void)
{
	struct tw_monitor *m = calloc(1, sizeof(*m));

	if (m != NULL)
		tw_view_init(&m->view);
	return m;
}

/* The socket watcher follows the sampler's proc root over the same
 * window; its rows go into the view after the rest. */
static int
socks_open(struct tw_monitor *m, const struct tw_sampler_config *cfg, unsigned intervals)
{
	struct tw_sockwatch_config sc;

	memset(&sc, 0, sizeof(sc));
	sc.intervals = intervals;
	sc.owner_procs = cfg->sock_owner_procs ? cfg->sock_owner_procs :
	    TW_SOCK_OWNER_PROCS_DEFAULT;
	sc.owner_budget_us = cfg->sock_owner_budget_ms * 1000u;
	sc.diag = !cfg->sock_no_diag;
	sc.dump_budget_us = TW_SOCK_DUMP_BUDGET_US_DEFAULT;
	/* The kernel's own sockets only where /proc is the kernel's: a
	 * fixture root's files are what a test reads. */
	sc.netlink = sc.diag && (cfg->proc_root == NULL || strcmp(cfg->proc_root, "/proc") == 0);
	if (tw_listenwatch_init(&m->listen, intervals, sc.netlink) != TW_OK)
		return TW_E_NOMEM;
	return tw_sockwatch_init(&m->socks, &sc);
}

/* UDP memory as the last sample read it: in use, and udp_mem's first
 * value, where the kernel starts refusing it. */
static void
udp_memory(const struct tw_monitor *m, struct tw_udp_memory *mem)
{
	const struct tw_sysctl_value *v = &m->sample.sysctl.v[TW_SYSCTL_NET_IPV4_UDP_MEM];
	int64_t limit;

	memset(mem, 0, sizeof(*mem));
	if ((m->sample.sock.present >> TW_SOCK_UDP_MEM) & 1) {
		mem->have_in_use = 1;
		mem->in_use = m->sample.sock.v[TW_SOCK_UDP_MEM];
	}
	if (v->rc == TW_OK && tw_sysctl_field(v->text, 0, &limit) == TW_OK && limit > 0) {
		mem->have_limit = 1;
		mem->limit = (uint64_t)limit;
	}
}

int
tw_monitor_look(struct tw_monitor *m)
{
	struct tw_udp_memory mem;

	udp_memory(m, &mem);
	return tw_sockwatch_look(&m->socks, tw_sampler_proc_fd(m->sampler), &mem);
}

int
tw_monitor_looking(const struct tw_monitor *m)
{
	return tw_sockwatch_looking(&m->socks);
}

/* The sockets are followed before the pools are built: what they dropped
 * uncounted is the UDP memory pool's (sample/poolclass.c). */
static int
socks_step(struct tw_monitor *m)
{
	const struct tw_netstat_set *net = (m->sample.have & TW_SRC_BIT(TW_SRC_NETSTAT)) ?
	    &m->sample.net : NULL;
	struct tw_udp_memory mem;
	int rc;

	udp_memory(m, &mem);
	tw_listenwatch_step(&m->listen, net);
	rc = tw_sockwatch_step(&m->socks, tw_sampler_proc_fd(m->sampler), net, &mem,
	    &m->sample.parse);

	if (rc != TW_OK)
		return rc;
	m->sample.have_udp_uncounted = tw_sockwatch_uncounted(&m->socks,
	    &m->sample.udp_uncounted);
	return TW_OK;
}

int
tw_monitor_open(struct tw_monitor *m, const struct tw_sampler_config *cfg,
    unsigned interval_s, unsigned window_s, const char *version, char *err, size_t errlen)
{
	struct utsname u;
	unsigned intervals;
	int rc;

	if (interval_s == 0 || window_s < interval_s) {
		snprintf(err, errlen, "the window (%u s) must be at least one interval (%u s)",
		    window_s, interval_s);
		return TW_E_INVAL;
	}
	intervals = window_s / interval_s;
	rc = tw_sampler_open(&m->sampler, cfg, err, errlen);
	if (rc != TW_OK)
		return rc;
	tw_sample_init(&m->sample);
	tw_pool_set_init(&m->pools);
	tw_view_init(&m->view);
	rc = tw_window_init(&m->window, intervals);
	if (rc == TW_OK)
		rc = socks_open(m, cfg, intervals);
	if (rc != TW_OK) {
		snprintf(err, errlen, "cannot set up a window of %u intervals: %s", intervals,
		    tw_strerror(rc));
		release(m);
		return rc;
	}
	if (uname(&u) == 0)
		snprintf(m->system, sizeof(m->system), "%s %s", u.sysname, u.release);
	else
		snprintf(m->system, sizeof(m->system), "unknown");
	m->settings.version = version;
	m->settings.system = m->system;
	m->settings.interval_s = interval_s;
	m->settings.window_s = window_s;
	return TW_OK;
}

/* Everything m holds, back to a monitor as tw_monitor_new gave it. */
static void
release(struct tw_monitor *m)
{
	tw_sampler_close(m->sampler);
	m->sampler = NULL;
	tw_sample_free(&m->sample);
	tw_pool_set_free(&m->pools);
	tw_window_free(&m->window);
	tw_sockwatch_free(&m->socks);
	tw_listenwatch_free(&m->listen);
	tw_view_free(&m->view);
	tw_reqlat_close(m->reqlat);
	m->reqlat = NULL;
	tw_reqwin_free(&m->reqwin);
	tw_reqlat_reading_free(&m->reading);
	free(m->want);
	m->want = NULL;
	if (m->findings)
		tw_tracker_free(&m->tracker);
	if (m->changes)
		tw_change_watch_free(&m->watch);
	memset(m, 0, sizeof(*m));
	tw_view_init(&m->view);
}

void
tw_monitor_close(struct tw_monitor *m)
{
	if (m == NULL)
		return;
	release(m);
	free(m);
}

int
tw_monitor_findings(struct tw_monitor *m, const struct tw_judge_config *c,
    unsigned raise_after, unsigned clear_after)
{
	int rc;

	if (m->findings)
		return TW_E_INVAL;
	if ((rc = tw_tracker_init(&m->tracker, raise_after, clear_after)) != TW_OK)
		return rc;
	m->judge = *c;
	m->findings = 1;
	tw_tracker_findings(&m->tracker, &m->found);
	/* twFindings is there from the start, before the first sample. */
	return tw_view_build(&m->view, &(struct tw_view_sources){ .findings = &m->found });
}

void
tw_monitor_changes(struct tw_monitor *m)
{
	if (m->changes)
		return;
	tw_change_watch_init(&m->watch, m->settings.window_s);
	m->changes = 1;
}

void
tw_monitor_probes(struct tw_monitor *m, struct tw_probeset *ps)
{
	m->probes = ps;
}

void
tw_monitor_notify_counts(struct tw_monitor *m, const struct tw_view_notify_counts *c)
{
	m->counts = *c;
	m->have_counts = 1;
	if (m->findings)
		tw_view_put_notify_counts(&m->view, c);
}

int
tw_monitor_reqlat(struct tw_monitor *m, const struct tw_reqlat_config *c)
{
	int rc;

	if (m->reqlat != NULL)
		return TW_E_INVAL;
	if ((rc = tw_reqwin_init(&m->reqwin, m->settings.window_s / m->settings.interval_s)) !=
	    TW_OK)
		return rc;
	tw_reqlat_reading_init(&m->reading);
	m->reqlat = tw_reqlat_open(c);
	return m->reqlat != NULL ? TW_OK : TW_E_NOMEM;
}

/* The sample's disks that have requests of their own, in its order (by
 * major and minor). */
static int
reqlat_want(struct tw_monitor *m, size_t *n)
{
	const struct tw_sample *s = &m->sample;
	size_t i, k = 0;
	void *p;
	int rc;

	*n = 0;
	if (!(s->have & TW_SRC_BIT(TW_SRC_DISKSTATS)))
		return TW_OK;
	if ((rc = tw_array_grow(m->want, &m->want_cap, s->disks.count, sizeof(*m->want), &p)) !=
	    TW_OK)
		return rc;
	m->want = p;
	for (i = 0; i < s->disks.count; i++)
		if (tw_reqlat_times_type(s->idents[i].type))
			m->want[k++] = (struct tw_reqlat_want){ s->disks.disks[i].major,
			    s->disks.disks[i].minor };
	*n = k;
	return TW_OK;
}

/* Read the request histograms into their window. A source that cannot
 * time gives an empty reading, which empties the window. */
static int
reqlat_sample(struct tw_monitor *m)
{
	size_t n;
	int rc;

	if ((rc = reqlat_want(m, &n)) != TW_OK)
		return rc;
	rc = tw_reqlat_sample(m->reqlat, m->want, n, &m->reading);
	if (rc == TW_E_NOMEM)
		return rc;
	if (rc != TW_OK)
		m->reading.count = 0;
	rc = tw_reqwin_push(&m->reqwin, &m->reading, m->sample.mono_ms);
	return rc == TW_E_INVAL ? TW_OK : rc;
}

/* What is judged from the view's figures, once they are built: first the
 * change history, whose before and after figures come from the view. A
 * failure of the change history is the agent's to report; the sample
 * stands. */
static void
record(void *ctx, const struct tw_view *v)
{
	struct tw_monitor *m = ctx;

	if (m->changes) {
		m->changes_rc = tw_change_watch_step(&m->watch, &m->sample, v, (int64_t)time(NULL));
		m->nchanged = tw_change_history_list(&m->watch.history, m->changed);
	}
}

/* Then the findings (on Linux's tunables: the agent runs there), on the
 * change rows this sample publishes: judged on the sample before's, a
 * raise held back by finding/ratchet.h was still held in the sample that
 * published its change evaluated (and offered again in the one that
 * published the change), while a check reading that view said the
 * opposite. */
static int
assess(void *ctx, const struct tw_view *v)
{
	struct tw_monitor *m = ctx;
	int rc = TW_OK;

	if (m->findings) {
		tw_tracker_begin(&m->tracker);
		/* The span the figures cover, as a check reading this view
		 * says it (not the configured window: they differ until it
		 * fills, and when samples come late). */
		rc = tw_observe(&m->judge, v, tw_view_window_s(&v->agent), TW_OS_LINUX,
		    tw_tracker_observe, &m->tracker);
		tw_tracker_end(&m->tracker, (uint64_t)time(NULL));
		tw_tracker_findings(&m->tracker, &m->found);
	}
	return rc;
}

int
tw_monitor_sample(struct tw_monitor *m)
{
	struct tw_view_sources src;
	const char *reason = "";
	enum tw_reqlat_state st = TW_REQLAT_NSTATES;
	uint32_t uid = 0;
	int rc;

	if ((rc = tw_sampler_take(m->sampler, &m->sample)) != TW_OK)
		return rc;
	if ((rc = socks_step(m)) != TW_OK)
		return rc;
	if ((rc = tw_pools_build(&m->sample, &m->pools)) != TW_OK)
		return rc;
	if ((rc = tw_window_push(&m->window, &m->sample, &m->pools)) != TW_OK)
		return rc;
	if (m->reqlat != NULL && (rc = reqlat_sample(m)) != TW_OK)
		return rc;
	memset(&src, 0, sizeof(src));
	src.settings = &m->settings;
	src.window = &m->window;
	src.sample = &m->sample;
	src.pools = &m->pools;
	src.socks = &m->socks;
	src.listen_known = tw_listenwatch_owner(&m->listen, &uid);
	src.listen_owner = (int64_t)uid;
	if (m->reqlat != NULL) {
		st = tw_reqlat_state(m->reqlat, &reason);
		src.reqlat_state = tw_reqlat_state_name(st);
		src.reqlat_reason = reason;
		src.reqlat_timing = st == TW_REQLAT_TIMING;
		src.reqwin = &m->reqwin;
	}
	src.record = record;
	src.assess = assess;
	src.assess_ctx = m;
	src.findings = m->findings ? &m->found : NULL;
	src.notify = m->have_counts ? &m->counts : NULL;
	src.changes = m->changed;
	src.nchanges = &m->nchanged;
	if (m->probes != NULL) {
		uint64_t now = tw_clock_ms();

		tw_probeset_tick(m->probes, now);
		src.probing = 1;
		src.probes = tw_probeset_rows(m->probes, now, &src.nprobes);
	}
	return tw_view_build(&m->view, &src);
}
