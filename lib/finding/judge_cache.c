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

static void
dirty_figures(const struct tw_cache_record *bc, const struct tw_disk_record *writer,
    struct tw_cache_figures *f)
{
	f->have_dirty = tw_fig_has(bc->dirty_limited_pct) && tw_fig_has(bc->dirty_threshold_bytes);
	f->dirty_limited = tw_fig_or0(bc->dirty_limited_pct);
	f->dirty_now = tw_fig_or0(bc->dirty_bytes) + tw_fig_or0(bc->writeback_bytes);
	f->dirty_threshold = tw_fig_or0(bc->dirty_threshold_bytes);
	f->dirty_bg_threshold = tw_fig_or0(bc->dirty_bg_threshold_bytes);
	if (writer != NULL) {
		f->writer = writer->name;
		f->writer_bytes_s = writer->write_bytes_s;
		f->writer_util = tw_fig_or0(writer->util_pct);
		f->writer_waiting = tw_fig_has(writer->w_await_ms) && tw_fig_has(writer->write_ops_s) ?
		    writer->w_await_ms * writer->write_ops_s / 1000.0 : 0;
	}
}

void
tw_judge_cache(const struct tw_judge_config *c, const struct tw_cache_record *bc,
    const struct tw_view *v, unsigned window_s, enum tw_os os, struct tw_cache_judgement *j)
{
	struct tw_cache_figures *f = &j->fig;
	const struct tw_disk_record *disk = NULL;
	struct tw_disk_record read_record, write_record;
	long at, writer_at;

	memset(j, 0, sizeof(*j));
	j->have_hit = tw_fig_has(bc->hit_ratio_pct);
	j->have_refaults = tw_fig_has(bc->refaults_s);
	j->have_psi = tw_fig_has(bc->memory_pressure_pct);
	f->have_reclaim = tw_fig_has(bc->reclaim_s);
	f->reclaim = tw_fig_or0(bc->reclaim_s);
	if (j->have_hit) {
		f->hit = bc->hit_ratio_pct;
		j->hit = tw_threshold_state(f->hit, &c->hit_warn, &c->hit_crit);
	}
	if (j->have_refaults) {
		f->refaults = bc->refaults_s;
		/* A cgroup at its own limit refaults into the host's count
		 * too, with no reclaim of the host's: its check is --cgroup. */
		j->host_refaults = tw_evidence_host_refaults(f);
		j->refaults = tw_threshold_state(j->host_refaults, &c->refault_warn,
		    &c->refault_crit);
	} else if (c->refault_warn.set || c->refault_crit.set) {
		j->refaults = TW_STATE_UNKNOWN;
	}
	if (j->have_psi) {
		f->psi = bc->memory_pressure_pct;
		j->pressure = tw_threshold_state(f->psi, &c->psi_warn, &c->psi_crit);
	} else if (c->psi_warn.set || c->psi_crit.set) {
		j->pressure = TW_STATE_UNKNOWN;
	}

	f->have_hit = j->have_hit;
	f->have_refaults = j->have_refaults;
	f->refaults_bad = bad(j->refaults);
	f->pagein_kib = tw_fig_or0(bc->page_in_kib_s);
	f->have_swap = tw_fig_has(bc->swap_total_bytes) && tw_fig_has(bc->swap_free_bytes);
	f->swap_total = (uint64_t)tw_fig_or0(bc->swap_total_bytes);
	f->swap_free = (uint64_t)tw_fig_or0(bc->swap_free_bytes);
	f->disk_read_ahead_kb = -1;
	choose_disks(v, &at, &writer_at);
	if (at >= 0) {
		tw_view_disk_record(&v->disks[at], &read_record);
		disk = &read_record;
		j->disk = &v->disks[at];
		f->disk = disk->name;
		f->disk_rops = tw_fig_or0(disk->read_ops_s);
		f->disk_read_bytes_s = disk->read_bytes_s;
		f->disk_read_ahead_kb = disk->read_ahead_kb;
	}
	if (writer_at >= 0) {
		j->writer = &v->disks[writer_at];
		tw_view_disk_record(&v->disks[writer_at], &write_record);
		dirty_figures(bc, &write_record, f);
	} else {
		dirty_figures(bc, NULL, f);
	}
	f->os = os;
	f->window_s = window_s;

	if (disk != NULL && tw_evidence_small_window(f->disk_rops, f->disk_read_bytes_s,
	    f->disk_read_ahead_kb))
		j->readahead = TW_STATE_WARNING;
	if (tw_evidence_dirty_limited(f))
		j->dirty = TW_STATE_WARNING;
	j->worst = tw_state_worst(tw_state_worst(j->hit, j->refaults), j->pressure);
	j->worst = tw_state_worst(j->worst, tw_state_worst(j->readahead, j->dirty));
}

void
tw_judge_cache_verdicts(const struct tw_cache_judgement *j, struct tw_cache_verdicts *out)
{
	memset(out, 0, sizeof(*out));
	if ((bad(j->hit) || j->fig.refaults_bad || bad(j->readahead)) &&
	    tw_evidence_cache_reads(&j->fig, &out->reads) == TW_OK)
		out->has_reads = 1;
	if (bad(j->pressure) && tw_evidence_cache_pressure(&j->fig, &out->pressure) == TW_OK)
		out->has_pressure = 1;
	if (bad(j->dirty) &&
	    tw_evidence_cache_dirty(&j->fig, &out->dirty, &out->dirty_shortfall) == TW_OK)
		out->has_dirty = 1;
}
