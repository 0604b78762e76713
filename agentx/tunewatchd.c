/* SPDX-License-Identifier: ISC */
/* tunewatchd: the AgentX subagent that publishes TUNEWATCH-MIB.
 *
 * It samples /proc and /sys on a timer into memory and answers every
 * request from the view built at the last sample: a request never reads a
 * file, because the master drops a subagent that is slow to answer. */
#include "config.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>
#include <net-snmp/agent/agent_callbacks.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "changenotify.h"
#include "findconf.h"
#include "findnotify.h"
#include "mibhandler.h"
#include "monitor/monitor.h"
#include "notify.h"
#include "options.h"
#include "privdrop.h"
#include "probes.h"
#include "reqlathooks.h"
#include "sample/sampler.h"
#include "sockets/sockwatch.h"
#include "util/error.h"
#include "view/build.h"

static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t sample_requested;

static struct tw_monitor *monitor;
static int connected;		/* to the master, as far as we know */
static int told_waiting;	/* said once that the master is not there */

static void
on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void
on_sample(int sig)
{
	(void)sig;
	sample_requested = 1;
}

/* The notification counters in the twFindings scalars (which are there
 * only while findings are on); they move between samples too, as the
 * queue drains. */
static void
publish_notify_counts(void)
{
	struct tw_view_notify_counts vc;
	struct tw_notify_counts c;

	tw_notify_counts(&c);
	vc.suppressed = c.suppressed;
	vc.dropped = c.dropped;
	vc.sent = c.sent;
	vc.per_minute = c.per_minute;
	tw_monitor_notify_counts(monitor, &vc);
}

/* Looks at UDP memory between samples (monitor.h), while drops no counter
 * counted are being found: one alarm at a time, each 10 to 40 ms after the
 * last, the gaps uneven so that a burst as periodic as the samples is not
 * missed every time (the lab's net-udp-mem, five a second). */
static unsigned int look_reg;
static unsigned int look_turn;

static void
look(unsigned int reg, void *arg)
{
	struct timeval gap;

	(void)reg;
	(void)arg;
	look_reg = 0;
	if (!tw_monitor_look(monitor))
		return;
	look_turn++;
	gap.tv_sec = 0;
	gap.tv_usec = (suseconds_t)(10 + (look_turn * 13) % 31) * 1000;
	look_reg = snmp_alarm_register_hr(gap, 0, look, NULL);
}

static void
start_looks(void)
{
	if (look_reg == 0 && tw_monitor_looking(monitor))
		look(0, NULL);
}

static void
take_sample(unsigned int reg, void *arg)
{
	int rc;

	(void)reg;
	(void)arg;
	rc = tw_monitor_sample(monitor);
	if (rc != TW_OK) {
		snmp_log(LOG_ERR, TW_AGENT_NAME ": sample failed: %s; serving the previous one\n",
		    tw_strerror(rc));
	} else {
		tw_agent_changes_step(monitor);
		/* What changed in this sample goes out as notifications; what
		 * the limit holds back or the queue cannot take is counted, and
		 * stays in twFindingTable. */
		tw_findnotify_send(monitor);
		publish_notify_counts();
		start_looks();
	}
	tw_agent_reqlat_tick(monitor);
}

/* The master may come and go; say so once each way, not every retry. */
static int
on_master_up(int major, int minor, void *server, void *client)
{
	(void)major;
	(void)minor;
	(void)client;
	tw_mibhandler_direct(server);
	tw_notify_master(server);
	if (!connected)
		snmp_log(LOG_NOTICE, TW_AGENT_NAME ": registered with the master agent\n");
	connected = 1;
	told_waiting = 0;
	return 0;
}

static int
on_master_down(int major, int minor, void *server, void *client)
{
	(void)major;
	(void)minor;
	(void)server;
	(void)client;
	tw_notify_master(NULL);
	if (connected)
		snmp_log(LOG_WARNING, TW_AGENT_NAME ": lost the master agent; reconnecting "
		    "every second\n");
	connected = 0;
	told_waiting = 1;
	return 0;
}

