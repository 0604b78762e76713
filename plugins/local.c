/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "local.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "sample/sampler.h"
#include "util/error.h"

static int
sleep_seconds(unsigned s)
{
	struct timespec ts = { (time_t)s, 0 };

	while (nanosleep(&ts, &ts) != 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

int
tw_plugin_local_view(const struct tw_plugin *p, struct tw_monitor **mp, char *err,
    size_t errlen)
{
	struct tw_sampler_config cfg;
	struct tw_monitor *m;
	int rc;

	if ((m = *mp = tw_monitor_new()) == NULL) {
		snprintf(err, errlen, "out of memory");
		return TW_E_NOMEM;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.proc_root = p->proc_root;
	cfg.sys_root = p->sys_root;
	cfg.procio = 1;
	/* Cgroups only for a check that judges them; then every cgroup that
	 * qualifies, since the check picks its own, and one walk for both
	 * samples, so that each has two samples for its rates. */
	cfg.no_cgroups = !p->cgroups;
	cfg.cgroup_max = TW_CGROUPS_MAX_LIMIT;
	cfg.cgroup_rescan = 2;
	/* Timing requests, every device is sampled, so that --device may name a
	 * loop device; without --device the check leaves out what the default
	 * filter would (reqlatcheck.c). */
	if (p->reqlat)
		cfg.disk_exclude = "^$";
	rc = tw_monitor_open(m, &cfg, p->delay_s, p->delay_s, PACKAGE_VERSION, err, errlen);
	if (rc != TW_OK)
		return rc;
	/* Requests are timed between the two samples, by this process: a
	 * fixture's devices are not the kernel's. */
	if (p->reqlat) {
		struct tw_reqlat_config rc_cfg;

		memset(&rc_cfg, 0, sizeof(rc_cfg));
		rc_cfg.off = p->proc_root != NULL || p->sys_root != NULL;
		rc_cfg.off_reason = "--proc-root or --sys-root: the kernel's requests are not of "
		    "those devices";
		if ((rc = tw_monitor_reqlat(m, &rc_cfg)) != TW_OK) {
			snprintf(err, errlen, "cannot set up request latency: %s", tw_strerror(rc));
			return rc;
		}
	}
	if ((rc = tw_monitor_sample(m)) != TW_OK || sleep_seconds(p->delay_s) != 0 ||
	    (rc = tw_monitor_sample(m)) != TW_OK) {
		snprintf(err, errlen, "cannot sample %s: %s", p->proc_root ? p->proc_root : "/proc",
		    tw_strerror(rc));
		return rc != TW_OK ? rc : TW_E_IO;
	}
	return TW_OK;
}
