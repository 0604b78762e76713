/* SPDX-License-Identifier: ISC */
/* What a check is: its table of options, --help text and run()
 * (struct tw_check), and the settings the shared options give that run
 * (struct tw_plugin). The parts of the shared run (cmdline.c, help.c,
 * report.c, local.c) include this, not plugin.h, which is built on them. */
#ifndef TW_PLUGIN_CHECK_H
#define TW_PLUGIN_CHECK_H

#include <getopt.h>
#include <stddef.h>

#include "advice/advice.h"
#include "change/figure.h"
#include "figures/change_record.h"
#include "checkio/output.h"
#include "snmptarget.h"
#include "threshold/state.h"
#include "threshold/threshold.h"
#include "view/view.h"

struct tw_tunables;

/* The defaults of -t and --delay. */
#define TW_PLUGIN_DEFAULT_TIMEOUT 10	/* -t, seconds */
#define TW_PLUGIN_DEFAULT_DELAY 3	/* --delay, seconds */

/* The settings a check's run is given, the shared options' values. */
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
	/* Which of them it shows: NULL, all; else those it returns 1 for. */
	int (*change_shown)(const struct tw_view *v, const struct tw_change_record *c);
	/* A check option: return 0, or -1 with one line in err. */
	int (*option)(int opt, const char *arg, char *err, size_t errlen);
	enum tw_state (*run)(const struct tw_plugin *p, const struct tw_view *v,
	    struct tw_out *out);
};

#endif
