/* SPDX-License-Identifier: ISC */
/* check_dblock: failures of the kernel's message-buffer pools ("dblocks")
 * within tunewatchd's window, and the tunable that sizes each failing
 * pool. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding/judge.h"
#include "advise.h"
#include "options.h"
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

/* "cpu1" out of "cpu1 backlog". */
static void
short_name(const struct tw_view_pool *pl, char *out, size_t len)
{
	const char *sp = strchr(pl->name, ' ');
	size_t n = sp != NULL ? (size_t)(sp - pl->name) : strlen(pl->name);

	snprintf(out, len, "%.*s", (int)n, pl->name);
}

/* "; in use 5 of 1000" with whatever of the two the pool has, and its
 * time in memory pressure where it spent any in the window. */
static void
usage(const struct tw_view_pool *pl, char *out, size_t len)
{
	int in_use = tw_view_has(pl, TW_OID_DBLOCK_IN_USE), limit = tw_view_has(pl, TW_OID_DBLOCK_LIMIT);
	size_t n;

	if (in_use && limit)
		snprintf(out, len, "; in use %llu of %llu",
		    (unsigned long long)tw_view_num(pl, TW_OID_DBLOCK_IN_USE),
		    (unsigned long long)tw_view_num(pl, TW_OID_DBLOCK_LIMIT));
	else if (in_use)
		snprintf(out, len, "; in use %llu", (unsigned long long)tw_view_num(pl, TW_OID_DBLOCK_IN_USE));
	else if (limit)
		snprintf(out, len, "; limit %llu", (unsigned long long)tw_view_num(pl, TW_OID_DBLOCK_LIMIT));
	else
		out[0] = '\0';
	n = strlen(out);
	if (tw_view_has(pl, TW_OID_DBLOCK_RECENT_PRESSURE_TIME) &&
	    tw_view_num(pl, TW_OID_DBLOCK_RECENT_PRESSURE_TIME) > 0 && n < len)
		snprintf(out + n, len - n, "; in memory pressure %.1f s",
		    tw_view_num(pl, TW_OID_DBLOCK_RECENT_PRESSURE_TIME) / 1000.0);
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

static enum tw_state
run(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out)
{
	enum tw_state worst = TW_STATE_OK;
	struct tw_judge_config judge;
	size_t i, k, judged = 0, bad = 0;
	unsigned long long total = 0;
	struct tw_sock_tally socks;

	/* The states are lib/finding's, as tunewatchd's findings are. */
	tw_judge_defaults(&judge);
	judge.pool_warn = p->warn;
	judge.pool_crit = p->crit;
	for (k = 0; k < tw_pool_nclasses; k++) {
		const struct tw_pool_class *cl = &tw_pool_classes[k];
		int per_cpu = cl->per == TW_POOL_PER_CPU;
		unsigned long long sum = 0, failing_sum = 0, worst_one = 0;
		char who[256] = "";
		size_t members = 0, failing = 0;
		enum tw_state class_state = TW_STATE_OK;

		if (!tw_pool_words_of(cl->id)->judged)
			continue;

		for (i = 0; i < v->npools; i++) {
			const struct tw_view_pool *pl = &v->pools[i];
			unsigned long long recent;
			enum tw_state st;
			char use[96];

			if (pl->cls != cl->id || !tw_namefilter_keep(&cfg.pools, pl->name) ||
			    !tw_judge_pool_of(&judge, v, pl, &st, &recent))
				continue;
			judged++;
			members++;
			sum += recent;
			if (!per_cpu)
				perf_item(out, pl->name, (double)recent, p);
			if (st == TW_STATE_OK && cl->id == TW_DBLOCK_SOFTNET_BUDGET && recent > 0) {
				/* Squeezed, and nothing lost: not a failure. */
				if (p->verbose > 0)
					tw_out_line(out, "%s: OK, ran out of budget %llu times in the last "
					    "%u s, and its backlog dropped nothing", pl->name, recent,
					    p->window_s);
				continue;
			}
			total += recent;
			if (st == TW_STATE_OK) {
				if (p->verbose > 0 && recent > 0)
					tw_out_line(out, "%s: OK, %llu failures in the last %u s", pl->name,
					    recent, p->window_s);
				else if (p->verbose > 0)
					tw_out_line(out, "%s: OK, no failures in the last %u s", pl->name,
					    p->window_s);
				continue;
			}
			worst = tw_state_worst(worst, st);
			class_state = tw_state_worst(class_state, st);
			failing_sum += recent;
			if (recent > worst_one)
				worst_one = recent;
			if (per_cpu) {
				char cpu[32];
				size_t used = strlen(who);

				short_name(pl, cpu, sizeof(cpu));
				if (failing < 4 && used + strlen(cpu) + 3 < sizeof(who))
					snprintf(who + used, sizeof(who) - used, "%s%s",
					    failing > 0 ? ", " : "", cpu);
				else if (failing == 4)
					snprintf(who + used, sizeof(who) - used, " and others");
			}
			failing++;
			usage(pl, use, sizeof(use));
			tw_out_line(out, "%s: %s, %llu failures in the last %u s (%s)%s", pl->name,
			    tw_state_name(st), recent, p->window_s,
			    tw_view_has(pl, TW_OID_DBLOCK_FAILURE_EVENT) ? pl->event : "failure", use);
			if (bad++ < 3)
				tw_out_printf(out, "%s%s %llu failures", bad > 1 ? ", " : "", pl->name,
				    recent);
		}
		/* Per-CPU pools are graphed as one figure per class, so the
		 * perfdata stays the same size whatever the number of CPUs. */
		if (per_cpu && members > 0)
			perf_item(out, tw_pool_words_of(cl->id)->graph_label, (double)sum, p);
		if (class_state != TW_STATE_OK) {
			struct tw_verdict verdict;
			char detail[400];

			if (cl->id == TW_DBLOCK_HIGH_ORDER) {
				advise_highorder(p, v, out, cl, failing_sum);
				continue;
			}
			if (cl->id == TW_DBLOCK_TCP_RCVBUF &&
			    tw_judge_tcp_prune(v, failing_sum, p->window_s, &verdict) == TW_OK &&
			    verdict.nfound == 0) {
				tw_plugin_verdict(p, v, out, &verdict, NULL, NULL, NULL,
				    tw_ticket_subject_pool(cl));
				continue;
			}
			if (cl->id == TW_DBLOCK_UDP_RCVBUF) {
				tw_dblock_udp_rcvbuf(p, v, out, failing_sum);
				continue;
			}
			tw_judge_pool_evidence(v, cl, who, failing_sum, p->window_s, detail,
			    sizeof(detail));
			/* A queue is sized from its drops; each CPU has its own. */
			tw_plugin_advise_pool(p, v, out, tw_pool_words_of(cl->id)->symptom,
			    per_cpu ? worst_one : failing_sum, tw_ticket_subject_pool(cl), detail);
		}
	}
	/* Sockets that drop are pools of their own, after the host's. */
	worst = tw_state_worst(worst, tw_dblock_sockets(p, v, out, &cfg.pools, &bad, &socks));
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
