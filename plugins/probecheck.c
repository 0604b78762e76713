/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "probecheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "report.h"
#include "advice/evidence.h"
#include "finding/judge.h"
#include "probe/histogram.h"
#include "util/error.h"

static const char *
label(const struct tw_probe_record *pr, const struct tw_disk_record *d, char *buf, size_t len)
{
	if (d == NULL || d->alias == NULL || d->alias[0] == '\0')
		return pr->device;
	snprintf(buf, len, "%s (%s)", pr->device, d->alias);
	return buf;
}

/* A count as the lines print it: 0 when the row lacks it. */
static unsigned long long
count(double x)
{
	return tw_fig_has(x) ? (unsigned long long)x : 0;
}

/* "p50 0.4 ms, p90 ..., max 3 ms": what the row has. */
static void
figures(const struct tw_probe_record *pr, char *buf, size_t len)
{
	const struct {
		const char *name;
		double ms;
	} f[] = {
		{ "min", pr->min_ms }, { "p50", pr->p50_ms }, { "p90", pr->p90_ms },
		{ "p99", pr->p99_ms }, { "max", pr->max_ms }, { "mean", pr->mean_ms },
	};
	size_t i, n = 0;
	char num[32];

	buf[0] = '\0';
	for (i = 0; i < sizeof(f) / sizeof(f[0]) && n < len; i++)
		if (tw_fig_has(f[i].ms))
			n += (size_t)snprintf(buf + n, len - n, "%s%s %s ms", n > 0 ? ", " : "",
			    f[i].name, tw_plugin_num(num, sizeof(num), f[i].ms, 3));
	if (n == 0)
		snprintf(buf, len, "no reads");
}

/* The advice on slow seeks of pr, whose disk row is drow (figures d), or
 * NULL when the disk filter hides it. */
static void
advise(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    const struct tw_probe_record *pr, const struct tw_view_disk *drow, const struct tw_disk_record *d,
    unsigned pc, double ms)
{
	struct tw_view_disk none;
	struct tw_device_lookup ctx;
	struct tw_verdict verdict;

	if (tw_judge_probe_verdict(pr, d, p->window_s, pc, ms, &verdict) != TW_OK)
		return;
	if (drow == NULL) {
		memset(&none, 0, sizeof(none));
		snprintf(none.name, sizeof(none.name), "%s", pr->device);
		drow = &none;
	}
	tw_device_lookup_init(&ctx, p, v, drow);
	tw_plugin_verdict(p, v, out, &verdict, tw_plugin_device_lookup, &ctx, drow, NULL);
}

