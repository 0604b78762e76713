/* SPDX-License-Identifier: ISC */
/* Slow seeks, as the active probe measures them: random reads of one
 * block, one at a time. The probe's latency is the device's service time
 * plus whatever queue the host's own I/O builds in front of it, so the
 * queue knobs of slow r_await apply under the same preconditions (a queue
 * of TW_EVIDENCE_DEEP_QUEUE or more, a rotational disk for a deadline
 * scheduler, writes outnumbering reads for writeback throttling). Without
 * a queue, the device itself is slow and no knob is named. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "advice/evidence.h"
#include "plugin/perfdata.h"
#include "util/error.h"

static const char *
fmt_num(char *buf, size_t len, double v, unsigned precision)
{
	if (tw_perf_number(v, precision, buf, len) != TW_OK)
		snprintf(buf, len, "unknown");
	return buf;
}

static void __attribute__((format(printf, 3, 4)))
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

int
tw_evidence_probe_seek(const struct tw_disk_figures *d, int have_queue, double p,
    double ms, struct tw_verdict *out)
{
	char lat[32], q[32], pc[16], w[32], r[32];
	int deep;

	if (out == NULL)
		return TW_E_INVAL;
	memset(out, 0, sizeof(*out));
	/* Slow seeks are slow reads: a finding without a knob is the one
	 * slow r_await gives, so both have the same ticket id. */
	out->no_tunable_sym = TW_SYM_READ_LATENCY_QUEUE;
	if (d == NULL || d->name == NULL)
		return TW_E_INVAL;
	fmt_num(lat, sizeof(lat), ms, 1);
	fmt_num(pc, sizeof(pc), p, 1);
	if (!have_queue) {
		snprintf(out->no_tunable, sizeof(out->no_tunable), "%s p%s %s ms per random read, but "
		    "the agent publishes no queue figures for it (its disk filter hides it), so no "
		    "queue knob can be shown to apply", d->name, pc, lat);
		return TW_OK;
	}
	fmt_num(q, sizeof(q), d->queue, 2);
	deep = d->queue >= TW_EVIDENCE_DEEP_QUEUE;
	if (deep && d->rotational == 0 && d->scheduler != NULL &&
	    strcmp(d->scheduler, "none") != 0)
		found(out, TW_SYM_NONROT_SCHEDULER, "%s probe p%s %s ms at queue depth %s on a "
		    "solid-state device scheduled by %s, in the last %u s", d->name, pc, lat, q,
		    d->scheduler, d->window_s);
	if (deep && d->rotational == 1)
		found(out, TW_SYM_READ_LATENCY_QUEUE, "%s probe p%s %s ms at queue depth %s on a "
		    "rotational disk, in the last %u s", d->name, pc, lat, q, d->window_s);
	if (deep && d->wops > d->rops && d->wops > 0)
		found(out, TW_SYM_READ_LATENCY_WRITEBACK, "%s probe p%s %s ms behind %s writes/s "
		    "(against %s reads/s) at queue depth %s, in the last %u s", d->name, pc, lat,
		    fmt_num(w, sizeof(w), d->wops, 1), fmt_num(r, sizeof(r), d->rops, 1), q,
		    d->window_s);
	if (out->nfound > 0)
		return TW_OK;
	if (!deep)
		snprintf(out->no_tunable, sizeof(out->no_tunable), "%s takes %s ms per random read "
		    "(probe p%s) at queue depth %s: the device itself is slow (check its health, "
		    "its controller, or move load)", d->name, lat, pc, q);
	else
		snprintf(out->no_tunable, sizeof(out->no_tunable), "%s probe p%s %s ms at queue "
		    "depth %s: no queue knob applies, the device is saturated (spread the I/O or "
		    "add devices)", d->name, pc, lat, q);
	return TW_OK;
}
