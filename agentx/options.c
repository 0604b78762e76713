/* SPDX-License-Identifier: ISC */
#include "config.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "options.h"

#include "probe/probe.h"
#include "reqlat/reqlatconf.h"
#include "util/error.h"
#include "util/scan.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/cgroups.h"
#include "sockets/sockwatch.h"

/* What the command line set, so the configuration file does not override
 * it. */
static struct {
	int proc_root, sys_root, interval, window, user;
} from_cmdline;

static struct tw_agent_options *config_target;

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

static int
parse_seconds(const char *text, unsigned *out)
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

static void
replace(char **dst, const char *src)
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
			replace(&o->proc_root, optarg);
			from_cmdline.proc_root = 1;
			break;
		case OPT_SYS_ROOT:
			replace(&o->sys_root, optarg);
			from_cmdline.sys_root = 1;
			break;
		case OPT_INTERVAL:
			if (parse_seconds(optarg, &o->interval) != 0) {
				fprintf(stderr, TW_AGENT_NAME ": --interval wants 1 to 86400 seconds, "
				    "not '%s'\n", optarg);
				return -1;
			}
			from_cmdline.interval = 1;
			break;
		case OPT_WINDOW:
			if (parse_seconds(optarg, &o->window) != 0) {
				fprintf(stderr, TW_AGENT_NAME ": --window wants 1 to 86400 seconds, "
				    "not '%s'\n", optarg);
				return -1;
			}
			from_cmdline.window = 1;
			break;
		case OPT_USER:
			replace(&o->user, optarg);
			from_cmdline.user = 1;
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

/* ---- tunewatchd.conf -------------------------------------------------- */

/* A probe line; a bad one is reported with its file and line (by
 * config_perror) and ignored. */
static void
add_probe(struct tw_agent_options *o, const char *value)
{
	struct tw_probe_spec spec, *grown;
	char err[160];

	if (tw_probeconf_parse(value, &spec, err, sizeof(err)) != TW_OK) {
		config_perror(err);
		return;
	}
	grown = realloc(o->probes, (o->nprobes + 1) * sizeof(*o->probes));
	if (grown == NULL) {
		config_perror("probe: out of memory");
		return;
	}
	o->probes = grown;
	o->probes[o->nprobes++] = spec;
}

/* Several diskInclude (or diskExclude) lines mean any of them. */
static void
add_alternative(char **dst, const char *expr)
{
	char *joined;
	size_t len;

	if (*dst == NULL) {
		*dst = strdup(expr);
		return;
	}
	len = strlen(*dst) + strlen(expr) + 6;
	joined = malloc(len);
	if (joined == NULL)
		return;
	snprintf(joined, len, "(%s)|(%s)", *dst, expr);
	free(*dst);
	*dst = joined;
}

/* The sockets that drop (twSocketDropTable): how far the owner search
 * may go for one socket and in one sample, and whether to ask sock_diag
 * for buffers. */
static void
parse_socket_token(struct tw_agent_options *o, const char *token, const char *value)
{
	char *end;
	unsigned long v;

	if (strcmp(token, "sockOwnerProcesses") == 0) {
		v = strtoul(value, &end, 10);
		if (*value < '1' || *value > '9' || *end != '\0' || v > 4194304)
			config_perror("sockOwnerProcesses wants 1 to 4194304 processes");
		else
			o->sock_owner_procs = (unsigned)v;
	} else if (strcmp(token, "sockOwnerBudget") == 0) {
		v = strtoul(value, &end, 10);
		if (*value < '0' || *value > '9' || *end != '\0' ||
		    v > TW_SOCK_OWNER_BUDGET_MS_MAX) {
			config_perror("sockOwnerBudget wants 0 (no bound) to 10000 milliseconds");
		} else {
			o->sock_owner_budget_ms = (unsigned)v;
			o->sock_owner_budget_given = 1;
		}
	} else if (strcmp(value, "yes") == 0) {
		o->no_sock_diag = 0;
	} else if (strcmp(value, "no") == 0) {
		o->no_sock_diag = 1;
	} else {
		config_perror("socketBuffers wants yes or no");
	}
}

static void
parse_reqlat_token(struct tw_agent_options *o, const char *token, const char *value)
{
	char err[160];
	int on;

	if (strcmp(token, "requestLatency") == 0) {
		if (tw_reqlatconf_switch(value, &on, err, sizeof(err)) != TW_OK)
			config_perror(err);
		else
			o->reqlat_off = !on;
	} else if (strcmp(token, "requestLatencyIssueClock") == 0) {
		if (tw_reqlatconf_clock(value, &o->reqlat_program_clock, err, sizeof(err)) != TW_OK)
			config_perror(err);
	} else if (tw_reqlatconf_devices(value, &o->reqlat_devices, err, sizeof(err)) != TW_OK) {
		config_perror(err);
	}
}

