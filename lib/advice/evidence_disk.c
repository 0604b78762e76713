/* SPDX-License-Identifier: ISC */
/* Slow disks: a full queue, slow reads and slow writes, and which queue
 * knob helps under which precondition (doc/ADVICE-REFERENCE.md). */
#include "config.h"

#include "advice/evidence.h"

#include <stdio.h>
#include <string.h>

#include "advice/verdict.h"
#include "util/error.h"

/* The latencies judged: a percentile named in d, else the record's. */
static double
r_ms(const struct tw_disk_evidence *d)
{
	return d->r_name != NULL ? d->r_pct_ms : tw_fig_or0(d->rec->r_await_ms);
}

static double
w_ms(const struct tw_disk_evidence *d)
{
	return d->w_name != NULL ? d->w_pct_ms : tw_fig_or0(d->rec->w_await_ms);
}

static int
deep(const struct tw_disk_evidence *d)
{
	return tw_disk_evidence_queue(d) >= TW_EVIDENCE_DEEP_QUEUE;
}

/* Reads and writes both in the queue (TW_EVIDENCE_MIXED_SHARE). */
static int
mixed(const struct tw_disk_evidence *d)
{
	double all = tw_disk_evidence_rops(d) + tw_disk_evidence_wops(d);

	return all > 0 && tw_disk_evidence_rops(d) >= all * TW_EVIDENCE_MIXED_SHARE &&
	    tw_disk_evidence_wops(d) >= all * TW_EVIDENCE_MIXED_SHARE;
}

/* A queue held near nr_requests, of reads and writes both: halving it caps
 * what one kind waits behind the other. Below half of it, halving changes
 * nothing; a single stream waits behind itself whatever its length. */
static int
queue_full(const struct tw_disk_evidence *d)
{
	return deep(d) && mixed(d) && d->rec->nr_requests > 0 &&
	    tw_disk_evidence_queue(d) * 2 >= (double)d->rec->nr_requests;
}

/* Busy through the window: at its throughput, not in bursts. */
static int
saturated(const struct tw_disk_evidence *d)
{
	return d->rec->util_pct >= TW_EVIDENCE_WRITER_BUSY;
}

static void
add_queue_full(const struct tw_disk_evidence *d, struct tw_verdict_nums *n, struct tw_verdict *out)
{
	if (queue_full(d))
		tw_verdict_found(out, TW_SYM_QUEUE_FULL, "%s holds %s requests on average against "
		    "nr_requests %lld, in the last %u s", tw_disk_evidence_name(d),
		    tw_verdict_num(n, tw_disk_evidence_queue(d), 2),
		    (long long)d->rec->nr_requests, d->window_s);
}

static const char *
kind(const struct tw_disk_evidence *d)
{
	if (d->rec->rotational == 1)
		return "a rotational disk";
	if (d->rec->rotational == 0)
		return d->rec->scheduler != NULL && strcmp(d->rec->scheduler, "none") == 0 ?
		    "a solid-state device already without a scheduler" : "a solid-state device";
	return "a device of unknown kind";
}

/* What the lines of a slow read and of a slow write both say of d: its
 * name, the latency judged (a percentile named in d, else the record's
 * await) and that figure's name, its queue, and its requests a second.
 * The strings are in n's buffers, so l is not to be copied. */
struct lines {
	struct tw_verdict_nums n;
	const char *dn, *ms, *what, *q;
	double rops, wops;
};

/* out emptied and l made for d's reads (writes 0) or writes; TW_E_INVAL
 * for bad arguments. */
static int
lines_of(const struct tw_disk_evidence *d, int writes, struct tw_verdict *out, struct lines *l)
{
	if (out == NULL)
		return TW_E_INVAL;
	tw_verdict_init(out);
	if (d == NULL || d->rec == NULL || tw_disk_evidence_name(d) == NULL)
		return TW_E_INVAL;
	l->n.next = 0;
	l->dn = tw_disk_evidence_name(d);
	l->rops = tw_disk_evidence_rops(d);
	l->wops = tw_disk_evidence_wops(d);
	l->ms = tw_verdict_num(&l->n, writes ? w_ms(d) : r_ms(d), 1);
	l->q = tw_verdict_num(&l->n, tw_disk_evidence_queue(d), 2);
	if (writes)
		l->what = d->w_name != NULL ? d->w_name : "w_await";
	else
		l->what = d->r_name != NULL ? d->r_name : "r_await";
	return TW_OK;
}

