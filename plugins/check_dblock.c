/* SPDX-License-Identifier: ISC */
/* check_dblock: failures of the kernel's message-buffer pools ("dblocks")
 * within tunewatchd's window, and the tunable that sizes each failing
 * pool. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures/pool_record.h"
#include "finding/judge.h"
#include "advise.h"
#include "cmdline.h"
#include "plugin.h"
#include "advice/poolwords.h"
#include "advice/ticket.h"
#include "sample/poolclass.h"
#include "sockdrops.h"
#include "util/error.h"

enum {
	OPT_POOL = TW_OPT_CHECK,
	OPT_EXCLUDE_POOL,
};

static const struct option longopts[] = {
	{ "pool", required_argument, NULL, OPT_POOL },
	{ "exclude-pool", required_argument, NULL, OPT_EXCLUDE_POOL },
	{ NULL, 0, NULL, 0 },
};

static struct {
	struct tw_namefilter pools;	/* --pool, --exclude-pool */
} cfg;

static int
option(int opt, const char *arg, char *err, size_t errlen)
{
	if (opt == OPT_POOL)
		return tw_plugin_filter("--pool", arg, &cfg.pools, TW_NAMEFILTER_INCLUDE, err,
		    errlen);
	return tw_plugin_filter("--exclude-pool", arg, &cfg.pools, TW_NAMEFILTER_EXCLUDE, err,
	    errlen);
}

/* "; in use 5 of 1000" with whatever of the two the pool has, and its
 * time in memory pressure where it spent any in the window. */
static void
usage(const struct tw_pool_record *f, char *out, size_t len)
{
	int in_use = tw_fig_has(f->in_use), limit = tw_fig_has(f->limit);
	size_t n;

	if (in_use && limit)
		snprintf(out, len, "; in use %llu of %llu", (unsigned long long)f->in_use,
		    (unsigned long long)f->limit);
	else if (in_use)
		snprintf(out, len, "; in use %llu", (unsigned long long)f->in_use);
	else if (limit)
		snprintf(out, len, "; limit %llu", (unsigned long long)f->limit);
	else
		out[0] = '\0';
	n = strlen(out);
	if (tw_fig_has(f->recent_pressure_ms) && f->recent_pressure_ms > 0 && n < len)
		snprintf(out + n, len - n, "; in memory pressure %.1f s",
		    f->recent_pressure_ms / 1000.0);
}

static void
perf_item(struct tw_out *out, const char *label, double v, const struct tw_plugin *p)
{
	struct tw_perf item;

	memset(&item, 0, sizeof(item));
	item.label = label;
	item.value = v;
	item.uom = "";
	item.warn = tw_threshold_range(&p->warn);
	item.crit = tw_threshold_range(&p->crit);
	item.has_min = 1;
	tw_out_perf(out, &item);
}

/* Compaction failures are advice only when large free blocks are gone
 * and tasks stall (lib/finding/judge_pool.c). */
static void
advise_highorder(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    const struct tw_pool_class *cl, unsigned long long failures)
{
	struct tw_verdict verdict;

	if (tw_judge_highorder(v, failures, p->window_s, &verdict) == TW_OK)
		tw_plugin_verdict(p, v, out, &verdict, NULL, NULL, NULL,
		    tw_ticket_subject_pool(cl));
}

/* What the lines of one class's pools need. */
struct class_lines {
	const struct tw_plugin *p;
	struct tw_out *out;
	int per_cpu;
	size_t *bad;		/* pools named in the status line so far */
};

static int
keep_pool(void *ctx, const struct tw_pool_record *f)
{
	(void)ctx;
	return tw_namefilter_keep(&cfg.pools, f->name);
}

