/* What the three checks share: options, the Monitoring Plugins output
 * contract, the timeout, and getting a view (over SNMP from tunewatchd, or
 * with --local from this host's /proc).
 *
 * A check is a table of its own options, a --help paragraph and a run()
 * that turns a view into a state and output. Everything else, including
 * every UNKNOWN for a reason that is not the check's (no answer, no
 * tunewatchd, a window still filling, a bad argument), is here, so the
 * three checks behave alike. */
#ifndef TW_PLUGIN_H
#define TW_PLUGIN_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "advice.h"
#include "advice_evidence.h"
#include "devfilter.h"
#include "perfdata.h"
#include "range.h"
#include "snmpsource.h"
#include "state.h"
#include "view.h"

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
	struct tw_range warn;		/* -w: what it thresholds is the check's */
	struct tw_range crit;		/* -c */
	int has_warn;
	int has_crit;
	unsigned window_s;		/* the view's window, for "in the last N s" */
	struct tw_snmp_stats stats;
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
	/* A check option: return 0, or -1 with one line in err. */
	int (*option)(int opt, const char *arg, char *err, size_t errlen);
	enum tw_state (*run)(const struct tw_plugin *p, const struct tw_view *v,
	    struct tw_out *out);
};

/* Run the check and return the exit code. */
int tw_plugin_main(const struct tw_check *chk, int argc, char **argv);

/* Parse a threshold option's range; -1 with a message in err. */
int tw_plugin_range(const char *opt, const char *arg, struct tw_range *r, char *err, size_t errlen);

/* Set one side of a name filter from a regular-expression option; -1 with a
 * message in err. */
int tw_plugin_filter(const char *opt, const char *arg, struct tw_devfilter *f,
    enum tw_devfilter_side side, char *err, size_t errlen);

/* Append the "tune:" advice for symptom sym to out: the first rule that
 * names a tunable on p->os and has something to change (with -v, every
 * rule, followed by the other systems' names), with current values from
 * lookup (NULL: the view's tunable table) and detail as the evidence. A
 * per-device tunable is named /sys/block/<device>/queue/... when device is
 * given. Returns how many lines were added. */
int tw_plugin_advise(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    enum tw_symptom sym, tw_advice_lookup_fn lookup, void *ctx, const char *device,
    const char *detail);

/* The advice for what a verdict found: a "tune:" line for each finding,
 * its figures as the evidence, or one "no tunable: ..." line when no
 * precondition holds. Returns how many lines were added. */
int tw_plugin_verdict(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    const struct tw_verdict *verdict, tw_advice_lookup_fn lookup, void *ctx, const char *device);

/* The view's tunable value of name, for tw_advice lookups (ctx: view);
 * "kernel.osrelease" is the agent's release. */
const char *tw_plugin_view_lookup(void *ctx, const char *name);

/* Current values for advice about one device: its queue attributes
 * ("queue/nr_requests") from its disk row, anything else from the view's
 * tunables. */
struct tw_device_lookup {
	const struct tw_view *v;
	const struct tw_view_disk *d;
	char buf[32];
};

const char *tw_plugin_device_lookup(void *ctx, const char *name);

/* A number for a summary or long output line, locale-independent. */
const char *tw_plugin_num(char *buf, size_t len, double v, unsigned precision);

#endif
