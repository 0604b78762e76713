/* SPDX-License-Identifier: ISC */
/* check_bufcache: the buffer cache over tunewatchd's window: the host's own
 * refaults (pages read back), a read-ahead window that holds a sequential
 * reader to small requests, writers throttled at the dirty limit, and, when
 * asked, the read hit ratio and memory pressure; and what to turn when the
 * cache is too small or the reads cannot be cached. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding/judge.h"
#include "advice/shortfall.h"
#include "advice/ticket.h"
#include "cgroupcheck.h"
#include "changes.h"
#include "advise.h"
#include "cmdline.h"
#include "plugin.h"
#include "report.h"
#include "util/error.h"
#include "view/record_cache.h"

enum {
	OPT_REFAULT_WARNING = TW_OPT_CHECK,
	OPT_REFAULT_CRITICAL,
	OPT_PRESSURE_WARNING,
	OPT_PRESSURE_CRITICAL,
	OPT_CGROUP,
};

static const struct option longopts[] = {
	{ "refault-warning", required_argument, NULL, OPT_REFAULT_WARNING },
	{ "refault-critical", required_argument, NULL, OPT_REFAULT_CRITICAL },
	{ "pressure-warning", required_argument, NULL, OPT_PRESSURE_WARNING },
	{ "pressure-critical", required_argument, NULL, OPT_PRESSURE_CRITICAL },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ NULL, 0, NULL, 0 },
};

static struct {
	/* -w and -c are the hit ratio's; the refault and pressure options
	 * are kept here directly. */
	struct tw_judge_config judge;
	struct tw_cgroup_check cgroups;	/* --cgroup */
} cfg;

static struct tw_check check;

static int
option(int opt, const char *arg, char *err, size_t errlen)
{
	static const struct {
		int opt;
		const char *name;
		struct tw_threshold *t;
	} map[] = {
		{ OPT_REFAULT_WARNING, "--refault-warning", &cfg.judge.refault_warn },
		{ OPT_REFAULT_CRITICAL, "--refault-critical", &cfg.judge.refault_crit },
		{ OPT_PRESSURE_WARNING, "--pressure-warning", &cfg.judge.psi_warn },
		{ OPT_PRESSURE_CRITICAL, "--pressure-critical", &cfg.judge.psi_crit },
	};
	size_t i;

	if (opt == OPT_CGROUP) {
		if (arg[0] == '\0' || cfg.cgroups.nexprs == TW_CGROUP_CHECK_EXPRS_MAX) {
			snprintf(err, errlen, "--cgroup wants a unit name, a glob or a path "
			    "(at most %d of them)", TW_CGROUP_CHECK_EXPRS_MAX);
			return -1;
		}
		cfg.cgroups.exprs[cfg.cgroups.nexprs++] = arg;
		/* Only a check of services reads the agent's cgroup table. */
		check.fetch |= TW_FETCH_CGROUPS;
		return 0;
	}
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (map[i].opt != opt)
			continue;
		return tw_plugin_threshold(map[i].name, arg, map[i].t, err, errlen);
	}
	snprintf(err, errlen, "unknown option");
	return -1;
}

/* The hit ratio's thresholds are -w and -c, with no default: a low ratio
 * alone hurts no one. The refaults' have one each unless given. */
static void
judge_config(const struct tw_plugin *p, struct tw_judge_config *j)
{
	j->hit_warn = p->warn;
	j->hit_crit = p->crit;
	if (!j->refault_warn.set)
		tw_threshold_parse(&j->refault_warn, TW_JUDGE_REFAULT_WARN);
	if (!j->refault_crit.set)
		tw_threshold_parse(&j->refault_crit, TW_JUDGE_REFAULT_CRIT);
}

/* The writeback figures, when the agent has them: the dirty limits and
 * how long writers sat at them, and the host's own reclaim. */
