/* SPDX-License-Identifier: ISC */
/* A disk's findings: slow seeks of a probed device, a slow tail of the
 * distribution of every request, and r_await and w_await, each with the
 * disk's subject so that the check and tunewatchd give one ticket. */
#include "config.h"

#include "finding/observe_priv.h"

#include <stdio.h>
#include <string.h>

#include "advice/ticket.h"
#include "finding/judge_disk_row.h"
#include "finding/judge_reqlat.h"
#include "util/error.h"
#include "view/record_disk.h"
#include "view/record_probe.h"

/* A probed device whose seeks are slow: a disk finding like r_await's,
 * its subject the disk's (twDiskStableId or kernel name). A device the
 * disk filter hides has only its probe row: its name stands for it. */
static int
observe_probes(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, tw_observe_fn fn, void *ctx)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < v->nprobes && rc == 0; i++) {
		const struct tw_view_probe *pr = &v->probes[i];
		const struct tw_view_disk *d;
		struct tw_probe_record pf;
		struct tw_disk_record df;
		struct tw_probe_judgement j;
		struct tw_view_disk none;
		struct tw_verdict verdict;
		struct tw_observe_note n;
		char what[32];

		tw_view_probe_record(pr, &pf);
		if (!tw_judge_probe(&c->probe_warn, &c->probe_crit, &pf, c->probe_percentile, &j) ||
		    !tw_observe_bad(j.latency))
			continue;
		d = tw_judge_probe_disk(v, pr);
		if (tw_judge_probe_verdict(&pf, d != NULL ? (tw_view_disk_record(d, &df), &df) : NULL,
		    window_s, c->probe_percentile, j.ms, &verdict) != TW_OK)
			continue;
		if (d == NULL) {
			memset(&none, 0, sizeof(none));
			snprintf(none.name, sizeof(none.name), "%s", pr->device);
			d = &none;
		}
		snprintf(what, sizeof(what), "probe p%u, ms", c->probe_percentile);
		tw_observe_note(&n, fn, ctx, j.worst, &c->probe_warn, &c->probe_crit, what);
		rc = tw_observe_verdict(v, os, &verdict, j.worst, tw_ticket_subject_disk(d), d,
		    &n);
	}
	return rc;
}

/* A disk whose requests are slow at the percentile: the findings of slow
 * r_await and w_await, on the distribution's figures, with the disk's
 * subject, so that both give one ticket. */
static int
observe_reqlats(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, tw_observe_fn fn, void *ctx)
{
	size_t i;
	int rc = 0;

	double held = tw_judge_dirty_limited(v);

	for (i = 0; i < v->ndisks && rc == 0 && v->nreqlats > 0; i++) {
		const struct tw_view_disk *d = &v->disks[i];
		struct tw_reqlat_records rf;
		struct tw_disk_record f;
		struct tw_reqlat_judgement j;
		struct tw_disk_verdicts verdicts;
		struct tw_observe_note n;
		char what[32];

		tw_judge_reqlat_records(v, d->major, d->minor, &rf);
		tw_view_disk_judged(d, &f);
		if (!tw_judge_reqlat(&c->reqlat_warn, &c->reqlat_crit, &c->reqlat_write_warn,
		    &c->reqlat_write_crit, &rf, c->reqlat_percentile, tw_judge_write_bound(&f, held),
		    c->min_ops, &j) || !tw_observe_bad(j.worst))
			continue;
		j.writers_held = tw_fig_has(held) && held > 0;
		tw_view_disk_record(d, &f);
		tw_judge_reqlat_verdicts(&f, &j, window_s,
		    c->reqlat_percentile, &verdicts);
		snprintf(what, sizeof(what), "read p%u, ms", c->reqlat_percentile);
		tw_observe_note(&n, fn, ctx, j.read, &c->reqlat_warn, &c->reqlat_crit, what);
		if (verdicts.has_read)
			rc = tw_observe_verdict(v, os, &verdicts.read, j.read, tw_ticket_subject_disk(d),
			    d, &n);
		snprintf(what, sizeof(what), "write p%u, ms", c->reqlat_percentile);
		tw_observe_note(&n, fn, ctx, j.write, &c->reqlat_write_warn, &c->reqlat_write_crit,
		    what);
		if (rc == 0 && verdicts.has_write)
			rc = tw_observe_verdict(v, os, &verdicts.write, j.write, tw_ticket_subject_disk(d),
			    d, &n);
	}
	return rc;
}

static int
observe_disks(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, tw_observe_fn fn, void *ctx)
{
	double held = tw_judge_dirty_limited(v);
	size_t i;
	int rc = 0;

	for (i = 0; i < v->ndisks && rc == 0; i++) {
		const struct tw_view_disk *d = &v->disks[i];
		struct tw_disk_record rec;
		struct tw_disk_judgement j;
		struct tw_disk_verdicts verdicts;
		struct tw_observe_note n;
		enum tw_state sev;
		const char *subject;

		/* Most disks are fine: judged on what is judged, and decoded
		 * whole only when they are not. */
		if (!tw_judge_disk_row(c, d, held, window_s, 0, &rec, &j, &verdicts) ||
		    !tw_observe_bad(j.worst))
			continue;
		subject = tw_ticket_subject_disk(d);
		sev = tw_state_worst(j.read, j.queue);
		if (j.read == sev)
			tw_observe_note(&n, fn, ctx, sev, &c->read_warn, &c->read_crit, "r_await, ms");
		else
			tw_observe_note(&n, fn, ctx, sev, &c->queue_warn, &c->queue_crit, "aqu-sz");
		if (verdicts.has_read)
			rc = tw_observe_verdict(v, os, &verdicts.read, sev, subject, d, &n);
		tw_observe_note(&n, fn, ctx, j.write, &c->write_warn, &c->write_crit, "w_await, ms");
		if (rc == 0 && verdicts.has_write)
			rc = tw_observe_verdict(v, os, &verdicts.write, j.write, subject, d, &n);
	}
	return rc;
}

int
tw_observe_disks(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, tw_observe_fn fn, void *ctx)
{
	int rc;

	if ((rc = observe_probes(c, v, window_s, os, fn, ctx)) != 0)
		return rc;
	if ((rc = observe_reqlats(c, v, window_s, os, fn, ctx)) != 0)
		return rc;
	return observe_disks(c, v, window_s, os, fn, ctx);
}
