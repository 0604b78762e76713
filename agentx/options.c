/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "options.h"
#include "options_priv.h"

#include "probe/probe.h"
#include "reqlat/reqlatconf.h"
#include "util/error.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/cgroups.h"
#include "sockets/sockwatch.h"

struct tw_options_cmdline tw_options_from_cmdline;

static void
usage(FILE *out)
{
	fprintf(out,
	    "Usage: " TW_AGENT_NAME " [OPTIONS]\n"
	    "An AgentX subagent that publishes TUNEWATCH-MIB: buffer cache, message-buffer\n"
	    "pools (dblocks), disk latency and the kernel tunables behind them.\n"
	    "\n"
	    "  -f                  stay in the foreground (log to stderr unless -L says otherwise)\n"
	    "  -x ADDRESS          the master agent's AgentX address (default: snmpd's socket)\n"
	    "  -L[efos...]         logging, as snmpd's -L (-Le stderr, -Lf FILE, -Lsd syslog)\n"
	    "  -C                  do not read the default configuration files\n"
	    "  -c FILE[,FILE...]   read these configuration files too\n"
	    "  -D[TOKEN,...]       turn on Net-SNMP debugging output for these tokens\n"
	    "  --proc-root DIR     read /proc from DIR (default /proc)\n"
	    "  --sys-root DIR      read /sys from DIR (default /sys)\n"
	    "  --interval SECONDS  sample every SECONDS (default %d)\n"
	    "  --window SECONDS    compute rates and averages over SECONDS (default %d)\n"
	    "  --user NAME         after start-up, run as user NAME\n"
	    "  -h, --help          show this help\n"
	    "  -V, --version       show the version\n"
	    "\n"
	    "Configuration: tunewatchd.conf in Net-SNMP's configuration path (e.g. /etc/snmp),\n"
	    "with the tokens interval, window, procRoot, sysRoot, user, diskInclude REGEX,\n"
	    "diskExclude REGEX (each may repeat), hitRatio yes|no, cgroupMax N,\n"
	    "cgroupRescan SECONDS, sockOwnerProcesses N, sockOwnerBudget MS,\n"
	    "socketBuffers yes|no, for the active latency probe (off by default)\n"
	    "probe DEVICE [RATE] (may repeat), probeTimeout SECONDS and\n"
	    "probeIdleTime SECONDS; for the distribution of every request (BPF, on by\n"
	    "default) requestLatency yes|no, requestLatencyDevices N and\n"
	    "requestLatencyIssueClock kernel|program; findings yes|no,\n"
	    "findingRaiseAfter, findingClearAfter, notificationsPerMinute and the checks'\n"
	    "thresholds (readLatencyWarning RANGE, ...): see tunewatchd.conf(5).\n"
	    "Signals: SIGUSR1 takes a sample now; SIGTERM and SIGINT stop the agent.\n"
	    "Exit codes: 0 stopped normally, 64 bad option, 67 unknown user, 71 the system\n"
	    "refused (roots, privileges), 78 bad configuration.\n",
	    TW_DEFAULT_INTERVAL, TW_DEFAULT_WINDOW);
}

int
tw_options_parse_seconds(const char *text, unsigned *out)
{
	char *end;
	unsigned long v;

	if (text == NULL || *text < '0' || *text > '9')
		return -1;
	v = strtoul(text, &end, 10);
	if (*end != '\0' || v < 1 || v > 86400)
		return -1;
	*out = (unsigned)v;
	return 0;
}

void
tw_options_replace(char **dst, const char *src)
{
	free(*dst);
	*dst = strdup(src);
}

enum {
	OPT_PROC_ROOT = 256,
	OPT_SYS_ROOT,
	OPT_INTERVAL,
	OPT_WINDOW,
	OPT_USER,
};