static void
writeback_lines(const struct tw_cache_judgement *j, struct tw_out *out)
{
	const struct tw_cache_record *bc = &j->bc;
	char a[32], b[32], d[32];

	if (tw_cache_evidence_has_dirty(bc))
		tw_out_line(out, "writers throttled at the dirty limit %s %% of the window; dirty "
		    "limit %s MiB, background %s MiB", tw_plugin_num(a, sizeof(a),
		    bc->dirty_limited_pct, 2), tw_plugin_num(b, sizeof(b),
		    bc->dirty_threshold_bytes / 1048576, 1), tw_plugin_num(d, sizeof(d),
		    tw_fig_or0(bc->dirty_bg_threshold_bytes) / 1048576, 1));
	if (tw_cache_evidence_has_dirty(bc) && j->writer != NULL)
		tw_out_line(out, "the disk that took the writes: %s, %s MiB/s, %s %% busy",
		    j->writer_rec.name, tw_plugin_num(a, sizeof(a),
		    j->writer_rec.write_bytes_s / 1048576, 1),
		    tw_plugin_num(b, sizeof(b), tw_fig_or0(j->writer_rec.util_pct), 1));
	if (tw_fig_has(bc->reclaim_s) && j->have_refaults)
		tw_out_line(out, "host-wide reclaim %s pages/s: %s of the %s refaults/s are the "
		    "host's own, the rest cgroups' at their own limits (--cgroup)",
		    tw_plugin_num(a, sizeof(a), bc->reclaim_s, 2),
		    tw_plugin_num(b, sizeof(b), j->host_refaults, 2),
		    tw_plugin_num(d, sizeof(d), bc->refaults_s, 2));
}

/* With --cgroup, the changes of its cgroups' limits alone; else those of
 * the host's cache, none of a cgroup's. */
static int
change_shown(const struct tw_view *v, const struct tw_change_record *c)
{
	if (cfg.cgroups.nexprs > 0)
		return tw_cgroup_check_change_selected(&cfg.cgroups, v, c);
	return !tw_plugin_change_is_cgroup(c);
}