/* One probed device: its state, its line and perfdata, its advice. */
static enum tw_state
judge(const struct tw_plugin *p, const struct tw_view *v, const struct tw_probe_record *pr,
    const struct tw_view_disk *drow, const struct tw_disk_record *d,
    const struct tw_probe_check *c, struct tw_out *out, int *judged)
{
	const struct tw_range *w = tw_threshold_range(&p->warn);
	const struct tw_range *cr = tw_threshold_range(&p->crit);
	char buf[192], fig[200], n1[32];
	const char *lb = label(pr, d, buf, sizeof(buf));
	struct tw_probe_judgement j;
	double ms;
	enum tw_state st;
	unsigned long long timeouts = count(pr->timeouts);

	if (strcmp(pr->state, "idle-skipped") == 0) {
		tw_out_line(out, "%s: OK, idle-skipped: %s", lb, pr->reason);
		return TW_STATE_OK;
	}
	if (strcmp(pr->state, "probing") != 0 && strcmp(pr->state, "errors") != 0) {
		tw_out_line(out, "%s: UNKNOWN, probe %s: %s", lb, pr->state, pr->reason);
		return TW_STATE_UNKNOWN;
	}
	figures(pr, fig, sizeof(fig));
	if (!tw_fig_has(tw_probe_record_percentile(pr, c->percentile))) {
		st = strcmp(pr->state, "errors") == 0 || timeouts > 0 ? TW_STATE_CRITICAL :
		    TW_STATE_UNKNOWN;
		tw_out_line(out, "%s: %s, too few reads for p%u (%llu in the window; %llu needed); "
		    "%s; %llu timeouts, %llu errors%s%s", lb, tw_state_name(st), c->percentile,
		    count(pr->reads), (unsigned long long)tw_hist_min_count(c->percentile), fig,
		    timeouts, count(pr->errors), pr->reason[0] != '\0' ? ": " : "", pr->reason);
		return st;
	}
	(*judged)++;
	/* Judged as tunewatchd judges it (lib/finding/judge_probe.c). */
	(void)tw_judge_probe(&p->warn, &p->crit, pr, c->percentile, &j);
	ms = j.ms;
	st = j.worst;
	/* Each percentile the row has, in ms to the microsecond. */
	if (tw_fig_has(pr->p50_ms))
		tw_out_figure(out, pr->device, NULL, "p50", pr->p50_ms, "ms", 3,
		    c->percentile == 50 ? w : NULL, c->percentile == 50 ? cr : NULL, 0);
	if (c->percentile == 90 && tw_fig_has(pr->p90_ms))
		tw_out_figure(out, pr->device, NULL, "p90", pr->p90_ms, "ms", 3, w, cr, 0);
	if (tw_fig_has(pr->p99_ms))
		tw_out_figure(out, pr->device, NULL, "p99", pr->p99_ms, "ms", 3,
		    c->percentile == 99 ? w : NULL, c->percentile == 99 ? cr : NULL, 0);
	if (tw_fig_has(pr->max_ms))
		tw_out_figure(out, pr->device, NULL, "max", pr->max_ms, "ms", 3, NULL, NULL, 0);
	tw_out_line(out, "%s: %s, probe p%u %s ms (%s; %llu reads, %llu timeouts, %llu missed "
	    "slots, %llu errors in the last %llu s at %llu/s)%s%s", lb, tw_state_name(st),
	    c->percentile, tw_plugin_num(n1, sizeof(n1), ms, 3), fig, count(pr->reads), timeouts,
	    count(pr->missed), count(pr->errors),
	    (unsigned long long)(((tw_fig_has(pr->window_ms) ? pr->window_ms : 0) + 500) / 1000),
	    count(pr->rate_reads_s), pr->reason[0] != '\0' ? "; " : "", pr->reason);
	if (j.latency != TW_STATE_OK)
		advise(p, v, out, pr, drow, d, c->percentile, ms);
	return st;
}

enum tw_state
tw_probe_check_run(const struct tw_plugin *p, const struct tw_view *v,
    const struct tw_view_probe *probes, size_t nprobes, const struct tw_probe_check *c,
    struct tw_out *out)
{
	enum tw_state worst = TW_STATE_OK;
	size_t i, seen = 0, nbad = 0;
	int judged = 0;
	double top = -1;
	const char *top_dev = "";
	char num[32], lb[192];

