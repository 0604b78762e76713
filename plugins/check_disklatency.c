/* SPDX-License-Identifier: ISC */
/* check_disklatency: read and write latency of each disk over tunewatchd's
 * window (sysstat's r_await and w_await), with optional thresholds on
 * queue depth and utilisation, and the queue tunable to turn. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding/judge.h"
#include "finding/judge_disk_row.h"
#include "advise.h"
#include "cmdline.h"
#include "plugin.h"
#include "report.h"
#include "probecheck.h"
#include "reqlatcheck.h"
#include "util/error.h"

enum {
	OPT_WRITE_WARNING = TW_OPT_CHECK,
	OPT_WRITE_CRITICAL,
	OPT_QUEUE_WARNING,
	OPT_QUEUE_CRITICAL,
	OPT_UTIL_WARNING,
	OPT_UTIL_CRITICAL,
	OPT_DEVICE,
	OPT_EXCLUDE_DEVICE,
	OPT_MIN_OPS,
};

static const struct option longopts[] = {
	{ "write-warning", required_argument, NULL, OPT_WRITE_WARNING },
	{ "write-critical", required_argument, NULL, OPT_WRITE_CRITICAL },
	{ "queue-warning", required_argument, NULL, OPT_QUEUE_WARNING },
	{ "queue-critical", required_argument, NULL, OPT_QUEUE_CRITICAL },
	{ "util-warning", required_argument, NULL, OPT_UTIL_WARNING },
	{ "util-critical", required_argument, NULL, OPT_UTIL_CRITICAL },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "exclude-device", required_argument, NULL, OPT_EXCLUDE_DEVICE },
	{ "min-ops", required_argument, NULL, OPT_MIN_OPS },
	TW_PROBE_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static struct {
	/* -w and -c are r_await's; the other thresholds and --min-ops are
	 * kept here directly. */
	struct tw_judge_config judge;
	struct tw_namefilter devices;	/* --device, --exclude-device */
	struct tw_probe_opts probe;	/* --probe, --percentile, --probe-count */
} cfg;
static struct tw_check check;

static int
option(int opt, const char *arg, char *err, size_t errlen)
{
	char *end;

	switch (opt) {
	case OPT_WRITE_WARNING:
		return tw_plugin_threshold("--write-warning", arg, &cfg.judge.write_warn, err, errlen);
	case OPT_WRITE_CRITICAL:
		return tw_plugin_threshold("--write-critical", arg, &cfg.judge.write_crit, err, errlen);
	case OPT_QUEUE_WARNING:
		return tw_plugin_threshold("--queue-warning", arg, &cfg.judge.queue_warn, err, errlen);
	case OPT_QUEUE_CRITICAL:
		return tw_plugin_threshold("--queue-critical", arg, &cfg.judge.queue_crit, err, errlen);
	case OPT_UTIL_WARNING:
		return tw_plugin_threshold("--util-warning", arg, &cfg.judge.util_warn, err, errlen);
	case OPT_UTIL_CRITICAL:
		return tw_plugin_threshold("--util-critical", arg, &cfg.judge.util_crit, err, errlen);
	case OPT_DEVICE:
		return tw_plugin_filter("--device", arg, &cfg.devices, TW_NAMEFILTER_INCLUDE, err,
		    errlen);
	case OPT_EXCLUDE_DEVICE:
		return tw_plugin_filter("--exclude-device", arg, &cfg.devices,
		    TW_NAMEFILTER_EXCLUDE, err, errlen);
	case OPT_MIN_OPS:
		cfg.judge.min_ops = strtod(arg, &end);
		if (end == arg || *end != '\0' || !(cfg.judge.min_ops >= 0) || cfg.judge.min_ops > 1e9) {
			snprintf(err, errlen, "--min-ops '%s' is not a rate (operations per second)",
			    arg);
			return -1;
		}
		return 0;
	}
	if (opt >= TW_OPT_PROBE)
		return tw_probe_check_option(&cfg.probe, &check.fetch, opt, arg, err, errlen);
	snprintf(err, errlen, "unknown option");
	return -1;
}

/* The advice for one verdict about device d, with its own queue
 * attributes as current values. */