int
tw_evidence_disk_read(const struct tw_disk_evidence *d, struct tw_verdict *out)
{
	struct lines l;

	if (lines_of(d, 0, out, &l) != TW_OK)
		return TW_E_INVAL;

	/* A software scheduler on a solid-state device only costs time
	 * where requests queue for it to order. */
	if (deep(d) && d->rec->rotational == 0 && d->rec->scheduler != NULL &&
	    strcmp(d->rec->scheduler, "none") != 0)
		tw_verdict_found(out, TW_SYM_NONROT_SCHEDULER, "%s %s %s ms at queue depth %s on a "
		    "solid-state device scheduled by %s, in the last %u s", l.dn, l.what, l.ms, l.q,
		    d->rec->scheduler, d->window_s);
	/* A deadline scheduler orders a queue for a disk that seeks; on a
	 * solid-state device it is the scheduler the rule above removes. */
	if (deep(d) && d->rec->rotational == 1)
		tw_verdict_found(out, TW_SYM_READ_LATENCY_QUEUE, "%s %s %s ms at queue depth %s on a "
		    "rotational disk, in the last %u s", l.dn, l.what, l.ms, l.q, d->window_s);
	add_queue_full(d, &l.n, out);
	/* Writes outnumbering reads in a queue: writeback crowds the reads. */
	if (deep(d) && l.wops > l.rops && l.wops > 0)
		tw_verdict_found(out, TW_SYM_READ_LATENCY_WRITEBACK, "%s %s %s ms behind %s writes/s "
		    "(against %s reads/s) at queue depth %s, in the last %u s", l.dn, l.what, l.ms,
		    tw_verdict_num(&l.n, l.wops, 1), tw_verdict_num(&l.n, l.rops, 1), l.q, d->window_s);
	if (out->nfound > 0)
		return TW_OK;
	if (!deep(d) && d->r_name == NULL)
		tw_verdict_none(out, TW_SYM_READ_LATENCY_QUEUE,
		    "%s takes %s ms per read at queue depth %s: the device itself is slow "
		    "(check its health, its controller, or move load)", l.dn, l.ms, l.q);
	else if (!deep(d))
		tw_verdict_none(out, TW_SYM_READ_LATENCY_QUEUE,
		    "%s %s %s ms at queue depth %s: the device itself is slow "
		    "(check its health, its controller, or move load)", l.dn, l.what, l.ms, l.q);
	else
		tw_verdict_none(out, TW_SYM_READ_LATENCY_QUEUE,
		    "%s %s %s ms at queue depth %s, on %s: no queue knob applies, the "
		    "device is saturated (spread the I/O or add devices)", l.dn, l.what, l.ms, l.q, kind(d));
	return TW_OK;
}

/* d's writes, MiB/s, or "unknown". */
static const char *
written(const struct tw_disk_evidence *d, struct tw_verdict_nums *n)
{
	return tw_fig_has(d->rec->write_bytes_s) ?
	    tw_verdict_num(n, d->rec->write_bytes_s / 1048576.0, 1) : "unknown";
}

int
tw_evidence_disk_write(const struct tw_disk_evidence *d, struct tw_verdict *out)
{
	struct lines l;

	if (lines_of(d, 1, out, &l) != TW_OK)
		return TW_E_INVAL;
	/* Dirty-data limits are host-wide: only a deep queue of writes on a
	 * device that had room shows writeback arriving in bursts that
	 * earlier flushing would spread. Not while writers were held at the
	 * dirty limit in the window: dirty pages were past the background
	 * threshold, and its tail is their writeback draining; the
	 * flusher wrote all along, and a lower threshold starts nothing
	 * sooner (the lab's writer faster than its loop device, held 100 %
	 * of the window, was told to halve dirty_background_bytes). */
	if (deep(d) && l.wops >= l.rops && l.wops > 0 && !saturated(d) && !d->writers_held)
		tw_verdict_found(out, TW_SYM_WRITE_LATENCY, "%s %s %s ms with %s requests queued on "
		    "average, mostly writes (%s/s against %s reads/s): writeback arrives in "
		    "bursts, in the last %u s", l.dn, l.what, l.ms, l.q, tw_verdict_num(&l.n, l.wops, 1),
		    tw_verdict_num(&l.n, l.rops, 1), d->window_s);
	add_queue_full(d, &l.n, out);
	if (out->nfound > 0)
		return TW_OK;
	if (!deep(d) && d->w_name == NULL)
		tw_verdict_none(out, TW_SYM_WRITE_LATENCY,
		    "%s takes %s ms per write at queue depth %s: the device itself is slow "
		    "(check its health, its controller and its write cache, or move load)",
		    l.dn, l.ms, l.q);
	else if (!deep(d))
		tw_verdict_none(out, TW_SYM_WRITE_LATENCY,
		    "%s %s %s ms at queue depth %s: the device itself is slow "
		    "(check its health, its controller and its write cache, or move load)",
		    l.dn, l.what, l.ms, l.q);
	else if (l.wops >= l.rops && l.wops > 0 && !saturated(d))
		tw_verdict_none(out, TW_SYM_WRITE_LATENCY,
		    "%s %s %s ms at queue depth %s, mostly writes (%s MiB/s), while writers were "
		    "held at the dirty limit: the flusher wrote all along, so that is the "
		    "device's throughput for these writes, and no writeback knob makes a writer "
		    "faster than it (spread the I/O or add devices)", l.dn, l.what, l.ms, l.q,
		    written(d, &l.n));
	else if (l.wops >= l.rops && l.wops > 0)
		tw_verdict_none(out, TW_SYM_WRITE_LATENCY,
		    "%s %s %s ms at queue depth %s, mostly writes (%s MiB/s), busy %s %% of the "
		    "window: the device writes at its throughput, and no writeback knob makes a "
		    "writer faster than it (spread the I/O or add devices)", l.dn, l.what, l.ms, l.q,
		    written(d, &l.n), tw_verdict_num(&l.n, d->rec->util_pct, 1));
	else
		tw_verdict_none(out, TW_SYM_WRITE_LATENCY,
		    "%s %s %s ms at queue depth %s, mostly reads: no writeback knob "
		    "applies, the device is saturated (spread the I/O or add devices)", l.dn, l.what,
		    l.ms, l.q);
	return TW_OK;
}
