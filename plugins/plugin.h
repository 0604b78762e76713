/* SPDX-License-Identifier: ISC */
/* What the three checks share: options, the Monitoring Plugins output
 * contract, the timeout, and getting a view (over SNMP from tunewatchd, or
 * with --local from this host's /proc).
 *
 * A check is a table of its own options, a --help paragraph and a run()
 * that turns a view into a state and output. Everything else, including
 * every UNKNOWN for a reason that is not the check's (no answer, no
 * tunewatchd, a window still filling, a bad argument), is here, so the
 * three checks behave alike:
 *
 *   plugin.c    the run of a check, from argv to exit code
 *   options.c   the command line; help.c  --help and --version
 *   report.c    what is printed, whole, and the timeout
 *   local.c     --local: figures sampled on this host
 *   tunables.c  the agent's tunable table, read when advice first needs it
 *   advise.c    the "tune:" lines
 *   changes.c   the "change:" lines */
#ifndef TW_PLUGIN_H
#define TW_PLUGIN_H

#include <getopt.h>
#include <stddef.h>

#include "advice/advice.h"
#include "change/figure.h"
#include "plugin/output.h"
#include "threshold/state.h"
#include "threshold/threshold.h"
#include "snmpsource.h"
#include "view/view.h"

struct tw_tunables;

struct tw_plugin {
	struct tw_snmp_target snmp;
	unsigned timeout_s;
	enum tw_state timeout_result;
	int verbose;
	int local;
	unsigned delay_s;
	const char *proc_root;
	const char *sys_root;
	enum tw_os os;			/* which system's tunable names to print */
	struct tw_threshold warn;	/* -w: what it thresholds is the check's */
	struct tw_threshold crit;	/* -c */
	unsigned window_s;		/* the view's window, for "in the last N s" */
	struct tw_snmp_stats stats;
	/* Current values for advice that the view does not hold; read from
	 * the agent on first use (see tunables.h). */
	struct tw_tunables *tunables;
	int cgroups;			/* the check reads the cgroup table */
	int reqlat;			/* the check reads twReqLatTable */
};

/* Check-specific options use values from here up. */
#define TW_OPT_CHECK 1000

struct tw_check {
	const char *progname;		/* "check_disklatency" */
	const char *service;		/* "DISKLATENCY" */
	const char *purpose;		/* the --help paragraph */
	const char *wc_what;		/* what -w and -c threshold */
	const char *default_warn;	/* NULL: none */
	const char *default_crit;
	const struct option *longopts;	/* the check's own, {0} terminated */
	const char *options_help;	/* their --help text */
	const char *notes;		/* --help notes and examples */
	unsigned fetch;			/* TW_FETCH_* the check reads */
	enum tw_change_family changes;	/* whose recent changes it reads
					   and shows (changes.h) */
	/* A check option: return 0, or -1 with one line in err. */
	int (*option)(int opt, const char *arg, char *err, size_t errlen);
	enum tw_state (*run)(const struct tw_plugin *p, const struct tw_view *v,
	    struct tw_out *out);
};

/* Run the check and return the exit code. */
int tw_plugin_main(const struct tw_check *chk, int argc, char **argv);

#endif