static enum tw_state
run(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out)
{
	const struct tw_range *w = tw_threshold_range(&p->warn);
	const struct tw_range *c = tw_threshold_range(&p->crit);
	struct tw_cache_judgement j;
	struct tw_cache_record bc;
	char a[32], b[32], d[32], detail[300];

	/* --cgroup judges the services instead of the host. */
	if (cfg.cgroups.nexprs > 0) {
		cfg.cgroups.fwarn = cfg.judge.refault_warn;
		cfg.cgroups.fcrit = cfg.judge.refault_crit;
		cfg.cgroups.pwarn = cfg.judge.psi_warn;
		cfg.cgroups.pcrit = cfg.judge.psi_crit;
		return tw_cgroup_check_run(p, v, &cfg.cgroups, out);
	}
	/* The states are lib/finding's, as tunewatchd's findings are. */
	judge_config(p, &cfg.judge);
	tw_view_cache_record(&v->bc, &bc);
	tw_judge_cache(&cfg.judge, &bc, v, p->window_s, p->os, &j);
	if (j.have_hit)
		tw_out_figure(out, NULL, NULL, "hit_ratio", bc.hit_ratio_pct, "%", 0, w, c, 1);
	if (j.have_refaults)
		tw_out_figure(out, NULL, NULL, "refaults", bc.refaults_s, "", 0,
		    tw_threshold_range(&cfg.judge.refault_warn),
		    tw_threshold_range(&cfg.judge.refault_crit), 0);
	if (tw_fig_has(bc.major_faults_s))
		tw_out_figure(out, NULL, NULL, "major_faults", bc.major_faults_s, "", 0,
		    NULL, NULL, 0);
	if (tw_fig_has(bc.page_in_kib_s))
		tw_out_figure(out, NULL, NULL, "page_in_kib", bc.page_in_kib_s, "", 0,
		    NULL, NULL, 0);
	if (j.have_psi)
		tw_out_figure(out, NULL, NULL, "memory_pressure", bc.memory_pressure_pct, "%", 0,
		    tw_threshold_range(&cfg.judge.psi_warn),
		    tw_threshold_range(&cfg.judge.psi_crit), 1);
	if (tw_fig_has(bc.io_pressure_pct))
		tw_out_figure(out, NULL, NULL, "io_pressure", bc.io_pressure_pct, "%", 0,
		    NULL, NULL, 1);
	if (tw_fig_has(bc.cached_bytes))
		tw_out_figure(out, NULL, NULL, "cached", bc.cached_bytes, "B", 0, NULL, NULL, 0);
	if (tw_fig_has(bc.dirty_bytes))
		tw_out_figure(out, NULL, NULL, "dirty", bc.dirty_bytes, "B", 0, NULL, NULL, 0);
	if (tw_fig_has(bc.writeback_bytes))
		tw_out_figure(out, NULL, NULL, "writeback", bc.writeback_bytes, "B", 0,
		    NULL, NULL, 0);
	if (tw_cache_evidence_has_dirty(&bc))
		tw_out_figure(out, NULL, NULL, "dirty_limited", bc.dirty_limited_pct, "%", 0,
		    NULL, NULL, 1);
	if (tw_fig_has(bc.reclaim_s))
		tw_out_figure(out, NULL, NULL, "host_reclaim", bc.reclaim_s, "", 0, NULL, NULL, 0);

	/* Nothing at all to judge: no /proc/meminfo, /proc/vmstat or process
	 * counters behind the agent. */
	if (!j.have_hit && !j.have_refaults && !j.have_psi && !tw_fig_has(bc.cached_bytes)) {
		tw_out_printf(out, "no buffer-cache figures: the agent reads no /proc/meminfo, "
		    "/proc/vmstat or /proc/pressure/memory");
		return TW_STATE_UNKNOWN;
	}

	/* The summary. */
	if (j.have_hit)
		tw_out_printf(out, "read hit ratio %s %% in the last %u s",
		    tw_plugin_num(a, sizeof(a), bc.hit_ratio_pct, 2), p->window_s);
	else if (bc.method != NULL)
		tw_out_printf(out, "no file reads to judge in the last %u s", p->window_s);
	else
		tw_out_printf(out, "the agent does not estimate the hit ratio (hitRatio no)");
	if (j.have_refaults)
		tw_out_printf(out, ", %s refaults/s", tw_plugin_num(a, sizeof(a), bc.refaults_s, 2));
	if (j.have_psi)
		tw_out_printf(out, ", memory pressure %s %%", tw_plugin_num(a, sizeof(a),
		    bc.memory_pressure_pct, 2));
	if (j.refaults == TW_STATE_UNKNOWN || j.pressure == TW_STATE_UNKNOWN)
		tw_out_printf(out, " (a threshold was set on a figure the agent does not give)");

	/* Long output: how the estimate was made, and how far to trust it. */
	if (bc.method != NULL)
		tw_out_line(out, "hit ratio: an estimate (%s) over %llu processes; %llu could not be "
		    "read and are left out (other users' processes can be read only as root)",
		    bc.method, (unsigned long long)tw_fig_or0(bc.hit_ratio_processes),
		    (unsigned long long)tw_fig_or0(bc.hit_ratio_unreadable));
	if (tw_fig_has(bc.cached_bytes))
		tw_out_line(out, "page cache %s MiB, dirty %s MiB, writeback %s MiB",
		    tw_plugin_num(a, sizeof(a), bc.cached_bytes / 1048576, 1),
		    tw_plugin_num(b, sizeof(b), tw_fig_or0(bc.dirty_bytes) / 1048576, 1),
		    tw_plugin_num(d, sizeof(d), tw_fig_or0(bc.writeback_bytes) / 1048576, 1));
	tw_out_line(out, "%s refaults/s, %s major faults/s, %s KiB/s paged in, io pressure %s %%",
	    tw_plugin_num(a, sizeof(a), tw_fig_or0(bc.refaults_s), 2),
	    tw_plugin_num(b, sizeof(b), tw_fig_or0(bc.major_faults_s), 2),
	    tw_plugin_num(d, sizeof(d), tw_fig_or0(bc.page_in_kib_s), 2),
	    tw_plugin_num(detail, 32, tw_fig_or0(bc.io_pressure_pct), 2));
	writeback_lines(&j, out);

	/* Advice: what the figures show behind the symptom, or that no knob
	 * applies (lib/advice/evidence.c, chosen by lib/finding). */
	if (j.worst != TW_STATE_OK) {
		struct tw_cache_verdicts verdicts;
		struct tw_device_lookup ctx;

		tw_judge_cache_verdicts(&j, &verdicts);
		tw_device_lookup_init(&ctx, p, v, j.disk);
		/* Read-ahead advice is about the disk that read most. */
		if (verdicts.has_reads && j.disk != NULL)
			tw_plugin_verdict(p, v, out, &verdicts.reads, tw_plugin_device_lookup, &ctx,
			    j.disk, TW_TICKET_SUBJECT_CACHE);
		else if (verdicts.has_reads)
			tw_plugin_verdict(p, v, out, &verdicts.reads, NULL, NULL, NULL,
			    TW_TICKET_SUBJECT_CACHE);
		if (verdicts.has_pressure)
			tw_plugin_verdict(p, v, out, &verdicts.pressure, NULL, NULL, NULL,
			    TW_TICKET_SUBJECT_CACHE);
		/* The dirty limit is sized from what the disk wrote. */
		if (verdicts.has_dirty) {
			struct tw_device_lookup host;
			struct tw_shortfall_lookup sl;

			tw_device_lookup_init(&host, p, v, NULL);
			tw_shortfall_lookup_init(&sl, tw_plugin_device_lookup, &host,
			    verdicts.dirty_shortfall);
			tw_plugin_verdict(p, v, out, &verdicts.dirty, tw_shortfall_lookup, &sl, NULL,
			    TW_TICKET_SUBJECT_CACHE);
		}
	}
	return j.worst;
}

