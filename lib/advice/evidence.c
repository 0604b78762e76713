/* SPDX-License-Identifier: ISC */
/* The buffer cache, memory, TCP's receive queues and high-order pages:
 * each symptom's knob under its precondition (doc/ADVICE-REFERENCE.md);
 * the disks' are in evidence_disk.c. */
#include "config.h"

#include "advice/evidence.h"

#include <stdio.h>
#include <string.h>

#include "advice/verdict.h"
#include "threshold/perfdata.h"
#include "util/error.h"

/* ---- Buffer cache ------------------------------------------------------ */

double
tw_evidence_host_refaults(const struct tw_cache_evidence *c)
{
	double refaults = tw_fig_or0(c->rec->refaults_s);

	if (tw_fig_has(c->rec->reclaim_s) && c->rec->reclaim_s < refaults)
		return c->rec->reclaim_s;
	return refaults;
}

static double
refault_share(const struct tw_cache_evidence *c)
{
	double pagein_kib = tw_fig_or0(c->rec->page_in_kib_s);

	/* 4 KiB pages refaulted against KiB read from storage. */
	return pagein_kib > 0 ? tw_evidence_host_refaults(c) * 4.0 / pagein_kib : 0;
}

static int
thrashing(const struct tw_cache_evidence *c)
{
	return tw_fig_has(c->rec->refaults_s) &&
	    (refault_share(c) >= TW_EVIDENCE_REFAULT_SHARE || c->refaults_bad);
}

/* Device reads the size of the read-ahead window (TW_EVIDENCE_FILL_LOW to
 * _HIGH times it): the window, not the reader, sets their size, so the
 * stream is sequential and goes through the page cache. mm/readahead.c
 * reads a small random read as it is, without a window (random reads of
 * 8-16 KiB at a window of 16 KiB average 12 KiB: under it), and an
 * O_DIRECT reader or a large read() sets its own size past the window
 * (1 MiB requests at a window of 64 KiB): no window size moves either. */
static int
reads_fill(double rops, double read_bytes_s, int64_t read_ahead_kb)
{
	double size;

	if (rops <= 0 || read_bytes_s <= 0 || read_ahead_kb <= 0)
		return 0;
	size = read_bytes_s / rops;
	return size >= (double)read_ahead_kb * 1024 * TW_EVIDENCE_FILL_LOW &&
	    size <= (double)read_ahead_kb * 1024 * TW_EVIDENCE_FILL_HIGH;
}

int
tw_evidence_small_window(double rops, double read_bytes_s, int64_t read_ahead_kb)
{
	return read_ahead_kb > 0 && read_ahead_kb < TW_EVIDENCE_DEFAULT_WINDOW_KB &&
	    rops >= TW_EVIDENCE_SEQ_READS && reads_fill(rops, read_bytes_s, read_ahead_kb);
}

double
tw_cache_evidence_writer_waiting(const struct tw_cache_evidence *c)
{
	const struct tw_disk_record *w = c->writer;

	if (w == NULL || !tw_fig_has(w->w_await_ms) || !tw_fig_has(w->write_ops_s))
		return 0;
	return w->w_await_ms * w->write_ops_s / 1000.0;
}

int
tw_evidence_dirty_limited(const struct tw_cache_evidence *c)
{
	return tw_cache_evidence_has_dirty(c->rec) &&
	    c->rec->dirty_limited_pct >= TW_EVIDENCE_DIRTY_LIMITED && c->writer != NULL &&
	    tw_fig_or0(c->writer->util_pct) < TW_EVIDENCE_WRITER_BUSY &&
	    tw_cache_evidence_writer_waiting(c) < TW_EVIDENCE_DEEP_QUEUE;
}

/* Swap configured and in use, in bytes; 0 where the record does not say. */
static int
have_swap(const struct tw_cache_evidence *c, uint64_t *total, uint64_t *left)
{
	*total = (uint64_t)tw_fig_or0(c->rec->swap_total_bytes);
	*left = (uint64_t)tw_fig_or0(c->rec->swap_free_bytes);
	return tw_fig_has(c->rec->swap_total_bytes) && tw_fig_has(c->rec->swap_free_bytes);
}

