/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "reqlatcheck.h"

#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "advise.h"
#include "report.h"
#include "finding/judge_reqlat.h"
#include "probe/histogram.h"
#include "sample/sampler.h"
#include "view/record_agent.h"

#define LABEL_LEN (sizeof(((struct tw_view_disk *)0)->name) + \
	sizeof(((struct tw_view_disk *)0)->alias) + 4)

static const char *
label(const struct tw_disk_record *d, char *buf, size_t len)
{
	if (d->alias == NULL || d->alias[0] == '\0')
		return d->name;
	snprintf(buf, len, "%s (%s)", d->name, d->alias);
	return buf;
}

/* "read p99 0.2 ms (p50 0.08, p90 0.1, max 2.3 ms, mean 0.09 ms; 5000
 * requests)", or why there is no percentile, or why it is not judged
 * (judged: tw_judge_reqlat's have_read or have_write). */
static void
direction(const struct tw_reqlat_record *r, const char *dir, unsigned pc, int judged, char *buf,
    size_t len)
{
	char a[32], b[32], c[32], m[32], x[32], why[64];
	unsigned long long n, need = tw_judge_reqlat_min_requests(pc);
	double ms;

	if (r == NULL) {
		snprintf(buf, len, "%s not timed", dir);
		return;
	}
	n = (unsigned long long)tw_fig_or0(r->requests);
	ms = tw_reqlat_record_percentile(r, pc);
	if (!tw_fig_has(ms)) {
		snprintf(buf, len, "%s p%u absent (%llu request%s in the window; %llu needed for it, "
		    "%llu to judge it)", dir, pc, n, n == 1 ? "" : "s",
		    (unsigned long long)tw_hist_min_count(pc), need);
		return;
	}
	why[0] = '\0';
	if (!judged && n < need)
		snprintf(why, sizeof(why), ", too few to judge it: %llu needed", need);
	else if (!judged)
		snprintf(why, sizeof(why), ", not judged");
	snprintf(buf, len, "%s p%u %s ms (p50 %s, p90 %s, max %s, mean %s ms; %llu requests%s)",
	    dir, pc, tw_plugin_num(a, sizeof(a), ms, 3),
	    tw_plugin_num(b, sizeof(b), tw_fig_or0(r->p50_ms), 3),
	    tw_fig_has(r->p90_ms) ? tw_plugin_num(c, sizeof(c), r->p90_ms, 3) : "absent",
	    tw_plugin_num(m, sizeof(m), tw_fig_or0(r->max_ms), 3),
	    tw_plugin_num(x, sizeof(x), tw_fig_or0(r->mean_ms), 3), n, why);
}

/* ", queue p99 1.2 ms": where a scheduler queued the reads. */
static void
queue(const struct tw_reqlat_record *r, char *buf, size_t len)
{
	char a[32];

	buf[0] = '\0';
	if (r == NULL || !tw_fig_has(r->queue_p50_ms))
		return;
	snprintf(buf, len, ", read queue p50 %s ms", tw_plugin_num(a, sizeof(a),
	    r->queue_p50_ms, 3));
	if (tw_fig_has(r->queue_p99_ms))
		snprintf(buf + strlen(buf), len - strlen(buf), ", p99 %s ms",
		    tw_plugin_num(a, sizeof(a), r->queue_p99_ms, 3));
}

static void
advise(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    const struct tw_view_disk *d, const struct tw_verdict *verdict)
{
	struct tw_device_lookup ctx;

	tw_device_lookup_init(&ctx, p, v, d);
	tw_plugin_verdict(p, v, out, verdict, tw_plugin_device_lookup, &ctx, d, NULL);
}

struct top {
	double ms;
	int have;
	struct tw_disk_record d;
};

/* One disk, its row drow and figures d, its rows of twReqLatTable rf:
 * its line, perfdata and advice; 1 when judged. */
static int
judge(const struct tw_plugin *p, const struct tw_view *v, const struct tw_view_disk *drow,
    const struct tw_disk_record *d, const struct tw_reqlat_records *rf,
    const struct tw_reqlat_check *c, struct tw_out *out, enum tw_state *st, struct top *tr,
    struct top *tw)
{
	const struct tw_range *rw = tw_threshold_range(&p->warn), *rc = tw_threshold_range(&p->crit);
	const struct tw_range *ww = tw_threshold_range(c->write_warn);
	const struct tw_range *wc = tw_threshold_range(c->write_crit);
	struct tw_reqlat_judgement j;
	struct tw_disk_verdicts verdicts;
	char lb[LABEL_LEN], rd[200], wr[200], q[64], what[16], few[80], o[32];
	double ms;

