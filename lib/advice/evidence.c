/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "advice/evidence.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "plugin/perfdata.h"
#include "util/error.h"

/* Numbers as the checks print them: locale-independent, no trailing
 * zeros. Several may appear in one line, so each has its own buffer. */
struct nums {
	char b[6][32];
	int next;
};

static const char *
num(struct nums *n, double v, unsigned precision)
{
	char *buf = n->b[n->next++ % 6];

	if (tw_perf_number(v, precision, buf, sizeof(n->b[0])) != TW_OK)
		snprintf(buf, sizeof(n->b[0]), "unknown");
	return buf;
}

static void
init(struct tw_verdict *out)
{
	memset(out, 0, sizeof(*out));
}

#if defined(__GNUC__)
#define EV_FORMAT(f, a) __attribute__((format(printf, f, a)))
#else
#define EV_FORMAT(f, a)
#endif

/* Text that does not fit is cut: it is evidence for a person to read, and
 * the figures come first. */
static void EV_FORMAT(3, 4)
found(struct tw_verdict *out, enum tw_symptom sym, const char *fmt, ...)
{
	struct tw_shown *f;
	va_list ap;

	if (out->nfound == TW_EVIDENCE_MAX)
		return;
	f = &out->found[out->nfound++];
	f->sym = sym;
	va_start(ap, fmt);
	vsnprintf(f->evidence, sizeof(f->evidence), fmt, ap);
	va_end(ap);
}

/* sym: the symptom that was looked for; a no-tunable finding's ticket id
 * is made from it. */
static void EV_FORMAT(3, 4)
none(struct tw_verdict *out, enum tw_symptom sym, const char *fmt, ...)
{
	va_list ap;

	out->no_tunable_sym = sym;
	va_start(ap, fmt);
	vsnprintf(out->no_tunable, sizeof(out->no_tunable), fmt, ap);
	va_end(ap);
}

/* ---- Disks ------------------------------------------------------------- */

static int
deep(const struct tw_disk_figures *d)
{
	return d->queue >= TW_EVIDENCE_DEEP_QUEUE;
}

/* A queue held near nr_requests: halving it caps what the device queues
 * below what it holds now. Below half of it, halving changes nothing. */
static int
queue_full(const struct tw_disk_figures *d)
{
	return deep(d) && d->nr_requests > 0 && d->queue * 2 >= (double)d->nr_requests;
}

static void
add_queue_full(const struct tw_disk_figures *d, struct nums *n, struct tw_verdict *out)
{
	if (queue_full(d))
		found(out, TW_SYM_QUEUE_FULL, "%s holds %s requests on average against "
		    "nr_requests %lld, in the last %u s", d->name, num(n, d->queue, 2),
		    (long long)d->nr_requests, d->window_s);
}

static const char *
kind(const struct tw_disk_figures *d)
{
	if (d->rotational == 1)
		return "a rotational disk";
	if (d->rotational == 0)
		return d->scheduler != NULL && strcmp(d->scheduler, "none") == 0 ?
		    "a solid-state device already without a scheduler" : "a solid-state device";
	return "a device of unknown kind";
}