/* "no swap", "512 MiB of swap, none in use", "swap not reported". */
static void
swap_words(const struct tw_cache_evidence *c, struct tw_verdict_nums *n, char *buf, size_t len)
{
	uint64_t total, left;

	if (!have_swap(c, &total, &left))
		snprintf(buf, len, "swap not reported by the agent");
	else if (total == 0)
		snprintf(buf, len, "no swap");
	else if (left >= total)
		snprintf(buf, len, "%s MiB of swap, none in use",
		    tw_verdict_num(n, (double)total / 1048576, 1));
	else
		snprintf(buf, len, "%s of %s MiB of swap in use",
		    tw_verdict_num(n, (double)(total - left) / 1048576, 1),
		    tw_verdict_num(n, (double)total / 1048576, 1));
}

/* The read-ahead disk's reads a second, bytes a second and window (-1:
 * no disk, or its window unknown). */
static int64_t
disk_reads(const struct tw_cache_evidence *c, double *rops, double *read_bytes_s)
{
	*rops = c->disk != NULL ? tw_fig_or0(c->disk->read_ops_s) : 0;
	*read_bytes_s = c->disk != NULL ? c->disk->read_bytes_s : 0;
	return c->disk != NULL ? c->disk->read_ahead_kb : -1;
}

int
tw_evidence_cache_reads(const struct tw_cache_evidence *c, struct tw_verdict *out)
{
	struct tw_verdict_nums n = { .next = 0 };
	char swap[256], hit[256];
	double rops, rbytes;
	int64_t ra;

	if (out == NULL)
		return TW_E_INVAL;
	tw_verdict_init(out);
	if (c == NULL || c->rec == NULL)
		return TW_E_INVAL;
	if (tw_fig_has(c->rec->hit_ratio_pct))
		snprintf(hit, sizeof(hit), "hit ratio %s %% with ",
		    tw_verdict_num(&n, c->rec->hit_ratio_pct, 2));
	else
		hit[0] = '\0';
	swap_words(c, &n, swap, sizeof(swap));
	ra = disk_reads(c, &rops, &rbytes);

	if (thrashing(c)) {
		uint64_t total, left;
		int swap_in_use = have_swap(c, &total, &left) && total > 0 && left < total;
		double own = tw_evidence_host_refaults(c);

		/* SVR4 sizes its buffer cache with NBUF; Linux's page cache
		 * (and FreeBSD's) is all free memory, and only swappiness
		 * moves the line between it and anonymous memory, where
		 * swap is there to take the anonymous pages. */
		if (c->os == TW_OS_SVR4 || swap_in_use) {
			tw_verdict_found(out, TW_SYM_LOW_HIT_REFAULTS, "%s%s refaults/s, %s %% of page-ins, %s, "
			    "in the last %u s", hit, tw_verdict_num(&n, own, 2),
			    tw_verdict_num(&n, refault_share(c) * 100, 1), swap, c->window_s);
			return TW_OK;
		}
		tw_verdict_none(out, TW_SYM_LOW_HIT_REFAULTS,
		    "the working set does not fit in memory (%s%s refaults/s, %s), so add "
		    "memory, raise the memory limit of its cgroup if the load runs in one, or "
		    "reduce load", hit, tw_verdict_num(&n, own, 2), swap);
		return TW_OK;
	}
	if (c->disk != NULL && tw_evidence_small_window(rops, rbytes, ra)) {
		tw_verdict_found(out, TW_SYM_LOW_HIT_SEQUENTIAL, "%sdata read once, in %s reads/s of %s KiB "
		    "that fill %s's read-ahead window of %lld KiB, under the kernel's default of "
		    "%d KiB, in the last %u s", hit, tw_verdict_num(&n, rops, 0),
		    tw_verdict_num(&n, rbytes / rops / 1024, 1), c->disk->name,
		    (long long)ra, TW_EVIDENCE_DEFAULT_WINDOW_KB, c->window_s);
		return TW_OK;
	}
	if (c->disk != NULL && reads_fill(rops, rbytes, ra)) {
		tw_verdict_found(out, TW_SYM_LOW_HIT_SEQUENTIAL, "%sfew refaults: data read once, in reads "
		    "of %s KiB that fill %s's read-ahead window of %lld KiB, in the last %u s", hit,
		    tw_verdict_num(&n, rbytes / rops / 1024, 1), c->disk->name, (long long)ra,
		    c->window_s);
		return TW_OK;
	}
	if (c->disk != NULL && rops > 0 && rbytes > 0)
		tw_verdict_none(out, TW_SYM_LOW_HIT_SEQUENTIAL,
		    "%sfew refaults: data is read once, in device reads of %s KiB on %s, not the "
		    "size of its read-ahead window (read_ahead_kb %lld): the reader sets their "
		    "size, so another window would not change them, and more cache would not "
		    "help", hit, tw_verdict_num(&n, rbytes / rops / 1024, 1), c->disk->name,
		    (long long)ra);
	else
		tw_verdict_none(out, TW_SYM_LOW_HIT_SEQUENTIAL,
		    "%sfew refaults: data is read once, so more cache would not help", hit);
	return TW_OK;
}

