/* SPDX-License-Identifier: ISC */
/* Slow seeks, as the active probe measures them: random reads of one
 * block, one at a time. The probe's latency is the device's service time
 * plus whatever queue the host's own I/O builds in front of it, so the
 * queue knobs of slow r_await apply under the same preconditions (a queue
 * of TW_EVIDENCE_DEEP_QUEUE or more, a rotational disk for a deadline
 * scheduler, writes outnumbering reads for writeback throttling). Without
 * a queue, the device itself is slow and no knob is named. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "advice/evidence.h"
#include "advice/verdict.h"
#include "threshold/perfdata.h"
#include "util/error.h"

static const char *
fmt_num(char *buf, size_t len, double v, unsigned precision)
{
	if (tw_perf_number(v, precision, buf, len) != TW_OK)
		snprintf(buf, len, "unknown");
	return buf;
}

int
tw_evidence_probe_seek(const struct tw_disk_evidence *d, int have_queue, double p,
    double ms, struct tw_verdict *out)
{
	const char *dn;
	double queue, rops, wops;
	char lat[32], q[32], pc[16], w[32], r[32];
	int deep;

	if (out == NULL)
		return TW_E_INVAL;
	memset(out, 0, sizeof(*out));
	/* Slow seeks are slow reads: a finding without a knob is the one
	 * slow r_await gives, so both have the same ticket id. */
	out->no_tunable_sym = TW_SYM_READ_LATENCY_QUEUE;
	if (d == NULL || d->rec == NULL || tw_disk_evidence_name(d) == NULL)
		return TW_E_INVAL;
	dn = tw_disk_evidence_name(d);
	queue = tw_disk_evidence_queue(d);
	rops = tw_disk_evidence_rops(d);
	wops = tw_disk_evidence_wops(d);
	fmt_num(lat, sizeof(lat), ms, 1);
	fmt_num(pc, sizeof(pc), p, 1);
	if (!have_queue) {
		snprintf(out->no_tunable, sizeof(out->no_tunable), "%s p%s %s ms per random read, but "
		    "the agent publishes no queue figures for it (its disk filter hides it), so no "
		    "queue knob can be shown to apply", dn, pc, lat);
		return TW_OK;
	}
	fmt_num(q, sizeof(q), queue, 2);
	deep = queue >= TW_EVIDENCE_DEEP_QUEUE;
	if (deep && d->rec->rotational == 0 && d->rec->scheduler != NULL &&
	    strcmp(d->rec->scheduler, "none") != 0)
		tw_verdict_found(out, TW_SYM_NONROT_SCHEDULER, "%s probe p%s %s ms at queue depth %s on a "
		    "solid-state device scheduled by %s, in the last %u s", dn, pc, lat, q,
		    d->rec->scheduler, d->window_s);
	if (deep && d->rec->rotational == 1)
		tw_verdict_found(out, TW_SYM_READ_LATENCY_QUEUE, "%s probe p%s %s ms at queue depth %s on a "
		    "rotational disk, in the last %u s", dn, pc, lat, q, d->window_s);
	if (deep && wops > rops && wops > 0)
		tw_verdict_found(out, TW_SYM_READ_LATENCY_WRITEBACK, "%s probe p%s %s ms behind %s writes/s "
		    "(against %s reads/s) at queue depth %s, in the last %u s", dn, pc, lat,
		    fmt_num(w, sizeof(w), wops, 1), fmt_num(r, sizeof(r), rops, 1), q,
		    d->window_s);
	if (out->nfound > 0)
		return TW_OK;
	if (!deep)
		snprintf(out->no_tunable, sizeof(out->no_tunable), "%s takes %s ms per random read "
		    "(probe p%s) at queue depth %s: the device itself is slow (check its health, "
		    "its controller, or move load)", dn, lat, pc, q);
	else
		snprintf(out->no_tunable, sizeof(out->no_tunable), "%s probe p%s %s ms at queue "
		    "depth %s: no queue knob applies, the device is saturated (spread the I/O or "
		    "add devices)", dn, pc, lat, q);
	return TW_OK;
}