	if (!tw_judge_reqlat(&p->warn, &p->crit, c->write_warn, c->write_crit, rf,
	    c->percentile, tw_judge_write_bound(d, tw_judge_dirty_limited(v)), c->min_ops, &j)) {
		tw_out_line(out, "%s: not timed (no requests of its own, past requestLatencyDevices, "
		    "or first seen in the newest sample)", label(d, lb, sizeof(lb)));
		*st = TW_STATE_OK;
		return 0;
	}
	*st = j.worst;
	j.writers_held = tw_fig_has(tw_judge_dirty_limited(v)) && tw_judge_dirty_limited(v) > 0;
	/* Each percentile a timed direction has, in ms to the microsecond. */
	ms = j.rrow != NULL ? j.rrow->p50_ms : TW_FIG_NONE;
	if (tw_fig_has(ms))
		tw_out_figure(out, d->name, NULL, "read p50", ms, "ms", 3,
		    c->percentile == 50 ? rw : NULL, c->percentile == 50 ? rc : NULL, 0);
	snprintf(what, sizeof(what), "read p%u", c->percentile);
	ms = j.rrow != NULL ? tw_reqlat_record_percentile(j.rrow, c->percentile) : TW_FIG_NONE;
	if (c->percentile != 50 && tw_fig_has(ms))
		tw_out_figure(out, d->name, NULL, what, ms, "ms", 3, rw, rc, 0);
	snprintf(what, sizeof(what), "write p%u", c->percentile);
	ms = j.wrow != NULL ? tw_reqlat_record_percentile(j.wrow, c->percentile) : TW_FIG_NONE;
	if (tw_fig_has(ms))
		tw_out_figure(out, d->name, NULL, what, ms, "ms", 3, ww, wc, 0);
	direction(j.rrow, "read", c->percentile, j.have_read, rd, sizeof(rd));
	direction(j.wrow, "write", c->percentile, j.have_write, wr, sizeof(wr));
	queue(j.rrow, q, sizeof(q));
	few[0] = '\0';
	if (j.few_ops)
		snprintf(few, sizeof(few), ", %s requests/s, under --min-ops",
		    tw_plugin_num(o, sizeof(o), j.ops_s, 1));
	tw_out_line(out, "%s: %s, %s, %s%s%s in the last %llu s", label(d, lb, sizeof(lb)),
	    tw_state_name(j.worst), rd, wr, q, few, (unsigned long long)((tw_fig_or0(j.rrow != NULL ?
	    j.rrow->window_ms : j.wrow->window_ms) + 500) / 1000));
	if (j.have_read && j.read_ms > tr->ms)
		*tr = (struct top){ j.read_ms, 1, *d };
	if (j.have_write && j.write_ms > tw->ms)
		*tw = (struct top){ j.write_ms, 1, *d };
	if (j.worst == TW_STATE_OK)
		return 1;
	tw_judge_reqlat_verdicts(d, &j, p->window_s, c->percentile, &verdicts);
	if (verdicts.has_read)
		advise(p, v, out, drow, &verdicts.read);
	if (verdicts.has_write)
		advise(p, v, out, drow, &verdicts.write);
	return 1;
}

static enum tw_state run(const struct tw_plugin *p, const struct tw_view *v,
    const struct tw_reqlat_check *c, struct tw_out *out, const regex_t *defaults);

/* With --local every device is sampled (local.c): without --device, the
 * ones tunewatchd's default filter would leave out are left out here. */
static int
kept(const struct tw_plugin *p, const struct tw_reqlat_check *c, const struct tw_disk_record *d,
    const regex_t *defaults)
{
	if (!tw_namefilter_keep_either(c->devices, d->name, d->alias))
		return 0;
	return !p->local || c->devices->has_include || defaults == NULL ||
	    regexec(defaults, d->name, 0, NULL, 0) != 0;
}