/* A judged pool's perfdata (per-host classes) and its line. */
static void
pool_lines(void *ctx, const struct tw_pool_judged *pj)
{
	const struct class_lines *cx = ctx;
	const struct tw_plugin *p = cx->p;
	const struct tw_pool_record *f = pj->rec;
	char use[96];

	if (!cx->per_cpu)
		perf_item(cx->out, f->name, (double)pj->failures, p);
	if (pj->squeezed) {
		if (p->verbose > 0)
			tw_out_line(cx->out, "%s: OK, ran out of budget %llu times in the last "
			    "%u s, and its backlog dropped nothing", f->name, pj->failures,
			    p->window_s);
		return;
	}
	if (pj->state == TW_STATE_OK) {
		if (p->verbose > 0 && pj->failures > 0)
			tw_out_line(cx->out, "%s: OK, %llu failures in the last %u s", f->name,
			    pj->failures, p->window_s);
		else if (p->verbose > 0)
			tw_out_line(cx->out, "%s: OK, no failures in the last %u s", f->name,
			    p->window_s);
		return;
	}
	usage(f, use, sizeof(use));
	tw_out_line(cx->out, "%s: %s, %llu failures in the last %u s (%s)%s", f->name,
	    tw_state_name(pj->state), pj->failures, p->window_s,
	    f->event != NULL ? f->event : "failure", use);
	if ((*cx->bad)++ < 3)
		tw_out_printf(cx->out, "%s%s %llu failures", *cx->bad > 1 ? ", " : "", f->name,
		    pj->failures);
}

/* The advice on a class with a failing pool. */
static void
advise_class(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    const struct tw_pool_class *cl, const struct tw_pool_judgement *j)
{
	struct tw_verdict verdict;
	char detail[400];

	if (cl->id == TW_DBLOCK_HIGH_ORDER) {
		advise_highorder(p, v, out, cl, j->failing_sum);
		return;
	}
	if (cl->id == TW_DBLOCK_TCP_RCVBUF &&
	    tw_judge_tcp_prune(v, j->failing_sum, p->window_s, &verdict) == TW_OK &&
	    verdict.nfound == 0) {
		tw_plugin_verdict(p, v, out, &verdict, NULL, NULL, NULL,
		    tw_ticket_subject_pool(cl));
		return;
	}
	if (cl->id == TW_DBLOCK_UDP_RCVBUF) {
		tw_pool_udp_rcvbuf(p, v, out, j->failing_sum);
		return;
	}
	/* Only one user's listeners seen full: no host-wide somaxconn. */
	if (cl->id == TW_DBLOCK_TCP_LISTEN &&
	    tw_judge_tcp_listen(v, j->failing_sum, p->window_s, &verdict) == TW_OK) {
		tw_plugin_verdict(p, v, out, &verdict, NULL, NULL, NULL,
		    tw_ticket_subject_pool(cl));
		return;
	}
	tw_judge_pool_evidence(j, cl, p->window_s, detail, sizeof(detail));
	tw_plugin_advise_pool(p, v, out, tw_pool_words_of(cl->id)->symptom, j->shortfall,
	    tw_ticket_subject_pool(cl), detail);
}