static void
advise_disk(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    const struct tw_view_disk *d, const struct tw_verdict *verdict)
{
	struct tw_device_lookup ctx;

	tw_device_lookup_init(&ctx, p, v, d);
	tw_plugin_verdict(p, v, out, verdict, tw_plugin_device_lookup, &ctx, d, NULL);
}

#define TW_LABEL_LEN (sizeof(((struct tw_view_disk *)0)->name) + \
	sizeof(((struct tw_view_disk *)0)->alias) + 4)

/* "dm-3 (vg0-root)": the kernel's name, and beside it the one an
 * administrator knows, when the agent publishes one. */
static const char *
label(const struct tw_disk_record *d, char *buf, size_t len)
{
	if (d->alias == NULL || d->alias[0] == '\0')
		return d->name;
	snprintf(buf, len, "%s (%s)", d->name, d->alias);
	return buf;
}

static unsigned long long
tunable_or_zero(int64_t x)
{
	return x < 0 ? 0 : (unsigned long long)x;
}

/* One long-output line per device. */
static void
device_line(struct tw_out *out, const struct tw_disk_record *d, enum tw_state st)
{
	char a[32], b[32], c[32], u[32], r[32], w[32], sched[48], rot[16], lb[TW_LABEL_LEN];

	snprintf(sched, sizeof(sched), "scheduler %s",
	    d->scheduler != NULL ? d->scheduler : "unknown");
	snprintf(rot, sizeof(rot), "%s", d->rotational < 0 ? "" :
	    d->rotational == 1 ? ", rotational" : ", solid state");
	tw_out_line(out, "%s: %s r_await %s ms, w_await %s ms, aqu-sz %s, util %s %%, %s r/s, "
	    "%s w/s (%s, nr_requests %llu, read_ahead_kb %llu%s)", label(d, lb, sizeof(lb)),
	    tw_state_name(st),
	    tw_plugin_num(a, sizeof(a), tw_fig_or0(d->r_await_ms), 1),
	    tw_plugin_num(b, sizeof(b), tw_fig_or0(d->w_await_ms), 1),
	    tw_plugin_num(c, sizeof(c), tw_fig_or0(d->queue_depth), 2),
	    tw_plugin_num(u, sizeof(u), tw_fig_or0(d->util_pct), 1),
	    tw_plugin_num(r, sizeof(r), tw_fig_or0(d->read_ops_s), 1),
	    tw_plugin_num(w, sizeof(w), tw_fig_or0(d->write_ops_s), 1), sched,
	    tunable_or_zero(d->nr_requests), tunable_or_zero(d->read_ahead_kb), rot);
}

/* The devices that are not OK, for the summary: the worst first. */
#define MAX_SUMMARY 3

struct problem {
	struct tw_disk_record rec;
	enum tw_state st;
};

static void
summarise(struct tw_out *out, const struct problem *bad, size_t nbad)
{
	static const enum tw_state order[] = {
		TW_STATE_CRITICAL, TW_STATE_WARNING, TW_STATE_UNKNOWN
	};
	size_t k, i, shown = 0, more = 0;
	char a[32], b[32], lb[TW_LABEL_LEN];

	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		for (i = 0; i < nbad; i++) {
			const struct tw_disk_record *d = &bad[i].rec;

			if (bad[i].st != order[k])
				continue;
			if (shown == MAX_SUMMARY) {
				more++;
				continue;
			}
			tw_out_printf(out, "%s%s %s r_await %s ms, w_await %s ms", shown > 0 ? "; " : "",
			    label(d, lb, sizeof(lb)), tw_state_name(bad[i].st),
			    tw_plugin_num(a, sizeof(a), tw_fig_or0(d->r_await_ms), 1),
			    tw_plugin_num(b, sizeof(b), tw_fig_or0(d->w_await_ms), 1));
			shown++;
		}
	}
	if (more > 0)
		tw_out_printf(out, "; and %zu more", more);
}