static void
parse_token(const char *token, char *line)
{
	struct tw_agent_options *o = config_target;
	char *value = tw_trim(line);

	if (*value == '\0') {
		config_perror("a value is needed");
		return;
	}
	if (strcmp(token, "interval") == 0) {
		unsigned v;

		if (parse_seconds(value, &v) != 0)
			config_perror("interval wants 1 to 86400 seconds");
		else if (!from_cmdline.interval)
			o->interval = v;
	} else if (strcmp(token, "window") == 0) {
		unsigned v;

		if (parse_seconds(value, &v) != 0)
			config_perror("window wants 1 to 86400 seconds");
		else if (!from_cmdline.window)
			o->window = v;
	} else if (strcmp(token, "procRoot") == 0) {
		if (!from_cmdline.proc_root)
			replace(&o->proc_root, value);
	} else if (strcmp(token, "sysRoot") == 0) {
		if (!from_cmdline.sys_root)
			replace(&o->sys_root, value);
	} else if (strcmp(token, "user") == 0) {
		if (!from_cmdline.user)
			replace(&o->user, value);
	} else if (strcmp(token, "diskInclude") == 0) {
		add_alternative(&o->disk_include, value);
	} else if (strcmp(token, "diskExclude") == 0) {
		add_alternative(&o->disk_exclude, value);
	} else if (strcmp(token, "probe") == 0) {
		add_probe(o, value);
	} else if (strcmp(token, "probeTimeout") == 0) {
		if (tw_probeconf_seconds(value, 1, TW_PROBE_MAX_TIMEOUT_S, &o->probe_timeout_s) !=
		    TW_OK)
			config_perror("probeTimeout wants 1 to 60 seconds");
	} else if (strcmp(token, "probeIdleTime") == 0) {
		if (tw_probeconf_seconds(value, 0, 86400 * 7, &o->probe_idle_s) != TW_OK)
			config_perror("probeIdleTime wants 0 (never skip) to 604800 seconds");
	} else if (strcmp(token, "hitRatio") == 0) {
		if (strcmp(value, "yes") == 0)
			o->no_procio = 0;
		else if (strcmp(value, "no") == 0)
			o->no_procio = 1;
		else
			config_perror("hitRatio wants yes or no");
	} else if (strcmp(token, "sockOwnerProcesses") == 0 ||
	    strcmp(token, "sockOwnerBudget") == 0 || strcmp(token, "socketBuffers") == 0) {
		parse_socket_token(o, token, value);
	} else if (strcmp(token, "cgroupMax") == 0) {
		char *end;
		unsigned long v = strtoul(value, &end, 10);

		if (*value < '0' || *value > '9' || *end != '\0' || v > TW_CGROUPS_MAX_LIMIT) {
			config_perror("cgroupMax wants 0 to 4096 cgroups");
		} else {
			o->cgroup_max = (unsigned)v;
			o->cgroup_max_given = 1;
		}
	} else if (strncmp(token, "requestLatency", 14) == 0) {
		parse_reqlat_token(o, token, value);
	} else if (strcmp(token, "cgroupRescan") == 0) {
		unsigned v;

		if (parse_seconds(value, &v) != 0)
			config_perror("cgroupRescan wants 1 to 86400 seconds");
		else
			o->cgroup_rescan = v;
	}
}

void
tw_options_register_config(struct tw_agent_options *o)
{
	config_target = o;
	register_app_config_handler("interval", parse_token, NULL, "SECONDS");
	register_app_config_handler("window", parse_token, NULL, "SECONDS");
	register_app_config_handler("procRoot", parse_token, NULL, "DIRECTORY");
	register_app_config_handler("sysRoot", parse_token, NULL, "DIRECTORY");
	register_app_config_handler("user", parse_token, NULL, "USER");
	register_app_config_handler("diskInclude", parse_token, NULL, "REGEX");
	register_app_config_handler("diskExclude", parse_token, NULL, "REGEX");
	register_app_config_handler("hitRatio", parse_token, NULL, "yes|no");
	register_app_config_handler("sockOwnerProcesses", parse_token, NULL, "PROCESSES");
	register_app_config_handler("sockOwnerBudget", parse_token, NULL, "MILLISECONDS");
	register_app_config_handler("socketBuffers", parse_token, NULL, "yes|no");
	register_app_config_handler("probe", parse_token, NULL, "DEVICE [RATE]");
	register_app_config_handler("probeTimeout", parse_token, NULL, "SECONDS");
	register_app_config_handler("probeIdleTime", parse_token, NULL, "SECONDS");
	register_app_config_handler("cgroupMax", parse_token, NULL, "CGROUPS");
	register_app_config_handler("cgroupRescan", parse_token, NULL, "SECONDS");
	register_app_config_handler("requestLatency", parse_token, NULL, "yes|no");
	register_app_config_handler("requestLatencyDevices", parse_token, NULL, "DEVICES");
	register_app_config_handler("requestLatencyIssueClock", parse_token, NULL,
	    "kernel|program");
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