int
tw_evidence_disk_read(const struct tw_disk_figures *d, struct tw_verdict *out)
{
	struct nums n = { .next = 0 };
	const char *r, *q, *rn;

	if (out == NULL)
		return TW_E_INVAL;
	init(out);
	if (d == NULL || d->name == NULL)
		return TW_E_INVAL;
	r = num(&n, d->r_await, 1);
	q = num(&n, d->queue, 2);
	rn = d->r_name != NULL ? d->r_name : "r_await";

	/* A software scheduler on a solid-state device only costs time
	 * where requests queue for it to order. */
	if (deep(d) && d->rotational == 0 && d->scheduler != NULL &&
	    strcmp(d->scheduler, "none") != 0)
		found(out, TW_SYM_NONROT_SCHEDULER, "%s %s %s ms at queue depth %s on a "
		    "solid-state device scheduled by %s, in the last %u s", d->name, rn, r, q,
		    d->scheduler, d->window_s);
	/* A deadline scheduler orders a queue for a disk that seeks; on a
	 * solid-state device it is the scheduler the rule above removes. */
	if (deep(d) && d->rotational == 1)
		found(out, TW_SYM_READ_LATENCY_QUEUE, "%s %s %s ms at queue depth %s on a "
		    "rotational disk, in the last %u s", d->name, rn, r, q, d->window_s);
	add_queue_full(d, &n, out);
	/* Writes outnumbering reads in a queue: writeback crowds the reads. */
	if (deep(d) && d->wops > d->rops && d->wops > 0)
		found(out, TW_SYM_READ_LATENCY_WRITEBACK, "%s %s %s ms behind %s writes/s "
		    "(against %s reads/s) at queue depth %s, in the last %u s", d->name, rn, r,
		    num(&n, d->wops, 1), num(&n, d->rops, 1), q, d->window_s);
	if (out->nfound > 0)
		return TW_OK;
	if (!deep(d) && d->r_name == NULL)
		none(out, TW_SYM_READ_LATENCY_QUEUE,
		    "%s takes %s ms per read at queue depth %s: the device itself is slow "
		    "(check its health, its controller, or move load)", d->name, r, q);
	else if (!deep(d))
		none(out, TW_SYM_READ_LATENCY_QUEUE,
		    "%s %s %s ms at queue depth %s: the device itself is slow "
		    "(check its health, its controller, or move load)", d->name, rn, r, q);
	else
		none(out, TW_SYM_READ_LATENCY_QUEUE,
		    "%s %s %s ms at queue depth %s, on %s: no queue knob applies, the "
		    "device is saturated (spread the I/O or add devices)", d->name, rn, r, q, kind(d));
	return TW_OK;
}

int
tw_evidence_disk_write(const struct tw_disk_figures *d, struct tw_verdict *out)
{
	struct nums n = { .next = 0 };
	const char *w, *q, *wn;

	if (out == NULL)
		return TW_E_INVAL;
	init(out);
	if (d == NULL || d->name == NULL)
		return TW_E_INVAL;
	w = num(&n, d->w_await, 1);
	q = num(&n, d->queue, 2);
	wn = d->w_name != NULL ? d->w_name : "w_await";
	/* Dirty-data limits are host-wide: only a deep queue of writes shows
	 * writeback arriving in bursts that earlier flushing would spread. */
	if (deep(d) && d->wops >= d->rops && d->wops > 0)
		found(out, TW_SYM_WRITE_LATENCY, "%s %s %s ms with %s requests queued on "
		    "average, mostly writes (%s/s against %s reads/s): writeback arrives in "
		    "bursts, in the last %u s", d->name, wn, w, q, num(&n, d->wops, 1),
		    num(&n, d->rops, 1), d->window_s);
	add_queue_full(d, &n, out);
	if (out->nfound > 0)
		return TW_OK;
	if (!deep(d) && d->w_name == NULL)
		none(out, TW_SYM_WRITE_LATENCY,
		    "%s takes %s ms per write at queue depth %s: the device itself is slow "
		    "(check its health, its controller and its write cache, or move load)",
		    d->name, w, q);
	else if (!deep(d))
		none(out, TW_SYM_WRITE_LATENCY,
		    "%s %s %s ms at queue depth %s: the device itself is slow "
		    "(check its health, its controller and its write cache, or move load)",
		    d->name, wn, w, q);
	else
		none(out, TW_SYM_WRITE_LATENCY,
		    "%s %s %s ms at queue depth %s, mostly reads: no writeback knob "
		    "applies, the device is saturated (spread the I/O or add devices)", d->name, wn,
		    w, q);
	return TW_OK;
}

/* ---- Buffer cache ------------------------------------------------------ */

double
tw_evidence_host_refaults(const struct tw_cache_figures *c)
{
	if (c->have_reclaim && c->reclaim < c->refaults)
		return c->reclaim;
	return c->refaults;
}

static double
refault_share(const struct tw_cache_figures *c)
{
	/* 4 KiB pages refaulted against KiB read from storage. */
	return c->pagein_kib > 0 ? tw_evidence_host_refaults(c) * 4.0 / c->pagein_kib : 0;
}

