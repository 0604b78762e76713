/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "finding/judge.h"

#include <string.h>

#include "util/error.h"

static int
writes(const struct tw_disk_load *d)
{
	return tw_fig_has(d->write_bytes_s) && d->write_bytes_s > 0;
}

/* Writes in the device's queue on average over the window (Little's law:
 * requests a second times the time each spent there). */
static double
writes_waiting(const struct tw_disk_load *d)
{
	if (!tw_fig_has(d->w_await_ms) || !tw_fig_has(d->write_ops_s))
		return 0;
	return d->w_await_ms * d->write_ops_s / 1000.0;
}

/* The two disks the cache's advice names, in one scan of every disk and
 * a second, when any wrote, for the writer (10,000 disks are decoded so
 * twice a sample, not three times). Each is an index in v->disks, or -1.
 *
 * The disk where read-ahead matters: of those whose reads fill a window
 * smaller than the kernel's default, the one that read most (a loop
 * device's reads, read again from the disk below it in requests of their
 * own size, must not hide behind that disk's); with none, the one that
 * read most.
 *
 * The disk that took the writes: where writes queue (a deep queue of
 * them, TW_EVIDENCE_DEEP_QUEUE on average), the one where most wait,
 * since writers held at the dirty limit wait for the pages that disk
 * has not written; which disk wrote most says nothing of that, for
 * another may write more for others (the lab's writer faster than its
 * loop device, 29 writes/s queued 1.1 s each, was taken for vda, which
 * others wrote 26 MiB/s to at 4 % busy, and was told to raise the dirty
 * limit). With no queue of writes anywhere: of those that wrote at least
 * half as much as the one that wrote most, the least busy. A file system
 * on a loop device writes as much again to the disk below it, which
 * others write to as well: the loop device is the one the writers wait
 * for, and a disk with room among them means the limit, not a disk,
 * holds them. */
static void
choose_disks(const struct tw_view *v, long *readahead, long *writer)
{
	long best = -1, small = -1, queued = -1;
	double best_rate = 0, small_rate = 0, most = 0, least_util = 0, most_waiting = 0;
	int wrote = 0;
	size_t i;

	for (i = 0; i < v->ndisks; i++) {
		struct tw_disk_load d;

		tw_view_disk_load(&v->disks[i], &d);
		if (writes(&d) && (!wrote || d.write_bytes_s > most)) {
			most = d.write_bytes_s;
			wrote = 1;
		}
		if (writes(&d) && writes_waiting(&d) >= TW_EVIDENCE_DEEP_QUEUE &&
		    writes_waiting(&d) > most_waiting) {
			queued = (long)i;
			most_waiting = writes_waiting(&d);
		}
		if (!tw_fig_has(d.read_bytes_s))
			continue;
		if (best < 0 || d.read_bytes_s > best_rate) {
			best = (long)i;
			best_rate = d.read_bytes_s;
		}
		if (d.read_ahead_kb >= 0 &&
		    tw_evidence_small_window(tw_fig_or0(d.read_ops_s), d.read_bytes_s,
		    d.read_ahead_kb) && (small < 0 || d.read_bytes_s > small_rate)) {
			small = (long)i;
			small_rate = d.read_bytes_s;
		}
	}
	*readahead = small >= 0 ? small : best;
	*writer = queued;
	for (i = 0; wrote && queued < 0 && i < v->ndisks; i++) {
		struct tw_disk_load d;

		tw_view_disk_load(&v->disks[i], &d);
		if (!writes(&d) || d.write_bytes_s * 2 < most)
			continue;
		if (*writer < 0 || tw_fig_or0(d.util_pct) < least_util) {
			*writer = (long)i;
			least_util = tw_fig_or0(d.util_pct);
		}
	}
}

static int
bad(enum tw_state st)
{
	return st != TW_STATE_OK && st != TW_STATE_UNKNOWN;
}

void
tw_judge_cache_evidence(const struct tw_cache_judgement *j, struct tw_cache_evidence *e)
{
	memset(e, 0, sizeof(*e));
	e->rec = &j->bc;
	e->refaults_bad = bad(j->refaults);
	e->disk = j->disk != NULL ? &j->disk_rec : NULL;
	e->writer = j->writer != NULL ? &j->writer_rec : NULL;
	e->os = j->os;
	e->window_s = j->window_s;
}

void
tw_judge_cache(const struct tw_judge_config *c, const struct tw_cache_record *bc,
    const struct tw_view *v, unsigned window_s, enum tw_os os, struct tw_cache_judgement *j)
{
	struct tw_cache_evidence e;
	long at, writer_at;

	memset(j, 0, sizeof(*j));
	j->bc = *bc;
	j->os = os;
	j->window_s = window_s;
	j->have_hit = tw_fig_has(bc->hit_ratio_pct);
	j->have_refaults = tw_fig_has(bc->refaults_s);
	j->have_psi = tw_fig_has(bc->memory_pressure_pct);
	tw_disk_record_init(&j->disk_rec);
	tw_disk_record_init(&j->writer_rec);
	choose_disks(v, &at, &writer_at);
	if (at >= 0) {
		j->disk = &v->disks[at];
		tw_view_disk_record(j->disk, &j->disk_rec);
	}
	if (writer_at >= 0) {
		j->writer = &v->disks[writer_at];
		tw_view_disk_record(j->writer, &j->writer_rec);
	}
	if (j->have_hit)
		j->hit = tw_threshold_state(bc->hit_ratio_pct, &c->hit_warn, &c->hit_crit);
	tw_judge_cache_evidence(j, &e);
	if (j->have_refaults) {
		/* A cgroup at its own limit refaults into the host's count
		 * too, with no reclaim of the host's: its check is --cgroup. */
		j->host_refaults = tw_evidence_host_refaults(&e);
		j->refaults = tw_threshold_state(j->host_refaults, &c->refault_warn,
		    &c->refault_crit);
	} else if (c->refault_warn.set || c->refault_crit.set) {
		j->refaults = TW_STATE_UNKNOWN;
	}
	if (j->have_psi) {
		j->pressure = tw_threshold_state(bc->memory_pressure_pct, &c->psi_warn,
		    &c->psi_crit);
	} else if (c->psi_warn.set || c->psi_crit.set) {
		j->pressure = TW_STATE_UNKNOWN;
	}

	if (j->disk != NULL && tw_evidence_small_window(tw_fig_or0(j->disk_rec.read_ops_s),
	    j->disk_rec.read_bytes_s, j->disk_rec.read_ahead_kb))
		j->readahead = TW_STATE_WARNING;
	if (tw_evidence_dirty_limited(&e))
		j->dirty = TW_STATE_WARNING;
	j->worst = tw_state_worst(tw_state_worst(j->hit, j->refaults), j->pressure);
	j->worst = tw_state_worst(j->worst, tw_state_worst(j->readahead, j->dirty));
}

void
tw_judge_cache_verdicts(const struct tw_cache_judgement *j, struct tw_cache_verdicts *out)
{
	struct tw_cache_evidence e;

	memset(out, 0, sizeof(*out));
	tw_judge_cache_evidence(j, &e);
	if ((bad(j->hit) || e.refaults_bad || bad(j->readahead)) &&
	    tw_evidence_cache_reads(&e, &out->reads) == TW_OK)
		out->has_reads = 1;
	if (bad(j->pressure) && tw_evidence_cache_pressure(&e, &out->pressure) == TW_OK)
		out->has_pressure = 1;
	if (bad(j->dirty) &&
	    tw_evidence_cache_dirty(&e, &out->dirty, &out->dirty_shortfall) == TW_OK)
		out->has_dirty = 1;
}