/* Not const: --cgroup adds the cgroup table to what is fetched. */
static struct tw_check check = {
	.progname = "check_bufcache",
	.service = "BUFCACHE",
	.purpose =
	    "This plugin checks the buffer (page) cache over tunewatchd's window: the host's\n"
	    "refaults (pages evicted and read back while still in use, the clearest sign\n"
	    "of a cache too small), a read-ahead window that holds a sequential reader to\n"
	    "small requests, writers throttled at the dirty limit, and, when asked, the\n"
	    "read hit ratio and memory pressure; and names what to turn when the cache\n"
	    "fails the reads or the writes.",
	.wc_what = "the read hit ratio in percent; not checked unless given",
	.default_warn = NULL,
	.default_crit = NULL,
	.longopts = longopts,
	.options_help =
	    " --refault-warning=RANGE, --refault-critical=RANGE\n"
	    "    Ranges for the host's refaults per second (default " TW_JUDGE_REFAULT_WARN " and "
	    TW_JUDGE_REFAULT_CRIT "): only\n"
	    "    those its own reclaim can have caused, at most its host-wide reclaim\n"
	    "    rate; a cgroup's at its own limit are --cgroup's\n"
	    " --pressure-warning=RANGE, --pressure-critical=RANGE\n"
	    "    Ranges for memory pressure in percent (PSI \"some\", 10 s average); not\n"
	    "    checked by default\n"
	    " --cgroup=EXPR\n"
	    "    Judge services instead of the host: the cgroups whose systemd unit matches\n"
	    "    EXPR (a unit name, \"nginx\" for nginx.service, or a glob: \"php*.service\")\n"
	    "    or, when EXPR holds a '/', whose path matches it (\"/system.slice/*\"). May\n"
	    "    be repeated. Each is judged on its refaults per second (--refault-warning\n"
	    "    and --refault-critical; by default " TW_CGROUP_CHECK_REFAULT_WARN " and "
	    TW_CGROUP_CHECK_REFAULT_CRIT ") and, on cgroup v2,\n"
	    "    its memory pressure (--pressure-warning and --pressure-critical); -w, -c\n"
	    "    and the host's figures are not used. UNKNOWN when none matches among the\n"
	    "    cgroups the agent publishes (up to its cgroupMax, those that refault first),\n"
	    "    saying what the agent's walk of the hierarchy left out and why. A unit at\n"
	    "    its own limit gets a ticket whose apply line is systemctl set-property\n"
	    "    --runtime (it lasts until the next boot) and whose persist line is a\n"
	    "    drop-in; a cgroup that is not a unit's own gets no command, and why\n",
	.notes =
	    "Notes:\n"
	    " Linux keeps no count of reads served from the cache, so the hit ratio is an\n"
	    " estimate: 1 - read_bytes/rchar summed over processes (/proc/[pid]/io). Reads\n"
	    " from sockets and pipes count as hits and raise it; readahead and mmap page-ins\n"
	    " are not seen; processes tunewatchd may not read (it is not root) are left out.\n"
	    " With no file reads in the window there is nothing to judge: the check is OK.\n"
	    " A low hit ratio alone hurts no one (a one-pass read of a tree has one of\n"
	    " 30-40 % and reads no page twice), so -w and -c have no default. WARNING,\n"
	    " whatever the ranges, when sequential reads fill a read-ahead window below\n"
	    " the kernel's default of 128 KiB at 100 reads/s or more, and when writers sit\n"
	    " at the dirty limit a tenth of the window or more while a disk that took\n"
	    " their writes (half of the most any disk wrote, or more) is busy less than\n"
	    " 80 %.\n"
	    "\nExamples:\n"
	    " check_bufcache -H db1 -C public\n"
	    " check_bufcache -H db1 -w 95: -c 85: --refault-warning 50 --pressure-warning 10\n"
	    " check_bufcache -H web1 --cgroup nginx.service --cgroup 'php*-fpm.service'",
	.fetch = TW_FETCH_BUFCACHE | TW_FETCH_DISKS | TW_FETCH_TUNABLES,
	.changes = TW_CHANGE_FAMILY_CACHE,
	.change_shown = change_shown,
	.option = option,
	.run = run,
};

int
main(int argc, char **argv)
{
	return tw_plugin_main(&check, argc, argv);
}