static void
install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_sample;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

int
main(int argc, char **argv)
{
	struct tw_agent_options opt;
	struct tw_finding_options fopt;
	struct tw_sampler_config scfg;
	char err[256];
	int rc;

	/* Numeric OIDs only: load no MIB file, so there is no "Cannot find
	 * module" noise and no start-up cost. */
	setenv("MIBS", "", 1);
	if (tw_options_parse(&opt, argc, argv) != 0)
		return TW_EXIT_USAGE;
	if (!opt.logging_set) {
		if (opt.foreground)
			snmp_enable_stderrlog();
		else
			snmp_enable_syslog_ident(TW_AGENT_NAME, LOG_DAEMON);
	}

	netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_ROLE, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_NO_CONNECTION_WARNINGS,
	    1);
	/* Nothing of ours is worth keeping in Net-SNMP's persistent store:
	 * neither read nor written. Not DONT_PERSIST_STATE, which also stops
	 * the configuration path from being read: tunewatchd.conf in
	 * /etc/snmp would be ignored, and with it "user" (the packaged unit
	 * passes no -c). */
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
	if (init_agent(TW_AGENT_NAME) != 0) {
		snmp_log(LOG_ERR, TW_AGENT_NAME ": cannot initialise the agent library\n");
		return TW_EXIT_OSERR;
	}
	/* The configuration tokens belong to the application type that
	 * init_agent() has just set. */
	tw_options_register_config(&opt);
	tw_findconf_register(&fopt);
	/* init_agent() sets the AgentX ping interval to 15 s; with 1 s the
	 * subagent is back within about a second of a master restart. A
	 * configuration line can still change it. */
	netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL, 1);
	snmp_register_callback(SNMP_CALLBACK_APPLICATION, SNMPD_CALLBACK_INDEX_START,
	    on_master_up, NULL);
	snmp_register_callback(SNMP_CALLBACK_APPLICATION, SNMPD_CALLBACK_INDEX_STOP,
	    on_master_down, NULL);

	if ((monitor = tw_monitor_new()) == NULL) {
		snmp_log(LOG_ERR, TW_AGENT_NAME ": out of memory\n");
		return TW_EXIT_OSERR;
	}
	/* Reads tunewatchd.conf (and -c files), then connects to the master. */
	if (tw_mibhandler_register(tw_monitor_view(monitor)) != 0) {
		snmp_log(LOG_ERR, TW_AGENT_NAME ": cannot register TUNEWATCH-MIB\n");
		return TW_EXIT_OSERR;
	}
	init_snmp(TW_AGENT_NAME);

	if (tw_options_check(&opt, err, sizeof(err)) != 0) {
		snmp_log(LOG_ERR, TW_AGENT_NAME ": %s\n", err);
		rc = TW_EXIT_CONFIG;
		goto out;
	}
	memset(&scfg, 0, sizeof(scfg));
	scfg.proc_root = opt.proc_root;
	scfg.sys_root = opt.sys_root;
	scfg.disk_include = opt.disk_include;
	scfg.disk_exclude = opt.disk_exclude;
	scfg.procio = !opt.no_procio;
	scfg.queue_refresh = opt.window / opt.interval;
	scfg.sock_owner_procs = opt.sock_owner_procs;
	scfg.sock_owner_budget_ms = opt.sock_owner_budget_given ? opt.sock_owner_budget_ms :
	    TW_SOCK_OWNER_BUDGET_MS_DEFAULT;
	scfg.sock_no_diag = opt.no_sock_diag;
	/* The cgroup hierarchy is walked every cgroupRescan seconds. */
	scfg.cgroup_rescan = (opt.cgroup_rescan ? opt.cgroup_rescan :
	    TW_CGROUPS_RESCAN_DEFAULT_S) / opt.interval;
	scfg.cgroup_max = opt.cgroup_max_given ? opt.cgroup_max : 0;
	scfg.no_cgroups = opt.cgroup_max_given && opt.cgroup_max == 0;
	rc = tw_monitor_open(monitor, &scfg, opt.interval, opt.window, PACKAGE_VERSION, err,
	    sizeof(err));
	if (rc != TW_OK) {
		snmp_log(LOG_ERR, TW_AGENT_NAME ": %s\n", err);
		rc = rc == TW_E_INVAL ? TW_EXIT_CONFIG : TW_EXIT_OSERR;
		goto out;
	}
	/* The BPF program is loaded with root, before --user takes it. */
	if (tw_agent_reqlat_open(monitor, &opt) != 0) {
		snmp_log(LOG_ERR, TW_AGENT_NAME ": cannot set up request latency: out of memory\n");
		rc = TW_EXIT_OSERR;
		goto out;
	}
	tw_monitor_changes(monitor);
	/* Tunable changes are notified with findings off too. */
	if (tw_notify_init(fopt.per_minute) != 0) {
		snmp_log(LOG_ERR, TW_AGENT_NAME ": cannot set up notifications: out of memory\n");
		rc = TW_EXIT_OSERR;
		goto out;
	}
	if (!fopt.off) {
		rc = tw_monitor_findings(monitor, &fopt.judge, fopt.raise_after, fopt.clear_after);
		if (rc != TW_OK) {
			snmp_log(LOG_ERR, TW_AGENT_NAME ": cannot set up findings: %s\n",
			    tw_strerror(rc));
			rc = TW_EXIT_OSERR;
			goto out;
		}
	}
	take_sample(0, NULL);
	/* The probed devices are opened with root, read after the fork. */
	if (tw_agent_probes_open(monitor, &opt, opt.window / opt.interval) != 0) {
		snmp_log(LOG_ERR, TW_AGENT_NAME ": cannot set up the probes: out of memory\n");
		rc = TW_EXIT_OSERR;
		goto out;
	}

	if (opt.user != NULL) {
		rc = tw_privdrop(opt.user, err, sizeof(err));
		if (rc != 0) {
			snmp_log(LOG_ERR, TW_AGENT_NAME ": %s\n", err);
			rc = rc == -1 ? TW_EXIT_NOUSER : TW_EXIT_OSERR;
			goto out;
		}
	}
	if (!opt.foreground && netsnmp_daemonize(1, !opt.logging_set ? 0 : 1) != 0) {
		snmp_log(LOG_ERR, TW_AGENT_NAME ": cannot go into the background\n");
		rc = TW_EXIT_OSERR;
		goto out;
	}
	install_signals();
	tw_agent_probes_run();
	snmp_alarm_register(opt.interval, SA_REPEAT, take_sample, NULL);
	snmp_log(LOG_INFO, TW_AGENT_NAME " " PACKAGE_VERSION ": sampling every %u s over %u s\n",
	    opt.interval, opt.window);
	if (!connected && !told_waiting) {
		snmp_log(LOG_WARNING, TW_AGENT_NAME ": no master agent yet; retrying every "
		    "second\n");
		told_waiting = 1;
	}

	while (!stop_requested) {
		agent_check_and_process(1);
		/* The master's answers were read in that turn: what they let
		 * go goes now. */
		tw_notify_flush();
		publish_notify_counts();
		if (sample_requested) {
			sample_requested = 0;
			take_sample(0, NULL);
		}
	}
	snmp_log(LOG_INFO, TW_AGENT_NAME ": stopping\n");
	rc = TW_EXIT_OK;
out:
	snmp_shutdown(TW_AGENT_NAME);
	tw_notify_free();
	tw_monitor_close(monitor);
	tw_agent_probes_close();
	tw_options_free(&opt);
	return rc;
}
