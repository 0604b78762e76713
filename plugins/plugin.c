/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "cmdline.h"
#include "plugin.h"
#include "report.h"

#include <string.h>

#include "changes.h"
#include "local.h"
#include "monitor/monitor.h"
#include "checkio/extraopts.h"
#include "tunables.h"
#include "util/error.h"
#include "view/record_agent.h"

/* The system whose names advice uses when --os does not say: the agent's. */
static enum tw_os
os_of(const struct tw_agent_record *a)
{
	if (a->system != NULL && strncmp(a->system, "FreeBSD", 7) == 0)
		return TW_OS_FREEBSD;
	return TW_OS_LINUX;
}

int
tw_plugin_main(const struct tw_check *chk, int argc, char **argv)
{
	struct tw_plugin p;
	struct tw_monitor *m = NULL;
	struct tw_view fetched;
	struct tw_tunables tunables;
	const struct tw_view *v;
	struct tw_agent_record agent;
	struct tw_out out;
	const char *text;
	char err[512];
	char **args = NULL;
	int nargs, rc, os_given;
	unsigned samples, what;
	size_t len;
	enum tw_state st;

	tw_plugin_defaults(chk, &p);

	rc = tw_extraopts_expand(argc, argv, chk->progname, NULL, &nargs, &args, err, sizeof(err));
	if (rc != TW_OK)
		return tw_plugin_unknown(chk, "%s", err);
	if (tw_plugin_parse_args(chk, &p, nargs, args, err, sizeof(err)) != 0) {
		tw_extraopts_free(args);
		return tw_plugin_unknown(chk, "%s", err);
	}
	os_given = p.os != TW_OS_COUNT;
	/* Two tries within the time allowed, leaving room to print. */
	p.snmp.retries = 1;
	p.snmp.timeout_ms = p.timeout_s * 1000 * 2 / 5;
	tw_plugin_arm_timeout(chk, &p);

	/* The tunable table is read for advice only, and only a check that
	 * is not OK gives advice: leave it until advice asks, so that an OK
	 * check costs one round trip less. -v shows more, so read everything
	 * at once. --local has it all already. */
	what = chk->fetch;
	if (!p.local && (what & TW_FETCH_TUNABLES) && p.verbose == 0)
		what &= ~TW_FETCH_TUNABLES;
	tw_view_init(&fetched);
	tw_tunables_init(&tunables, what != chk->fetch ? &p.snmp : NULL, &p.stats);
	/* The newest changes, for the "change:" lines: one request more. */
	if (chk->changes != TW_CHANGE_FAMILY_NONE)
		what |= TW_FETCH_CHANGES;
	p.tunables = &tunables;
	p.cgroups = (what & TW_FETCH_CGROUPS) != 0;
	p.reqlat = (what & TW_FETCH_REQLATS) != 0;
	if (p.local) {
		rc = tw_plugin_local_view(&p, &m, err, sizeof(err));
		v = m != NULL ? tw_monitor_view(m) : NULL;
	} else {
		rc = tw_snmp_fetch(&p.snmp, what, &fetched, &p.stats, err, sizeof(err));
		v = &fetched;
	}
	if (rc != TW_OK) {
		rc = tw_plugin_fetch_failed(chk, &p, rc, "%s", err);
		goto out;
	}
	tw_view_agent_record(&v->agent, &agent);
	samples = tw_fig_has(agent.window_samples) ? (unsigned)agent.window_samples : 0;
	if (samples < 2) {
		rc = tw_plugin_unknown(chk, "tunewatchd's window holds %u sample%s; figures come "
		    "with the next sample (every %u s)", samples, samples == 1 ? "" : "s",
		    tw_fig_has(agent.interval_s) ? (unsigned)agent.interval_s : 0);
		goto out;
	}
	/* "in the last N s": the time the figures really cover, as
	 * tunewatchd's findings say it. */
	p.window_s = tw_view_window_s(&v->agent);
	if (!os_given)
		p.os = os_of(&agent);

	tw_out_init(&out, chk->service);
	st = chk->run(&p, v, &out);
	tw_plugin_changes(v, chk->changes, chk->change_shown, &out);
	if (tunables.rc != TW_OK) {
		/* Advice needed the table and the agent did not give it: the
		 * output would quote values nobody read. */
		tw_out_free(&out);
		rc = tw_plugin_fetch_failed(chk, &p, tunables.rc, "%s", tunables.err);
		goto out;
	}
	if (p.verbose >= 2 && !p.local)
		tw_out_line(&out, "snmp: %u round trips, %u values from %s:%u", p.stats.requests,
		    p.stats.varbinds, p.snmp.host, p.snmp.port);
	if (tw_out_finish(&out, st, &text, &len) == TW_OK)
		rc = tw_plugin_finish(text, len, (int)st);
	else
		rc = tw_plugin_unknown(chk, "out of memory while writing the output");
	tw_out_free(&out);
out:
	tw_monitor_close(m);
	tw_view_free(&fetched);
	tw_tunables_free(&tunables);
	tw_extraopts_free(args);
	return rc;
}