static enum tw_state
run(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out)
{
	const struct tw_range *rw, *rc;
	const struct tw_range *ww = tw_threshold_range(&cfg.judge.write_warn);
	const struct tw_range *wc = tw_threshold_range(&cfg.judge.write_crit);
	enum tw_state worst = TW_STATE_OK;
	struct problem *bad = calloc(v->ndisks > 0 ? v->ndisks : 1, sizeof(*bad));
	size_t i, judged = 0, nbad = 0, young = 0;
	double top_r = -1, top_w = -1, held = tw_judge_dirty_limited(v);
	struct tw_disk_record top_r_dev = { .name = "" }, top_w_dev = { .name = "" };
	char a[32], b[32], d4[32], lb[TW_LABEL_LEN], lr[TW_LABEL_LEN], lw[TW_LABEL_LEN];

	if (cfg.probe.on) {
		free(bad);
		return tw_probe_check(p, v, &cfg.probe, &cfg.devices, out);
	}
	if (cfg.probe.percentile != 0) {
		struct tw_reqlat_check rq = { cfg.probe.percentile, &cfg.judge.write_warn,
		    &cfg.judge.write_crit, &cfg.devices, cfg.judge.min_ops };

		free(bad);
		return tw_reqlat_check_run(p, v, &rq, out);
	}
	if (bad == NULL) {
		tw_out_printf(out, "out of memory");
		return TW_STATE_UNKNOWN;
	}
	cfg.judge.read_warn = p->warn;
	cfg.judge.read_crit = p->crit;
	rw = tw_threshold_range(&cfg.judge.read_warn);
	rc = tw_threshold_range(&cfg.judge.read_crit);
	for (i = 0; i < v->ndisks; i++) {
		const struct tw_view_disk *row = &v->disks[i];
		struct tw_disk_record rec;
		const struct tw_disk_record *d = &rec;
		struct tw_disk_judgement j;
		struct tw_disk_verdicts verdicts;
		double r, w, q, u;
		enum tw_state st;

		/* Judged as tunewatchd judges it; decoded whole, as its line
		 * and the filter read more than the judgement. */
		int judged_now = tw_judge_disk_row(&cfg.judge, row, held, p->window_s, 1, &rec, &j,
		    &verdicts);

		if (!tw_namefilter_keep_either(&cfg.devices, d->name, d->alias))
			continue;
		/* Not yet measured is not OK: say so, whatever -v. The states
		 * are lib/finding's, as tunewatchd's findings are. */
		if (!judged_now) {
			young++;
			tw_out_line(out, "%s: no figures yet (first seen in the newest sample)",
			    label(d, lb, sizeof(lb)));
			continue;
		}
		judged++;
		r = j.r_await;
		w = j.w_await;
		q = j.queue_depth;
		u = j.util_pct;
		st = j.worst;
		worst = tw_state_worst(worst, st);
		if (r > top_r) {
			top_r = r;
			top_r_dev = *d;
		}
		if (w > top_w) {
			top_w = w;
			top_w_dev = *d;
		}

		/* Latency in ms to the microsecond the MIB gives. %util can
		 * pass 100 when the kernel's busy time and our clock disagree
		 * by a few ms; a graph's scale should not. */
		tw_out_figure(out, d->name, NULL, "r_await", r, "ms", 3, rw, rc, 0);
		tw_out_figure(out, d->name, NULL, "w_await", w, "ms", 3, ww, wc, 0);
		tw_out_figure(out, d->name, NULL, "aqu-sz", q, "", 2,
		    tw_threshold_range(&cfg.judge.queue_warn),
		    tw_threshold_range(&cfg.judge.queue_crit), 0);
		tw_out_figure(out, d->name, NULL, "util", u > 100 ? 100 : u, "%", 2,
		    tw_threshold_range(&cfg.judge.util_warn),
		    tw_threshold_range(&cfg.judge.util_crit), 1);

		if (st != TW_STATE_OK || p->verbose > 0 || v->ndisks <= 16)
			device_line(out, d, st);
		if (st == TW_STATE_OK)
			continue;
		bad[nbad++] = (struct problem){ *d, st };
		if (verdicts.has_read)
			advise_disk(p, v, out, row, &verdicts.read);
		if (verdicts.has_write)
			advise_disk(p, v, out, row, &verdicts.write);
		if (verdicts.util_only)
			tw_out_line(out, "no tunable: %s is busy %s %% of the time; no tunable adds "
			    "capacity (spread the I/O or add devices)", d->name,
			    tw_plugin_num(d4, sizeof(d4), u, 1));
	}
	summarise(out, bad, nbad);
	free(bad);
	if (judged == 0) {
		if (young > 0)
			tw_out_printf(out, "no device to judge yet: every device was first seen in "
			    "the newest sample");
		else if (cfg.devices.has_include || cfg.devices.has_exclude)
			tw_out_printf(out, "no device to judge (check --device and --exclude-device)");
		else
			tw_out_printf(out, "no device to judge: the agent publishes no disk");
		return TW_STATE_UNKNOWN;
	}
	if (nbad == 0)
		tw_out_printf(out, "%zu device%s OK in the last %u s; highest r_await %s ms (%s), "
		    "w_await %s ms (%s)", judged, judged == 1 ? "" : "s", p->window_s,
		    tw_plugin_num(a, sizeof(a), top_r, 1),
		    top_r >= 0 ? label(&top_r_dev, lr, sizeof(lr)) : "",
		    tw_plugin_num(b, sizeof(b), top_w, 1),
		    top_w >= 0 ? label(&top_w_dev, lw, sizeof(lw)) : "");
	return worst;
}