static int
thrashing(const struct tw_cache_figures *c)
{
	return c->have_refaults && (refault_share(c) >= TW_EVIDENCE_REFAULT_SHARE ||
	    c->refaults_bad);
}

/* Device reads as large as half the read-ahead window or more: the
 * window, not the reader, sets their size, so the stream is sequential
 * (mm/readahead.c reads a random read as it is, without a window). */
static int
reads_fill(double rops, double read_bytes_s, int64_t read_ahead_kb)
{
	return rops > 0 && read_bytes_s > 0 && read_ahead_kb > 0 &&
	    read_bytes_s / rops * 2 >= (double)read_ahead_kb * 1024;
}

int
tw_evidence_small_window(double rops, double read_bytes_s, int64_t read_ahead_kb)
{
	return read_ahead_kb > 0 && read_ahead_kb < TW_EVIDENCE_DEFAULT_WINDOW_KB &&
	    rops >= TW_EVIDENCE_SEQ_READS && reads_fill(rops, read_bytes_s, read_ahead_kb);
}

int
tw_evidence_dirty_limited(const struct tw_cache_figures *c)
{
	return c->have_dirty && c->dirty_limited >= TW_EVIDENCE_DIRTY_LIMITED &&
	    c->writer != NULL && c->writer_util < TW_EVIDENCE_WRITER_BUSY;
}

/* "no swap", "512 MiB of swap, none in use", "swap not reported". */
static void
swap_words(const struct tw_cache_figures *c, struct nums *n, char *buf, size_t len)
{
	if (!c->have_swap)
		snprintf(buf, len, "swap not reported by the agent");
	else if (c->swap_total == 0)
		snprintf(buf, len, "no swap");
	else if (c->swap_free >= c->swap_total)
		snprintf(buf, len, "%s MiB of swap, none in use",
		    num(n, (double)c->swap_total / 1048576, 1));
	else
		snprintf(buf, len, "%s of %s MiB of swap in use",
		    num(n, (double)(c->swap_total - c->swap_free) / 1048576, 1),
		    num(n, (double)c->swap_total / 1048576, 1));
}

static int
fills_window(const struct tw_cache_figures *c)
{
	return c->disk != NULL && reads_fill(c->disk_rops, c->disk_read_bytes_s,
	    c->disk_read_ahead_kb);
}

int
tw_evidence_cache_reads(const struct tw_cache_figures *c, struct tw_verdict *out)
{
	struct nums n = { .next = 0 };
	char swap[256], hit[256];

	if (out == NULL)
		return TW_E_INVAL;
	init(out);
	if (c == NULL)
		return TW_E_INVAL;
	if (c->have_hit)
		snprintf(hit, sizeof(hit), "hit ratio %s %% with ", num(&n, c->hit, 2));
	else
		hit[0] = '\0';
	swap_words(c, &n, swap, sizeof(swap));

	if (thrashing(c)) {
		int swap_in_use = c->have_swap && c->swap_total > 0 && c->swap_free < c->swap_total;
		double own = tw_evidence_host_refaults(c);

		/* SVR4 sizes its buffer cache with NBUF; Linux's page cache
		 * (and FreeBSD's) is all free memory, and only swappiness
		 * moves the line between it and anonymous memory, where
		 * swap is there to take the anonymous pages. */
		if (c->os == TW_OS_SVR4 || swap_in_use) {
			found(out, TW_SYM_LOW_HIT_REFAULTS, "%s%s refaults/s, %s %% of page-ins, %s, "
			    "in the last %u s", hit, num(&n, own, 2),
			    num(&n, refault_share(c) * 100, 1), swap, c->window_s);
			return TW_OK;
		}
		none(out, TW_SYM_LOW_HIT_REFAULTS,
		    "the working set does not fit in memory (%s%s refaults/s, %s), so add "
		    "memory, raise the memory limit of its cgroup if the load runs in one, or "
		    "reduce load", hit, num(&n, own, 2), swap);
		return TW_OK;
	}
	if (c->disk != NULL && tw_evidence_small_window(c->disk_rops, c->disk_read_bytes_s,
	    c->disk_read_ahead_kb)) {
		found(out, TW_SYM_LOW_HIT_SEQUENTIAL, "%sdata read once, in %s reads/s of %s KiB "
		    "that fill %s's read-ahead window of %lld KiB, under the kernel's default of "
		    "%d KiB, in the last %u s", hit, num(&n, c->disk_rops, 0),
		    num(&n, c->disk_read_bytes_s / c->disk_rops / 1024, 1), c->disk,
		    (long long)c->disk_read_ahead_kb, TW_EVIDENCE_DEFAULT_WINDOW_KB, c->window_s);
		return TW_OK;
	}
	if (fills_window(c)) {
		found(out, TW_SYM_LOW_HIT_SEQUENTIAL, "%sfew refaults: data read once, in reads "
		    "of %s KiB that fill %s's read-ahead window of %lld KiB, in the last %u s", hit,
		    num(&n, c->disk_read_bytes_s / c->disk_rops / 1024, 1), c->disk,
		    (long long)c->disk_read_ahead_kb, c->window_s);
		return TW_OK;
	}
	if (c->disk != NULL && c->disk_rops > 0 && c->disk_read_bytes_s > 0)
		none(out, TW_SYM_LOW_HIT_SEQUENTIAL,
		    "%sfew refaults: data is read once, in device reads of %s KiB on %s, under "
		    "half its read-ahead window (read_ahead_kb %lld), so a larger window would go "
		    "unused, and more cache would not help", hit,
		    num(&n, c->disk_read_bytes_s / c->disk_rops / 1024, 1), c->disk,
		    (long long)c->disk_read_ahead_kb);
	else
		none(out, TW_SYM_LOW_HIT_SEQUENTIAL,
		    "%sfew refaults: data is read once, so more cache would not help", hit);
	return TW_OK;
}

