/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge.h"

#include <string.h>

#include "util/error.h"

const struct tw_view_disk *
tw_judge_probe_disk(const struct tw_view *v, const struct tw_view_probe *pr)
{
	size_t i;

	for (i = 0; i < v->ndisks; i++)
		if (v->disks[i].major == pr->major && v->disks[i].minor == pr->minor)
			return &v->disks[i];
	return NULL;
}

int
tw_judge_probe(const struct tw_threshold *warn, const struct tw_threshold *crit,
    const struct tw_probe_record *pr, unsigned percentile, struct tw_probe_judgement *j)
{
	double ms = tw_probe_record_percentile(pr, percentile);

	memset(j, 0, sizeof(*j));
	if ((strcmp(pr->state, "probing") != 0 && strcmp(pr->state, "errors") != 0) ||
	    !tw_fig_has(ms))
		return 0;
	j->ms = ms;
	j->latency = tw_threshold_state(j->ms, warn, crit);
	j->worst = j->latency;
	/* A read past the timeout is slower than any percentile shows. */
	if ((tw_fig_has(pr->timeouts) && pr->timeouts > 0) || strcmp(pr->state, "errors") == 0)
		j->worst = TW_STATE_CRITICAL;
	return 1;
}

int
tw_judge_probe_verdict(const struct tw_probe_record *pr, const struct tw_disk_record *d,
    unsigned window_s, unsigned percentile, double ms, struct tw_verdict *out)
{
	struct tw_disk_record none;
	struct tw_disk_evidence f = { .rec = d, .name = pr->device, .window_s = window_s };

	/* Without the disk's row, none of its figures. */
	if (d == NULL) {
		tw_disk_record_init(&none);
		f.rec = &none;
	}
	return tw_evidence_probe_seek(&f, d != NULL && tw_fig_has(d->queue_depth), percentile,
	    ms, out);
}
