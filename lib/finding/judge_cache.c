#include "config.h"

#include "finding/judge.h"

#include <string.h>

#include "util/error.h"

/* The disk that read the most in the window: where read-ahead matters.
 * twDiskReadRate is bytes/s unscaled, so its raw numbers compare. */
static const struct tw_view_disk *
busiest_reader(const struct tw_view *v)
{
	const struct tw_view_disk *best = NULL;
	size_t i;

	for (i = 0; i < v->ndisks; i++) {
		const struct tw_view_disk *d = &v->disks[i];

		if (!tw_view_has(d, TW_OID_DISK_READ_RATE))
			continue;
		if (best == NULL || d->col[TW_OID_DISK_READ_RATE] > best->col[TW_OID_DISK_READ_RATE])
			best = d;
	}
	return best;
}

static int
bad(enum tw_state st)
{
	return st != TW_STATE_OK && st != TW_STATE_UNKNOWN;
}

void
tw_judge_cache(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, struct tw_cache_judgement *j)
{
	const struct tw_view_bufcache *bc = &v->bc;
	struct tw_cache_figures *f = &j->fig;
	const struct tw_view_disk *disk;

	memset(j, 0, sizeof(*j));
	j->have_hit = tw_view_has(bc, TW_OID_BC_READ_HIT_RATIO);
	j->have_refaults = tw_view_has(bc, TW_OID_BC_REFAULT_RATE);
	j->have_psi = tw_view_has(bc, TW_OID_BC_MEMORY_PRESSURE);
	if (j->have_hit) {
		f->hit = tw_view_num(bc, TW_OID_BC_READ_HIT_RATIO);
		j->hit = tw_threshold_state(f->hit, &c->hit_warn, &c->hit_crit);
	}
	if (j->have_refaults) {
		f->refaults = tw_view_num(bc, TW_OID_BC_REFAULT_RATE);
		j->refaults = tw_threshold_state(f->refaults, &c->refault_warn, &c->refault_crit);
	} else if (c->refault_warn.set || c->refault_crit.set) {
		j->refaults = TW_STATE_UNKNOWN;
	}
	if (j->have_psi) {
		f->psi = tw_view_num(bc, TW_OID_BC_MEMORY_PRESSURE);
		j->pressure = tw_threshold_state(f->psi, &c->psi_warn, &c->psi_crit);
	} else if (c->psi_warn.set || c->psi_crit.set) {
		j->pressure = TW_STATE_UNKNOWN;
	}
	j->worst = tw_state_worst(tw_state_worst(j->hit, j->refaults), j->pressure);

	f->have_hit = j->have_hit;
	f->have_refaults = j->have_refaults;
	f->refaults_bad = bad(j->refaults);
	f->pagein_kib = tw_view_num(bc, TW_OID_BC_PAGE_IN_RATE);
	f->have_swap = tw_view_has(bc, TW_OID_BC_SWAP_TOTAL) && tw_view_has(bc, TW_OID_BC_SWAP_FREE);
	f->swap_total = bc->col[TW_OID_BC_SWAP_TOTAL];
	f->swap_free = bc->col[TW_OID_BC_SWAP_FREE];
	f->disk_read_ahead_kb = -1;
	disk = j->disk = busiest_reader(v);
	if (disk != NULL) {
		f->disk = disk->name;
		f->disk_rops = tw_view_num(disk, TW_OID_DISK_READ_OPS);
		f->disk_read_bytes_s = tw_view_num(disk, TW_OID_DISK_READ_RATE);
		if (tw_view_has(disk, TW_OID_DISK_READ_AHEAD_KB))
			f->disk_read_ahead_kb = (int64_t)disk->col[TW_OID_DISK_READ_AHEAD_KB];
	}
	f->os = os;
	f->window_s = window_s;
}

void
tw_judge_cache_verdicts(const struct tw_cache_judgement *j, struct tw_cache_verdicts *out)
{
	memset(out, 0, sizeof(*out));
	if ((j->hit != TW_STATE_OK || j->fig.refaults_bad) &&
	    tw_evidence_cache_reads(&j->fig, &out->reads) == TW_OK)
		out->has_reads = 1;
	if (bad(j->pressure) && tw_evidence_cache_pressure(&j->fig, &out->pressure) == TW_OK)
		out->has_pressure = 1;
}