#define MIB_BYTES UINT64_C(1048576)

static const char *
mib(struct nums *n, double bytes)
{
	return num(n, bytes / 1048576.0, 1);
}

int
tw_evidence_cache_dirty(const struct tw_cache_figures *c, struct tw_verdict *out,
    uint64_t *shortfall)
{
	struct nums n = { .next = 0 };
	uint64_t want;

	if (out == NULL || shortfall == NULL)
		return TW_E_INVAL;
	init(out);
	*shortfall = 0;
	if (c == NULL || !tw_evidence_dirty_limited(c))
		return TW_E_INVAL;
	/* Writers are paused from half-way between the background threshold
	 * and the limit, so the limit is twice what should pass freely: a
	 * second of what the disk took, in whole MiB, which the flusher
	 * writes back in well under the dirty_expire_centisecs the kernel
	 * lets data wait. (Sized to a second alone, the lab's writer was
	 * paused still and took a second ticket.) */
	want = c->writer_bytes_s > 0 ? (uint64_t)c->writer_bytes_s : 0;
	want = (want + MIB_BYTES - 1) / MIB_BYTES * MIB_BYTES * 2;
	if ((double)want > c->dirty_threshold)
		*shortfall = want - (uint64_t)c->dirty_threshold;
	found(out, TW_SYM_DIRTY_LIMITED, "writers throttled at the dirty limit %s %% of the last "
	    "%u s (dirty and writeback %s MiB, limit %s MiB, background %s MiB) while %s, the "
	    "disk that took the writes, wrote %s MiB/s at %s %% utilisation", num(&n, c->dirty_limited, 0),
	    c->window_s, mib(&n, c->dirty_now), mib(&n, c->dirty_threshold),
	    mib(&n, c->dirty_bg_threshold), c->writer, mib(&n, c->writer_bytes_s),
	    num(&n, c->writer_util, 0));
	return TW_OK;
}

int
tw_evidence_cache_pressure(const struct tw_cache_figures *c, struct tw_verdict *out)
{
	struct nums n = { .next = 0 };
	char swap[256];

	if (out == NULL)
		return TW_E_INVAL;
	init(out);
	if (c == NULL)
		return TW_E_INVAL;
	/* PSI counts stalls on refaults too: those are a working set that
	 * does not fit, which no watermark changes. */
	if (thrashing(c)) {
		swap_words(c, &n, swap, sizeof(swap));
		none(out, TW_SYM_MEMORY_PRESSURE,
		    "tasks stall on memory (pressure %s %%) while %s pages/s are read back: "
		    "the working set does not fit (%s), so add memory or reduce load",
		    num(&n, c->psi, 2), num(&n, c->refaults, 2), swap);
		return TW_OK;
	}
	found(out, TW_SYM_MEMORY_PRESSURE, "memory pressure %s %% (tasks stalled, 10 s average) "
	    "with %s refaults/s: the stalls are in reclaim", num(&n, c->psi, 2),
	    c->have_refaults ? num(&n, c->refaults, 2) : "unknown");
	return TW_OK;
}