#define MIB_BYTES UINT64_C(1048576)

static const char *
mib(struct tw_verdict_nums *n, double bytes)
{
	return tw_verdict_num(n, bytes / 1048576.0, 1);
}

int
tw_evidence_cache_dirty(const struct tw_cache_evidence *c, struct tw_verdict *out,
    uint64_t *shortfall)
{
	struct tw_verdict_nums n = { .next = 0 };
	const struct tw_cache_record *bc;
	double threshold, written;
	uint64_t want;

	if (out == NULL || shortfall == NULL)
		return TW_E_INVAL;
	tw_verdict_init(out);
	*shortfall = 0;
	if (c == NULL || c->rec == NULL || !tw_evidence_dirty_limited(c))
		return TW_E_INVAL;
	bc = c->rec;
	threshold = bc->dirty_threshold_bytes;
	written = c->writer->write_bytes_s;
	/* Writers are paused from half-way between the background threshold
	 * and the limit, so the limit is twice what should pass freely: a
	 * second of what the disk took, in whole MiB, which the flusher
	 * writes back in well under the dirty_expire_centisecs the kernel
	 * lets data wait. (Sized to a second alone, the lab's writer was
	 * paused still and took a second ticket.) */
	want = written > 0 ? (uint64_t)written : 0;
	want = (want + MIB_BYTES - 1) / MIB_BYTES * MIB_BYTES * 2;
	if ((double)want > threshold)
		*shortfall = want - (uint64_t)threshold;
	tw_verdict_found(out, TW_SYM_DIRTY_LIMITED, "writers throttled at the dirty limit %s %% of the last "
	    "%u s (dirty and writeback %s MiB, limit %s MiB, background %s MiB) while %s, the "
	    "disk that took the writes, wrote %s MiB/s at %s %% utilisation",
	    tw_verdict_num(&n, bc->dirty_limited_pct, 0), c->window_s,
	    mib(&n, tw_fig_or0(bc->dirty_bytes) + tw_fig_or0(bc->writeback_bytes)),
	    mib(&n, threshold), mib(&n, tw_fig_or0(bc->dirty_bg_threshold_bytes)),
	    c->writer->name, mib(&n, written), tw_verdict_num(&n, tw_fig_or0(c->writer->util_pct), 0));
	return TW_OK;
}

int
tw_evidence_cache_pressure(const struct tw_cache_evidence *c, struct tw_verdict *out)
{
	struct tw_verdict_nums n = { .next = 0 };
	char swap[256];
	double psi, refaults;

	if (out == NULL)
		return TW_E_INVAL;
	tw_verdict_init(out);
	if (c == NULL || c->rec == NULL)
		return TW_E_INVAL;
	psi = tw_fig_or0(c->rec->memory_pressure_pct);
	refaults = tw_fig_or0(c->rec->refaults_s);
	/* PSI counts stalls on refaults too: those are a working set that
	 * does not fit, which no watermark changes. */
	if (thrashing(c)) {
		swap_words(c, &n, swap, sizeof(swap));
		tw_verdict_none(out, TW_SYM_MEMORY_PRESSURE,
		    "tasks stall on memory (pressure %s %%) while %s pages/s are read back: "
		    "the working set does not fit (%s), so add memory or reduce load",
		    tw_verdict_num(&n, psi, 2), tw_verdict_num(&n, refaults, 2), swap);
		return TW_OK;
	}
	tw_verdict_found(out, TW_SYM_MEMORY_PRESSURE, "memory pressure %s %% (tasks stalled, 10 s average) "
	    "with %s refaults/s: the stalls are in reclaim", tw_verdict_num(&n, psi, 2),
	    tw_fig_has(c->rec->refaults_s) ? tw_verdict_num(&n, refaults, 2) : "unknown");
	return TW_OK;
}