	for (i = 0; i < nprobes; i++) {
		const struct tw_view_disk *drow = tw_judge_probe_disk(v, &probes[i]);
		struct tw_probe_record pr;
		struct tw_disk_record df;
		const struct tw_disk_record *d = NULL;
		double ms;
		enum tw_state st;

		tw_view_probe_record(&probes[i], &pr);
		if (drow != NULL) {
			tw_view_disk_record(drow, &df);
			d = &df;
		}
		if (!tw_namefilter_keep_either(c->devices, pr.device, d != NULL ? d->alias : NULL))
			continue;
		seen++;
		ms = tw_probe_record_percentile(&pr, c->percentile);
		st = judge(p, v, &pr, drow, d, c, out, &judged);
		worst = tw_state_worst(worst, st);
		if (st != TW_STATE_OK) {
			tw_out_printf(out, "%s%s %s probe p%u %s%s", nbad > 0 ? "; " : "",
			    label(&pr, d, lb, sizeof(lb)), tw_state_name(st), c->percentile,
			    tw_fig_has(ms) ? tw_plugin_num(num, sizeof(num), ms, 3) : "absent",
			    tw_fig_has(ms) ? " ms" : "");
			nbad++;
		}
		if (tw_fig_has(ms) && ms > top) {
			top = ms;
			top_dev = probes[i].device;
		}
	}
	if (seen == 0) {
		tw_out_printf(out, nprobes == 0 ? "the agent probes no device (add 'probe DEVICE' "
		    "lines to tunewatchd.conf)" : "no probed device matches --device and "
		    "--exclude-device");
		return TW_STATE_UNKNOWN;
	}
	if (nbad == 0 && judged == 0) {
		tw_out_printf(out, "%zu probed device%s idle-skipped", seen, seen == 1 ? "" : "s");
		return TW_STATE_OK;
	}
	if (nbad == 0)
		tw_out_printf(out, "%d probed device%s OK in the last %u s; highest probe p%u %s ms "
		    "(%s)", judged, judged == 1 ? "" : "s", p->window_s, c->percentile,
		    tw_plugin_num(num, sizeof(num), top, 3), top_dev);
	return worst;
}

int
tw_probe_check_option(struct tw_probe_opts *o, unsigned *fetch, int opt, const char *arg,
    char *err, size_t errlen)
{
	char *end;
	unsigned long v;

	switch (opt) {
	case TW_OPT_PROBE:
		o->on = 1;
		*fetch = (*fetch | TW_FETCH_PROBES) & ~TW_FETCH_REQLATS;
		return 0;
	case TW_OPT_PERCENTILE:
		v = strtoul(arg, &end, 10);
		if (end == arg || *end != '\0' || (v != 50 && v != 90 && v != 99)) {
			snprintf(err, errlen, "--percentile '%s' is not 50, 90 or 99 (the percentiles "
			    "twProbeTable and twReqLatTable publish)", arg);
			return -1;
		}
		o->percentile = (unsigned)v;
		/* Without --probe, the percentile is of every request. */
		if (!o->on)
			*fetch |= TW_FETCH_REQLATS;
		return 0;
	case TW_OPT_PROBE_COUNT:
		v = strtoul(arg, &end, 10);
		if (end == arg || *end != '\0' || arg[0] == '-' || v < 1 ||
		    v > TW_PROBE_MAX_COUNT) {
			snprintf(err, errlen, "--probe-count '%s' is not a number of reads from 1 to "
			    "%d", arg, TW_PROBE_MAX_COUNT);
			return -1;
		}
		o->count = (unsigned)v;
		return 0;
	}
	snprintf(err, errlen, "unknown option");
	return -1;
}

enum tw_state
tw_probe_check(const struct tw_plugin *p, const struct tw_view *v,
    const struct tw_probe_opts *o, const struct tw_namefilter *devices, struct tw_out *out)
{
	struct tw_probe_check c = { o->percentile != 0 ? o->percentile :
	    TW_PROBE_DEFAULT_PERCENTILE, devices };
	unsigned count = o->count != 0 ? o->count : TW_PROBE_DEFAULT_COUNT;
	struct tw_view pv;
	enum tw_state st;
	char err[256];

	if (!p->local)
		return tw_probe_check_run(p, v, v->probes, v->nprobes, &c, out);
	tw_view_init(&pv);
	if (tw_probe_local(p, v, devices, count, &pv, err, sizeof(err)) != TW_OK) {
		tw_out_printf(out, "%s", err);
		tw_view_free(&pv);
		return TW_STATE_UNKNOWN;
	}
	st = tw_probe_check_run(p, v, pv.probes, pv.nprobes, &c, out);
	tw_view_free(&pv);
	return st;
}