static struct tw_check check = {
	.progname = "check_disklatency",
	.service = "DISKLATENCY",
	.purpose =
	    "This plugin checks the read and write latency of each disk over tunewatchd's\n"
	    "window (iostat's r_await and w_await: time spent per completed request,\n"
	    "queueing included), optionally its queue depth and utilisation, and names the\n"
	    "queue tunable to turn when one is too high.",
	.wc_what = "read latency (r_await) in milliseconds",
	.default_warn = TW_JUDGE_READ_WARN,
	.default_crit = TW_JUDGE_READ_CRIT,
	.longopts = longopts,
	.options_help =
	    " --write-warning=RANGE, --write-critical=RANGE\n"
	    "    Ranges for write latency (w_await) in milliseconds (default 50 and 200)\n"
	    " --queue-warning=RANGE, --queue-critical=RANGE\n"
	    "    Ranges for the average queue depth (aqu-sz); not checked by default\n"
	    " --util-warning=RANGE, --util-critical=RANGE\n"
	    "    Ranges for utilisation in percent (%util); not checked by default\n"
	    " --device=REGEX\n"
	    "    Check only devices whose name or alias matches (POSIX extended regular\n"
	    "    expression); an alias is a device-mapper or md name, such as vg0-root\n"
	    " --exclude-device=REGEX\n"
	    "    Leave out devices whose name or alias matches\n"
	    " --min-ops=NUMBER\n"
	    "    Judge latency (r_await and w_await, or with --percentile the\n"
	    "    percentile) only on devices doing at least NUMBER requests per second\n"
	    "    (default 0: all); a few slow requests on an idle disk mean little\n"
	    TW_PROBE_OPTIONS_HELP,
	    .notes =
	    "Notes:\n"
	    " Which devices tunewatchd watches is its own setting (loop, ram, zram devices,\n"
	    " partitions and the paths of a multipath head are left out by default);\n"
	    " --device narrows it further. A device is named with its alias beside it:\n"
	    " dm-3 (vg0-root).\n"
	    " A device first seen in the newest sample has no figures yet: it is listed as\n"
	    " such in the long output and never counted as OK.\n"
	    "\nExamples:\n"
	    " check_disklatency -H db1 -C public -w 10 -c 30\n"
	    " check_disklatency -H db1 --device '^nvme' -w 2 -c 5 --util-warning 90\n"
	    " check_disklatency -H db1 --device '^vg0-root$' -w 10 -c 30\n"
	    " check_disklatency -H db1 --percentile 99 -w 20 -c 50\n"
	    " check_disklatency --local --delay 5",
	/* The buffer cache for twBcDirtyLimited: whether writers wait on
	 * the writes (tw_judge_write_bound). */
	.fetch = TW_FETCH_DISKS | TW_FETCH_TUNABLES | TW_FETCH_BUFCACHE,
	.changes = TW_CHANGE_FAMILY_DISKS,
	.option = option,
	.run = run,
};

int
main(int argc, char **argv)
{
	int rc;

	/* The defaults --help states (lib/finding's); an option replaces
	 * them. */
	tw_judge_defaults(&cfg.judge);
	rc = tw_plugin_main(&check, argc, argv);
	tw_namefilter_free(&cfg.devices);
	return rc;
}