/* ---- High-order pages -------------------------------------------------- */

int
tw_evidence_tcp_prune(const struct tw_tcp_prune_figures *f, struct tw_verdict *out)
{
	if (out == NULL)
		return TW_E_INVAL;
	tw_verdict_init(out);
	if (f == NULL)
		return TW_E_INVAL;
	if (f->have_pressure_ms && f->pressure_ms > 0)
		tw_verdict_none(out, TW_SYM_TCP_PRUNE,
		    "%llu segments were dropped or pruned from receive queues in the last %u s "
		    "while TCP was in memory pressure %.1f s of them: net.ipv4.tcp_mem bounds them "
		    "(see tcp memory), and a larger tcp_rmem would ask for more of what ran out",
		    (unsigned long long)f->failures, f->window_s, (double)f->pressure_ms / 1000.0);
	else if (f->pressures > 0)
		tw_verdict_none(out, TW_SYM_TCP_PRUNE,
		    "%llu segments were dropped or pruned from receive queues in the last %u s "
		    "while TCP entered memory pressure %llu times: net.ipv4.tcp_mem bounds them "
		    "(see tcp memory), and a larger tcp_rmem would ask for more of what ran out",
		    (unsigned long long)f->failures, f->window_s,
		    (unsigned long long)f->pressures);
	else
		tw_verdict_found(out, TW_SYM_TCP_PRUNE, "%llu segments were dropped or pruned from receive "
		    "queues in the last %u s", (unsigned long long)f->failures, f->window_s);
	return TW_OK;
}

int
tw_evidence_highorder(const struct tw_highorder_figures *h, struct tw_verdict *out)
{
	struct tw_verdict_nums n = { .next = 0 };
	int few, stalls;

	if (out == NULL)
		return TW_E_INVAL;
	tw_verdict_init(out);
	if (h == NULL)
		return TW_E_INVAL;
	few = h->have_free && h->free_blocks < TW_EVIDENCE_FEW_HIGHORDER;
	stalls = h->have_psi && h->psi >= TW_EVIDENCE_STALL_PSI;
	/* A failed compaction run is followed by reclaim and a retry: it is
	 * an allocation failure only when large blocks are gone and tasks
	 * stall waiting for them. */
	if (few && stalls) {
		tw_verdict_found(out, TW_SYM_HIGHORDER_FAIL, "compaction failed %llu times with %llu free "
		    "blocks of 32 KiB or more left outside DMA and tasks stalled on memory "
		    "(pressure %s %%), in the last %u s", (unsigned long long)h->failures,
		    (unsigned long long)h->free_blocks, tw_verdict_num(&n, h->psi, 2), h->window_s);
		return TW_OK;
	}
	if (h->have_free && !few)
		tw_verdict_none(out, TW_SYM_HIGHORDER_FAIL,
		    "compaction failed %llu times in the last %u s, but %llu free blocks of "
		    "32 KiB or more remain: a failed compaction run is retried after reclaim, not "
		    "an allocation failure", (unsigned long long)h->failures, h->window_s,
		    (unsigned long long)h->free_blocks);
	else if (h->have_psi && !stalls)
		tw_verdict_none(out, TW_SYM_HIGHORDER_FAIL,
		    "compaction failed %llu times in the last %u s, but no task stalled on "
		    "memory (pressure %s %%): a failed compaction run is retried after reclaim, "
		    "not an allocation failure", (unsigned long long)h->failures, h->window_s,
		    tw_verdict_num(&n, h->psi, 2));
	else
		tw_verdict_none(out, TW_SYM_HIGHORDER_FAIL,
		    "compaction failed %llu times in the last %u s, but the agent shows %s, so "
		    "an allocation failure is not shown", (unsigned long long)h->failures,
		    h->window_s, !h->have_free ? "no free-block figures" : "no memory pressure");
	return TW_OK;
}
