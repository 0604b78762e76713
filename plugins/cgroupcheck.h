/* SPDX-License-Identifier: ISC */
/* check_bufcache --cgroup: services judged instead of the host.
 *
 * An expression is what an administrator types: a unit name
 * ("nginx.service", or "nginx", which systemctl reads as nginx.service), a
 * glob over unit names ("php*-fpm.service", "*.scope"), or, when it holds a
 * '/', a glob over cgroup paths ("/system.slice/[a-z]*", "/docker/?*"); a
 * '*' in a path glob spans '/'. A unit's name matches the unit's own
 * cgroup; the cgroups below it, a path glob. Each matching row of
 * twCgroupTable (the agent's busiest cgroups, up to its cgroupMax) is
 * judged on its refaults per second and, where the kernel has it, its
 * memory pressure. */
#ifndef TW_PLUGIN_CGROUPCHECK_H
#define TW_PLUGIN_CGROUPCHECK_H

#include <stddef.h>

#include "finding/judge.h"
#include "checkio/output.h"
#include "threshold/state.h"
#include "threshold/threshold.h"
#include "figures/change_record.h"
#include "view/view.h"

struct tw_plugin;

#define TW_CGROUP_CHECK_EXPRS_MAX 16

/* Refaults per second that warn and are critical when --refault-* do not
 * say: 100 pages/s is 400 KiB/s read back that the cache had already held,
 * 1000 is 4 MiB/s. */
#define TW_CGROUP_CHECK_REFAULT_WARN TW_JUDGE_CGROUP_REFAULT_WARN
#define TW_CGROUP_CHECK_REFAULT_CRIT TW_JUDGE_CGROUP_REFAULT_CRIT

struct tw_cgroup_check {
	const char *exprs[TW_CGROUP_CHECK_EXPRS_MAX];
	size_t nexprs;
	struct tw_threshold fwarn, fcrit;	/* refaults per second */
	struct tw_threshold pwarn, pcrit;	/* memory pressure, percent */
};

/* Whether expr matches the cgroup's unit or path. */
int tw_cgroup_check_matches(const char *expr, const struct tw_cgroup_record *c);

/* Whether change c of v is a limit of a cgroup cc selects: its subject
 * is the directory of one (its finding's subject, advice/ticket.h). */
int tw_cgroup_check_change_selected(const struct tw_cgroup_check *cc, const struct tw_view *v,
    const struct tw_change_record *c);

/* Judge the matching cgroups of v into out; UNKNOWN when none matches. */
enum tw_state tw_cgroup_check_run(const struct tw_plugin *p, const struct tw_view *v,
    const struct tw_cgroup_check *cc, struct tw_out *out);

#endif
