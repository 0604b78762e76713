/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge.h"

#include <string.h>

/* The defaults are the checks' own (TW_JUDGE_* in the header, which
 * their --help quotes): a range that does not parse here is a bug. */
void
tw_judge_defaults(struct tw_judge_config *c)
{
	memset(c, 0, sizeof(*c));
	tw_threshold_parse(&c->refault_warn, TW_JUDGE_REFAULT_WARN);
	tw_threshold_parse(&c->refault_crit, TW_JUDGE_REFAULT_CRIT);
	tw_threshold_parse(&c->pool_warn, TW_JUDGE_POOL_WARN);
	tw_threshold_parse(&c->sock_warn, TW_JUDGE_POOL_WARN);
	tw_threshold_parse(&c->probe_warn, TW_JUDGE_READ_WARN);
	tw_threshold_parse(&c->probe_crit, TW_JUDGE_READ_CRIT);
	c->probe_percentile = TW_JUDGE_PROBE_PERCENTILE;
	/* No reqlat_* thresholds: a percentile of every request is a site's
	 * service objective (judge_reqlat.h), as check_disklatency judges it
	 * only with --percentile. */
	c->reqlat_percentile = TW_JUDGE_REQLAT_PERCENTILE;
	tw_threshold_parse(&c->cg_refault_warn, TW_JUDGE_CGROUP_REFAULT_WARN);
	tw_threshold_parse(&c->cg_refault_crit, TW_JUDGE_CGROUP_REFAULT_CRIT);
	tw_threshold_parse(&c->read_warn, TW_JUDGE_READ_WARN);
	tw_threshold_parse(&c->read_crit, TW_JUDGE_READ_CRIT);
	tw_threshold_parse(&c->write_warn, TW_JUDGE_WRITE_WARN);
	tw_threshold_parse(&c->write_crit, TW_JUDGE_WRITE_CRIT);
}