enum tw_state
tw_reqlat_check_run(const struct tw_plugin *p, const struct tw_view *v,
    const struct tw_reqlat_check *c, struct tw_out *out)
{
	regex_t defaults;
	int have_defaults = 0;
	enum tw_state worst;

	if (p->local && !c->devices->has_include)
		have_defaults = regcomp(&defaults, TW_DISK_EXCLUDE_DEFAULT, REG_EXTENDED | REG_NOSUB) == 0;
	worst = run(p, v, c, out, have_defaults ? &defaults : NULL);
	if (have_defaults)
		regfree(&defaults);
	return worst;
}

static enum tw_state
run(const struct tw_plugin *p, const struct tw_view *v, const struct tw_reqlat_check *c,
    struct tw_out *out, const regex_t *defaults)
{
	enum tw_state worst = TW_STATE_OK;
	struct top tr = { .ms = -1 }, tw = { .ms = -1 };
	size_t i, judged = 0, nbad = 0;
	char a[32], b[32], lb[LABEL_LEN], lw[LABEL_LEN];
	struct tw_agent_record agent;

	tw_view_agent_record(&v->agent, &agent);
	if (agent.reqlat_state == NULL) {
		tw_out_printf(out, "the agent publishes no distribution of requests "
		    "(twAgentReqLatState: a tunewatchd older than this check)");
		return TW_STATE_UNKNOWN;
	}
	if (strcmp(agent.reqlat_state, "timing") != 0) {
		tw_out_printf(out, "tunewatchd does not time requests (%s): %s",
		    agent.reqlat_state, agent.reqlat_reason != NULL ? agent.reqlat_reason : "");
		return TW_STATE_UNKNOWN;
	}
	for (i = 0; i < v->ndisks; i++) {
		const struct tw_view_disk *drow = &v->disks[i];
		struct tw_disk_record d;
		struct tw_reqlat_records rf;
		enum tw_state st;

		tw_view_disk_record(drow, &d);
		if (!kept(p, c, &d, defaults))
			continue;
		tw_judge_reqlat_records(v, d.major, d.minor, &rf);
		judged += (size_t)judge(p, v, drow, &d, &rf, c, out, &st, &tr, &tw);
		worst = tw_state_worst(worst, st);
		if (st != TW_STATE_OK) {
			double r = rf.r != NULL ? tw_reqlat_record_percentile(rf.r, c->percentile) :
			    TW_FIG_NONE;
			double w = rf.w != NULL ? tw_reqlat_record_percentile(rf.w, c->percentile) :
			    TW_FIG_NONE;

			tw_out_printf(out, "%s%s %s read p%u %s%s, write p%u %s%s", nbad > 0 ? "; " : "",
			    label(&d, lb, sizeof(lb)), tw_state_name(st), c->percentile,
			    tw_fig_has(r) ? tw_plugin_num(a, sizeof(a), r, 3) : "absent",
			    tw_fig_has(r) ? " ms" : "", c->percentile,
			    tw_fig_has(w) ? tw_plugin_num(b, sizeof(b), w, 3) : "absent",
			    tw_fig_has(w) ? " ms" : "");
			nbad++;
		}
	}
	if (judged == 0) {
		if (c->devices->has_include || c->devices->has_exclude)
			tw_out_printf(out, "no timed device to judge (check --device and "
			    "--exclude-device)");
		else
			tw_out_printf(out, "no device of the agent is timed yet (partitions, "
			    "device-mapper and md devices have no requests of their own)");
		return TW_STATE_UNKNOWN;
	}
	if (nbad == 0) {
		tw_out_printf(out, "%zu device%s OK in the last %u s", judged, judged == 1 ? "" : "s",
		    p->window_s);
		if (tr.have)
			tw_out_printf(out, "; highest read p%u %s ms (%s)", c->percentile,
			    tw_plugin_num(a, sizeof(a), tr.ms, 3), label(&tr.d, lb, sizeof(lb)));
		if (tw.have)
			tw_out_printf(out, "%s write p%u %s ms (%s)", tr.have ? "," : "; highest",
			    c->percentile, tw_plugin_num(b, sizeof(b), tw.ms, 3),
			    label(&tw.d, lw, sizeof(lw)));
		if (!tr.have && !tw.have)
			tw_out_printf(out, "; too few requests for p%u on any", c->percentile);
	}
	return worst;
}