static enum tw_state
run(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out)
{
	enum tw_state worst = TW_STATE_OK;
	struct tw_judge_config judge;
	size_t k, judged = 0, bad = 0;
	unsigned long long total = 0;
	struct tw_sock_tally socks;

	/* The states are lib/finding's, as tunewatchd's findings are. */
	tw_judge_defaults(&judge);
	judge.pool_warn = p->warn;
	judge.pool_crit = p->crit;
	for (k = 0; k < tw_pool_nclasses; k++) {
		const struct tw_pool_class *cl = &tw_pool_classes[k];
		struct class_lines cx = { p, out, cl->per == TW_POOL_PER_CPU, &bad };
		struct tw_pool_judgement j;

		if (!tw_pool_words_of(cl->id)->judged)
			continue;
		tw_judge_pool_class(&judge, v, cl, keep_pool, pool_lines, &cx, &j);
		judged += j.judged;
		total += j.counted;
		worst = tw_state_worst(worst, j.worst);
		/* Per-CPU pools are graphed as one figure per class, so the
		 * perfdata stays the same size whatever the number of CPUs. */
		if (cx.per_cpu && j.judged > 0)
			perf_item(out, tw_pool_words_of(cl->id)->graph_label, (double)j.failures, p);
		if (j.worst != TW_STATE_OK)
			advise_class(p, v, out, cl, &j);
	}
	/* Sockets that drop are pools of their own, after the host's. */
	worst = tw_state_worst(worst, tw_pool_sockets(p, v, out, &cfg.pools, &bad, &socks));
	judged += socks.judged;
	total += socks.total;
	if (bad > 3)
		tw_out_printf(out, " and %zu more", bad - 3);
	if (judged == 0) {
		if (cfg.pools.has_include || cfg.pools.has_exclude)
			tw_out_printf(out, "no pool to judge (check --pool and --exclude-pool)");
		else
			tw_out_printf(out, "no pool to judge: the agent publishes no pool with a "
			    "failure count");
		return TW_STATE_UNKNOWN;
	}
	if (bad == 0 && total == 0)
		tw_out_printf(out, "no failures in %zu pools in the last %u s", judged, p->window_s);
	else if (bad == 0)
		tw_out_printf(out, "%llu failures in %zu pools in the last %u s, none over a threshold",
		    total, judged, p->window_s);
	else
		tw_out_printf(out, " in the last %u s", p->window_s);
	return worst;
}

static const struct tw_check check = {
	.progname = "check_dblock",
	.service = "DBLOCK",
	.purpose =
	    "This plugin checks the kernel's message-buffer pools - per-CPU input queues,\n"
	    "socket memory, socket buffers, the accept queue, high-order pages: what SVR4\n"
	    "called STREAMS data blocks - for allocation failures within tunewatchd's\n"
	    "window, and names the tunable that sizes each failing pool.",
	.wc_what = "failures of a pool within the window",
	.default_warn = TW_JUDGE_POOL_WARN,
	.default_crit = NULL,
	.longopts = longopts,
	.options_help =
	    " --pool=REGEX\n"
	    "    Check only pools whose name matches (POSIX extended regular expression),\n"
	    "    e.g. 'backlog' or '^udp'\n"
	    " --exclude-pool=REGEX\n"
	    "    Leave out pools whose name matches\n",
	.notes =
	    "Notes:\n"
	    " By default any failure warns (-w 0) and nothing is critical.\n"
	    " Pools: cpuN backlog (net.core.netdev_max_backlog), cpuN budget\n"
	    " (net.core.netdev_budget), tcp memory (net.ipv4.tcp_mem), udp memory\n"
	    " (net.ipv4.udp_mem), udp receive buffer (net.core.rmem_max), udp send buffer\n"
	    " (net.core.wmem_max), tcp receive buffer (net.ipv4.tcp_rmem), tcp listen queue\n"
	    " (net.core.somaxconn), high-order pages (vm.watermark_scale_factor, only\n"
	    " when large free blocks are gone and tasks stall on memory).\n"
	    " Each UDP socket that dropped datagrams in the window is a pool of its own,\n"
	    " named 'udp ADDRESS:PORT COMMAND' (udp6, udplite, udplite6 alike; the command\n"
	    " when tunewatchd found the owner): net.core.rmem_max is advised only when the\n"
	    " socket's buffer is already at it, otherwise the application's SO_RCVBUF.\n"
	    "\nExamples:\n"
	    " check_dblock -H web1 -C public\n"
	    " check_dblock -H web1 -w 10 -c 1000 --exclude-pool 'budget'",
	.fetch = TW_FETCH_POOLS | TW_FETCH_SOCKS | TW_FETCH_BUFCACHE | TW_FETCH_TUNABLES,
	.changes = TW_CHANGE_FAMILY_POOLS,
	.option = option,
	.run = run,
};

int
main(int argc, char **argv)
{
	int rc = tw_plugin_main(&check, argc, argv);

	tw_namefilter_free(&cfg.pools);
	return rc;
}
