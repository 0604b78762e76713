/* SPDX-License-Identifier: ISC */
/* tunewatchd's settings: the command line, in Net-SNMP's manner, and
 * tunewatchd.conf, read through Net-SNMP's configuration API so that it can
 * live in /etc/snmp beside snmpd.conf. The command line wins. */
#ifndef TW_OPTIONS_H
#define TW_OPTIONS_H

#include <stddef.h>

#include "probe/probeconf.h"

#define TW_AGENT_NAME "tunewatchd"
#define TW_DEFAULT_INTERVAL 5
#define TW_DEFAULT_WINDOW 60

struct tw_agent_options {
	int foreground;
	int logging_set;	/* a -L option was given */
	const char *master;	/* -x: the master's AgentX address */
	char *proc_root;
	char *sys_root;
	unsigned interval;
	unsigned window;
	char *user;
	char *disk_include;	/* alternation of every diskInclude */
	char *disk_exclude;	/* alternation of every diskExclude; NULL: default */
	int no_procio;		/* hitRatio no: skip /proc/[pid]/io */
	unsigned sock_owner_procs;	/* sockOwnerProcesses; 0: the default */
	int sock_owner_budget_given;	/* sockOwnerBudget MS (0: no bound) */
	unsigned sock_owner_budget_ms;
	int no_sock_diag;	/* socketBuffers no: no sock_diag query */
	/* The active probe (probe, probeTimeout, probeIdleTime lines). */
	struct tw_probe_spec *probes;
	size_t nprobes;
	unsigned probe_timeout_s;
	unsigned probe_idle_s;
	int cgroup_max_given;	/* cgroupMax N: publish at most N cgroups */
	unsigned cgroup_max;	/* 0: read no cgroups */
	unsigned cgroup_rescan;	/* cgroupRescan: seconds between walks; 0: default */
	int reqlat_off;		/* requestLatency no */
	unsigned reqlat_devices;	/* requestLatencyDevices; 0: the default */
	int reqlat_program_clock;	/* requestLatencyIssueClock program */
};

/* Exit codes, after sysexits(3). */
enum {
	TW_EXIT_OK = 0,
	TW_EXIT_USAGE = 64,	/* a bad option */
	TW_EXIT_NOUSER = 67,	/* --user names no user */
	TW_EXIT_OSERR = 71,	/* the system refused: roots, privileges, fork */
	TW_EXIT_CONFIG = 78,	/* a bad setting */
};

/* Parse the command line. Net-SNMP's own options (-C, -c, -D, -L, -x) take
 * effect in its default store at once. Returns -1 and prints one line on a
 * bad option; exits after --help or --version. */
int tw_options_parse(struct tw_agent_options *o, int argc, char **argv);

/* Register tunewatchd.conf's tokens; call before init_snmp(). */
void tw_options_register_config(struct tw_agent_options *o);

/* Check the settings once the configuration has been read. Returns -1 and
 * writes one line to err when they cannot work together. */
int tw_options_check(const struct tw_agent_options *o, char *err, size_t errlen);

void tw_options_free(struct tw_agent_options *o);

#endif
