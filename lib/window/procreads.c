/* SPDX-License-Identifier: ISC */
/* Reads by processes over the window, children reaped between samples
 * counted once and whole. */
#include "config.h"

#include "window/window.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"
#include "util/sorted.h"

/* What one process of the last sample did over the interval. */
enum step_state {
	STEP_OTHER,	/* pid still there but counters went back: not counted */
	STEP_ALIVE,	/* the same process: its growth counts */
	STEP_GONE	/* exited (or its pid was reused) */
};

/* Walking a chain of vanished parents stops after this many steps: a chain
 * is short, and a loop (pids reused within the interval) must end. */
#define REAP_CHAIN_MAX	64

static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t
pid_key(const void *procs, size_t i)
{
	return tw_sorted_signed(((const struct tw_proc_io *)procs)[i].pid);
}

static const struct tw_proc_io *
find_pid(const struct tw_proc_io_set *set, int32_t pid)
{
	size_t i = tw_sorted_find(set->procs, set->count, pid_key, tw_sorted_signed(pid));

	return i < set->count ? &set->procs[i] : NULL;
}

/* The process of the last sample that should show a vanished one's
 * counters now: its parent if that is still the same process; if the
 * parent vanished too, its counters (with the child's, if the child was
 * reaped first) went to the grandparent, and so on up. A child orphaned
 * before it exited was reparented to a subreaper or init; without the
 * subreaper's identity the nearest surviving ancestor is the best guess,
 * and the caller clamps what it takes away to that ancestor's growth.
 * SIZE_MAX when no ancestor survived in view. */
static size_t
reaper_of(const struct tw_proc_io_set *prev, const struct tw_window_step *st, size_t gone)
{
	int32_t ppid = prev->procs[gone].ppid;
	unsigned n;

	for (n = 0; n < REAP_CHAIN_MAX && ppid > 0; n++) {
		const struct tw_proc_io *p = find_pid(prev, ppid);
		size_t k;

		if (p == NULL)
			break;
		k = (size_t)(p - prev->procs);
		if (st[k].state == STEP_ALIVE)
			return k;
		if (st[k].state != STEP_GONE)
			break;
		ppid = p->ppid;
	}
	return SIZE_MAX;
}

/* A process of this sample that the last one did not have: if it started
 * at or after the last sample's scan began, it was born in the interval
 * and all its counters are reads of the interval; they are added, and 1
 * returned. Otherwise (it was there but could not be read, or the start
 * of the scan is unknown) what it read before cannot be told from what
 * it read since, and nothing is counted until the next interval. Its
 * children born and reaped within the interval are in its counters
 * already, and nothing of it was counted before: no reaper owes it. */
static uint32_t
count_newborn(struct tw_window *w, const struct tw_proc_io_set *prev, const struct tw_proc_io *b)
{
	if (!prev->have_uptime || b->start_time < prev->uptime_ticks)
		return 0;
	w->logical_total = sat_add(w->logical_total, b->rchar);
	w->physical_total = sat_add(w->physical_total, b->read_bytes);
	return 1;
}

/* Add up what processes alive across the interval read, and what those
 * born within it read (count_newborn). A process is the same one only if
 * both its pid and its start time match, so a pid reused by a new process
 * does not turn its counters into a huge negative or positive step. Both
 * lists are sorted by pid.
 *
 * Linux adds a reaped child's whole-life counters to its reaper's. That
 * is how a child born and reaped within one interval is counted at all;
 * but a child seen alive was counted already, up to its last seen
 * counters, so those are taken out of its reaper's growth in the interval
 * it vanished in. What is taken from one reaper never exceeds that
 * reaper's growth: a guess that is wrong (a subreaper we cannot see, a
 * parent that ignores SIGCHLD so nothing is added) then undercounts that
 * one process's interval rather than making a total go back. */
