/* SPDX-License-Identifier: ISC */
/* tunewatchd.conf: its lines, read through Net-SNMP's configuration
 * handlers; a setting given on the command line wins. */
#include "config.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include "options_priv.h"

#include "probe/probe.h"
#include "reqlat/reqlatconf.h"
#include "util/error.h"
#include "util/scan.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample/cgroups.h"
#include "sockets/sockwatch.h"

static struct tw_agent_options *config_target;

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

		if (tw_options_parse_seconds(value, &v) != 0)
			config_perror("interval wants 1 to 86400 seconds");
		else if (!tw_options_from_cmdline.interval)
			o->interval = v;
	} else if (strcmp(token, "window") == 0) {
		unsigned v;

		if (tw_options_parse_seconds(value, &v) != 0)
			config_perror("window wants 1 to 86400 seconds");
		else if (!tw_options_from_cmdline.window)
			o->window = v;
	} else if (strcmp(token, "procRoot") == 0) {
		if (!tw_options_from_cmdline.proc_root)
			tw_options_replace(&o->proc_root, value);
	} else if (strcmp(token, "sysRoot") == 0) {
		if (!tw_options_from_cmdline.sys_root)
			tw_options_replace(&o->sys_root, value);
	} else if (strcmp(token, "user") == 0) {
		if (!tw_options_from_cmdline.user)
			tw_options_replace(&o->user, value);
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

		if (tw_options_parse_seconds(value, &v) != 0)
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