/* ---- High-order pages -------------------------------------------------- */

int
tw_evidence_tcp_prune(const struct tw_tcp_prune_figures *f, struct tw_verdict *out)
{
	if (out == NULL)
		return TW_E_INVAL;
	init(out);
	if (f == NULL)
		return TW_E_INVAL;
	if (f->have_pressure_ms && f->pressure_ms > 0)
		none(out, TW_SYM_TCP_PRUNE,
		    "%llu segments were dropped or pruned from receive queues in the last %u s "
		    "while TCP was in memory pressure %.1f s of them: net.ipv4.tcp_mem bounds them "
		    "(see tcp memory), and a larger tcp_rmem would ask for more of what ran out",
		    (unsigned long long)f->failures, f->window_s, (double)f->pressure_ms / 1000.0);
	else if (f->pressures > 0)
		none(out, TW_SYM_TCP_PRUNE,
		    "%llu segments were dropped or pruned from receive queues in the last %u s "
		    "while TCP entered memory pressure %llu times: net.ipv4.tcp_mem bounds them "
		    "(see tcp memory), and a larger tcp_rmem would ask for more of what ran out",
		    (unsigned long long)f->failures, f->window_s,
		    (unsigned long long)f->pressures);
	else
		found(out, TW_SYM_TCP_PRUNE, "%llu segments were dropped or pruned from receive "
		    "queues in the last %u s", (unsigned long long)f->failures, f->window_s);
	return TW_OK;
}

int
tw_evidence_highorder(const struct tw_highorder_figures *h, struct tw_verdict *out)
{
	struct nums n = { .next = 0 };
	int few, stalls;

	if (out == NULL)
		return TW_E_INVAL;
	init(out);
	if (h == NULL)
		return TW_E_INVAL;
	few = h->have_free && h->free_blocks < TW_EVIDENCE_FEW_HIGHORDER;
	stalls = h->have_psi && h->psi >= TW_EVIDENCE_STALL_PSI;
	/* A failed compaction run is followed by reclaim and a retry: it is
	 * an allocation failure only when large blocks are gone and tasks
	 * stall waiting for them. */
	if (few && stalls) {
		found(out, TW_SYM_HIGHORDER_FAIL, "compaction failed %llu times with %llu free "
		    "blocks of 32 KiB or more left outside DMA and tasks stalled on memory "
		    "(pressure %s %%), in the last %u s", (unsigned long long)h->failures,
		    (unsigned long long)h->free_blocks, num(&n, h->psi, 2), h->window_s);
		return TW_OK;
	}
	if (h->have_free && !few)
		none(out, TW_SYM_HIGHORDER_FAIL,
		    "compaction failed %llu times in the last %u s, but %llu free blocks of "
		    "32 KiB or more remain: a failed compaction run is retried after reclaim, not "
		    "an allocation failure", (unsigned long long)h->failures, h->window_s,
		    (unsigned long long)h->free_blocks);
	else if (h->have_psi && !stalls)
		none(out, TW_SYM_HIGHORDER_FAIL,
		    "compaction failed %llu times in the last %u s, but no task stalled on "
		    "memory (pressure %s %%): a failed compaction run is retried after reclaim, "
		    "not an allocation failure", (unsigned long long)h->failures, h->window_s,
		    num(&n, h->psi, 2));
	else
		none(out, TW_SYM_HIGHORDER_FAIL,
		    "compaction failed %llu times in the last %u s, but the agent shows %s, so "
		    "an allocation failure is not shown", (unsigned long long)h->failures,
		    h->window_s, !h->have_free ? "no free-block figures" : "no memory pressure");
	return TW_OK;
}