static int
step_reads(struct tw_window *w, const struct tw_proc_io_set *cur)
{
	const struct tw_proc_io_set *prev = &w->prev_procs;
	struct tw_window_step *st;
	size_t i = 0, j = 0, k;
	uint32_t matched = 0, born = 0;
	void *p;

	if (tw_array_grow(w->step, &w->step_cap, prev->count, sizeof(*w->step), &p) != TW_OK)
		return TW_E_NOMEM;
	w->step = st = p;
	for (k = 0; k < prev->count; k++) {
		st[k].state = STEP_GONE;
		st[k].owed_logical = st[k].owed_physical = 0;
	}
	while (j < cur->count) {
		const struct tw_proc_io *b = &cur->procs[j];
		const struct tw_proc_io *a = i < prev->count ? &prev->procs[i] : NULL;

		if (a != NULL && a->pid < b->pid) {
			i++;
		} else if (a == NULL || a->pid > b->pid) {
			born += count_newborn(w, prev, b);
			j++;
		} else {
			if (a->start_time == b->start_time) {
				if (b->rchar >= a->rchar && b->read_bytes >= a->read_bytes) {
					st[i].state = STEP_ALIVE;
					st[i].grow_logical = b->rchar - a->rchar;
					st[i].grow_physical = b->read_bytes - a->read_bytes;
				} else {
					st[i].state = STEP_OTHER;
				}
			} else {
				/* The pid was reused: the old one is gone. */
				born += count_newborn(w, prev, b);
			}
			i++;
			j++;
		}
	}
	for (k = 0; k < prev->count; k++) {
		size_t r;

		if (st[k].state != STEP_GONE || (r = reaper_of(prev, st, k)) == SIZE_MAX)
			continue;
		/* Sums of counters of distinct processes: they cannot pass
		 * what a 64-bit total holds in practice, but saturate anyway. */
		st[r].owed_logical = sat_add(st[r].owed_logical, prev->procs[k].rchar);
		st[r].owed_physical = sat_add(st[r].owed_physical, prev->procs[k].read_bytes);
	}
	for (k = 0; k < prev->count; k++) {
		if (st[k].state != STEP_ALIVE)
			continue;
		if (st[k].grow_logical > st[k].owed_logical)
			w->logical_total += st[k].grow_logical - st[k].owed_logical;
		if (st[k].grow_physical > st[k].owed_physical)
			w->physical_total += st[k].grow_physical - st[k].owed_physical;
		matched++;
	}
	w->procs_matched = matched > UINT32_MAX - born ? UINT32_MAX : matched + born;
	return TW_OK;
}

static int
keep_procs(struct tw_window *w, const struct tw_proc_io_set *cur)
{
	struct tw_proc_io_set *prev = &w->prev_procs;
	void *p;

	if (tw_array_grow(prev->procs, &prev->cap, cur->count, sizeof(*prev->procs), &p) != TW_OK)
		return TW_E_NOMEM;
	prev->procs = p;
	if (cur->count > 0)
		memcpy(prev->procs, cur->procs, cur->count * sizeof(*prev->procs));
	prev->count = cur->count;
	prev->unreadable = cur->unreadable;
	prev->have_uptime = cur->have_uptime;
	prev->uptime_ticks = cur->uptime_ticks;
	return TW_OK;
}

int
tw_window_push_reads(struct tw_window *w, const struct tw_sample *s, uint64_t seq, uint64_t dt)
{
	uint64_t key = 0, raw[TW_WREADS_K] = { 0 };
	int have = (s->have & TW_SRC_BIT(TW_SRC_PROCIO)) != 0;
	int rc;

	if (!have) {
		w->prev_procs_valid = 0;
		w->procs_matched = 0;
		w->procs_unreadable = 0;
		return tw_track_set_update(&w->reads, seq, dt, &key, raw, 0);
	}
	if (!w->prev_procs_valid)
		w->procs_matched = 0;
	else if ((rc = step_reads(w, &s->procs)) != TW_OK)
		return rc;
	w->procs_unreadable = s->procs.unreadable > UINT32_MAX ? UINT32_MAX :
	    (uint32_t)s->procs.unreadable;
	if ((rc = keep_procs(w, &s->procs)) != TW_OK) {
		w->prev_procs_valid = 0;
		return rc;
	}
	w->prev_procs_valid = 1;
	raw[TW_WREADS_LOGICAL] = w->logical_total;
	raw[TW_WREADS_PHYSICAL] = w->physical_total;
	return tw_track_set_update(&w->reads, seq, dt, &key, raw, 1);
}