int
tw_options_parse(struct tw_agent_options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "proc-root", required_argument, NULL, OPT_PROC_ROOT },
		{ "sys-root", required_argument, NULL, OPT_SYS_ROOT },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "user", required_argument, NULL, OPT_USER },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->interval = TW_DEFAULT_INTERVAL;
	o->window = TW_DEFAULT_WINDOW;
	o->probe_timeout_s = TW_PROBE_DEFAULT_TIMEOUT_MS / 1000;
	o->probe_idle_s = TW_PROBE_DEFAULT_IDLE_S;
	/* -Ls (the packaged unit's -Lsd) logs under our own name: Net-SNMP's
	 * default is "net-snmp", which is what the journal's SYSLOG_IDENTIFIER
	 * and syslog's tag said, so `journalctl -t tunewatchd` found nothing. */
	snmp_log_syslogname(TW_AGENT_NAME);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":fx:L:Cc:D::hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o->foreground = 1;
			break;
		case 'x':
			o->master = optarg;
			netsnmp_ds_set_string(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_X_SOCKET,
			    optarg);
			break;
		case 'L':
			if (snmp_log_options(optarg, argc, argv) < 0) {
				fprintf(stderr, TW_AGENT_NAME ": bad logging option -L%s\n", optarg);
				return -1;
			}
			o->logging_set = 1;
			break;
		case 'C':
			netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
			    NETSNMP_DS_LIB_DONT_READ_CONFIGS, 1);
			break;
		case 'c':
			netsnmp_ds_set_string(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_OPTIONALCONFIG,
			    optarg);
			break;
		case 'D':
			debug_register_tokens(optarg != NULL ? optarg : "ALL");
			snmp_set_do_debugging(1);
			break;
		case OPT_PROC_ROOT:
			tw_options_replace(&o->proc_root, optarg);
			tw_options_from_cmdline.proc_root = 1;
			break;
		case OPT_SYS_ROOT:
			tw_options_replace(&o->sys_root, optarg);
			tw_options_from_cmdline.sys_root = 1;
			break;
		case OPT_INTERVAL:
			if (tw_options_parse_seconds(optarg, &o->interval) != 0) {
				fprintf(stderr, TW_AGENT_NAME ": --interval wants 1 to 86400 seconds, "
				    "not '%s'\n", optarg);
				return -1;
			}
			tw_options_from_cmdline.interval = 1;
			break;
		case OPT_WINDOW:
			if (tw_options_parse_seconds(optarg, &o->window) != 0) {
				fprintf(stderr, TW_AGENT_NAME ": --window wants 1 to 86400 seconds, "
				    "not '%s'\n", optarg);
				return -1;
			}
			tw_options_from_cmdline.window = 1;
			break;
		case OPT_USER:
			tw_options_replace(&o->user, optarg);
			tw_options_from_cmdline.user = 1;
			break;
		case 'h':
			usage(stdout);
			exit(TW_EXIT_OK);
		case 'V':
			printf(TW_AGENT_NAME " " PACKAGE_VERSION " (Net-SNMP %s)\n",
			    netsnmp_get_version());
			exit(TW_EXIT_OK);
		case ':':
			fprintf(stderr, TW_AGENT_NAME ": option '%s' needs an argument\n",
			    argv[optind - 1]);
			return -1;
		default:
			fprintf(stderr, TW_AGENT_NAME ": unknown option '%s' (try --help)\n",
			    argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, TW_AGENT_NAME ": unexpected argument '%s' (try --help)\n",
		    argv[optind]);
		return -1;
	}
	return 0;
}

int
tw_options_check(const struct tw_agent_options *o, char *err, size_t errlen)
{
	if (o->window < o->interval) {
		snprintf(err, errlen, "the window (%u s) is shorter than the interval (%u s)",
		    o->window, o->interval);
		return -1;
	}
	return 0;
}

void
tw_options_free(struct tw_agent_options *o)
{
	free(o->proc_root);
	free(o->sys_root);
	free(o->user);
	free(o->disk_include);
	free(o->disk_exclude);
	free(o->probes);
	memset(o, 0, sizeof(*o));
}
