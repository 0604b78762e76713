/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/view.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/strwriter.h"
#include "view/columns.h"

void
tw_view_init(struct tw_view *v)
{
	memset(v, 0, sizeof(*v));
}

void
tw_view_free(struct tw_view *v)
{
	free(v->disks);
	free(v->pools);
	free(v->tunables);
	free(v->socks);
	free(v->probes);
	free(v->findings);
	free(v->cgroups);
	free(v->reqlats);
	free(v->reqhists);
	memset(v, 0, sizeof(*v));
}

int
tw_view_reserve_disks(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->disks, &v->disks_cap, n, sizeof(*v->disks), &p);

	v->disks = p;
	return rc;
}

int
tw_view_reserve_pools(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->pools, &v->pools_cap, n, sizeof(*v->pools), &p);

	v->pools = p;
	return rc;
}

int
tw_view_reserve_tunables(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->tunables, &v->tunables_cap, n, sizeof(*v->tunables), &p);

	v->tunables = p;
	return rc;
}

int
tw_view_reserve_findings(struct tw_view *v, size_t n)
{
	void *p;
	int rc = tw_array_grow(v->findings, &v->findings_cap, n, sizeof(*v->findings), &p);

	v->findings = p;
	return rc;
}

static void
put(uint32_t *has, uint64_t *col, unsigned c, uint64_t value)
{
	col[c] = value;
	*has |= TW_VIEW_BIT(c);
}

/* The row of a column this file names: the groups sit at their number
 * less one (tw_column_group), and a build looks up thousands of cells. */
static inline const struct tw_column *
column(uint32_t group, unsigned c)
{
	return &tw_column_groups[group - 1].cols[c];
}

/* Put a count, clamped to the column's range (a Gauge32 stays at its
 * top rather than wrap). */
static void
put_count(uint32_t group, uint32_t *has, uint64_t *col, unsigned c, uint64_t value)
{
	uint64_t max = column(group, c)->max;

	put(has, col, c, value > max ? max : value);
}

/* Put a figure in its natural unit: the column table scales, rounds and
 * clamps it into the MIB's number. */
static void
put_fig(uint32_t group, uint32_t *has, uint64_t *col, unsigned c, double figure)
{
	put(has, col, c, tw_column_encode(column(group, c), figure));
}

static void
build_agent(struct tw_view_agent *a, const struct tw_view_settings *set,
    const struct tw_window *w, const struct tw_sample *s)
{
	uint64_t span = tw_window_span_ms(w);

	memset(a, 0, sizeof(*a));
	tw_str_copy_cut(a->version, sizeof(a->version), set->version);
	tw_escape_copy(a->system, sizeof(a->system), set->system);
	a->newest_ms = s->mono_ms;
	a->has = TW_VIEW_BIT(TW_OID_AGENT_VERSION) | TW_VIEW_BIT(TW_OID_AGENT_SYSTEM) |
	    TW_VIEW_BIT(TW_OID_AGENT_SAMPLE_AGE);
	put(&a->has, a->col, TW_OID_AGENT_INTERVAL, set->interval_s);
	put(&a->has, a->col, TW_OID_AGENT_WINDOW, set->window_s);
	put(&a->has, a->col, TW_OID_AGENT_MALFORMED, w->malformed_total);
	put(&a->has, a->col, TW_OID_AGENT_WINDOW_SAMPLES, tw_window_samples(w));
	put_count(TW_OID_AGENT, &a->has, a->col, TW_OID_AGENT_WINDOW_SPAN, span);
	put(&a->has, a->col, TW_OID_AGENT_SAMPLES, w->nsamples);
	/* What the last walk of the cgroup hierarchy found and left out:
	 * nothing to say where the host has no cgroup controllers. */
	if (s->have & TW_SRC_BIT(TW_SRC_CGROUPS)) {
		const struct tw_cgroup_set *cs = &s->cgroups;

		put_count(TW_OID_AGENT, &a->has, a->col, TW_OID_AGENT_CGROUPS_WALKED, cs->walked);
		put_count(TW_OID_AGENT, &a->has, a->col, TW_OID_AGENT_CGROUPS_UNPUBLISHED,
		    cs->unpublished);
		put_count(TW_OID_AGENT, &a->has, a->col, TW_OID_AGENT_CGROUPS_CUT_LONG,
		    cs->cuts.too_long);
		put_count(TW_OID_AGENT, &a->has, a->col, TW_OID_AGENT_CGROUPS_CUT_DEEP,
		    cs->cuts.too_deep);
		put_count(TW_OID_AGENT, &a->has, a->col, TW_OID_AGENT_CGROUPS_CUT_MANY,
		    cs->cuts.too_many);
	}
}

/* A rate per second from an increase over cov_ms. */
static double
per_s(uint64_t delta, uint64_t cov_ms)
{
	return (double)delta * 1000.0 / (double)cov_ms;
}

static void
build_bufcache(struct tw_view_bufcache *bc, const struct tw_window *w, const struct tw_sample *s)
{
	static const struct {
		enum tw_mem_field field;
		unsigned col;
	} mem[] = {
		{ TW_MEM_TOTAL, TW_OID_BC_MEM_TOTAL },
		{ TW_MEM_AVAILABLE, TW_OID_BC_MEM_AVAILABLE },
		{ TW_MEM_CACHED, TW_OID_BC_CACHED },
		{ TW_MEM_BUFFERS, TW_OID_BC_BUFFERS },
		{ TW_MEM_DIRTY, TW_OID_BC_DIRTY },
		{ TW_MEM_WRITEBACK, TW_OID_BC_WRITEBACK },
		{ TW_MEM_SWAP_TOTAL, TW_OID_BC_SWAP_TOTAL },
		{ TW_MEM_SWAP_FREE, TW_OID_BC_SWAP_FREE },
	};
	uint64_t d[TW_TRACK_MAX_K], cov;
	const struct tw_track *t;
	size_t i;

	memset(bc, 0, sizeof(*bc));
	if (s->have & TW_SRC_BIT(TW_SRC_MEMINFO))
		for (i = 0; i < sizeof(mem) / sizeof(mem[0]); i++)
			if (s->mem.present & (UINT32_C(1) << mem[i].field))
				put(&bc->has, bc->col, mem[i].col, s->mem.bytes[mem[i].field]);

	t = tw_track_set_find(&w->reads, 0);
	if (t != NULL) {
		tw_str_copy_cut(bc->method, sizeof(bc->method), TW_HIT_RATIO_METHOD);
		bc->has |= TW_VIEW_BIT(TW_OID_BC_HIT_RATIO_METHOD);
		put(&bc->has, bc->col, TW_OID_BC_LOGICAL_READ_BYTES,
		    tw_track_total(&w->reads, t, TW_WREADS_LOGICAL));
		put(&bc->has, bc->col, TW_OID_BC_PHYSICAL_READ_BYTES,
		    tw_track_total(&w->reads, t, TW_WREADS_PHYSICAL));
		put(&bc->has, bc->col, TW_OID_BC_HIT_RATIO_PROCESSES, w->procs_matched);
		put(&bc->has, bc->col, TW_OID_BC_HIT_RATIO_UNREADABLE, w->procs_unreadable);
		if (tw_window_delta(w, &w->reads, 0, d, &cov) && d[TW_WREADS_LOGICAL] > 0) {
			double miss = (double)d[TW_WREADS_PHYSICAL] / (double)d[TW_WREADS_LOGICAL];

			/* read_bytes can exceed rchar (readahead, mmap page-ins):
			 * the estimate then bottoms out at 0. */
			put_fig(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_READ_HIT_RATIO,
			    miss >= 1.0 ? 0 : (1.0 - miss) * 100.0);
		}
	}

	t = tw_track_set_find(&w->vm, 0);
	if (t != NULL) {
		int windowed = tw_window_delta(w, &w->vm, 0, d, &cov) && cov > 0;

		if (s->vm.present & (UINT32_C(1) << TW_VM_REFAULT_FILE)) {
			put(&bc->has, bc->col, TW_OID_BC_REFAULTS,
			    tw_track_total(&w->vm, t, TW_WVM_REFAULT_FILE));
			if (windowed)
				put_fig(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_REFAULT_RATE,
				    per_s(d[TW_WVM_REFAULT_FILE], cov));
		}
		if (s->vm.present & (UINT32_C(1) << TW_VM_PGMAJFAULT)) {
			put(&bc->has, bc->col, TW_OID_BC_MAJOR_FAULTS,
			    tw_track_total(&w->vm, t, TW_WVM_PGMAJFAULT));
			if (windowed)
				put_fig(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_MAJOR_FAULT_RATE,
				    per_s(d[TW_WVM_PGMAJFAULT], cov));
		}
		if (windowed && (s->vm.present & (UINT32_C(1) << TW_VM_PGPGIN)))
			put_fig(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_PAGE_IN_RATE,
			    per_s(d[TW_WVM_PGPGIN], cov));
		if (windowed && (s->vm.present & (UINT32_C(1) << TW_VM_PGSTEAL_HOST)))
			put_fig(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_RECLAIM_RATE,
			    per_s(d[TW_WVM_RECLAIM_HOST], cov));
		if (windowed && tw_window_dirty_limited(&s->vm) >= 0)
			put_fig(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_DIRTY_LIMITED,
			    (double)d[TW_WVM_DIRTY_LIMITED_MS] * 100.0 / (double)cov);
	}
	if ((s->have & TW_SRC_BIT(TW_SRC_VMSTAT)) && tw_window_dirty_limited(&s->vm) >= 0) {
		put(&bc->has, bc->col, TW_OID_BC_DIRTY_THRESHOLD,
		    s->vm.v[TW_VM_DIRTY_THRESHOLD] * s->page_size);
		put(&bc->has, bc->col, TW_OID_BC_DIRTY_BG_THRESHOLD,
		    s->vm.v[TW_VM_DIRTY_BG_THRESHOLD] * s->page_size);
	}

	if ((s->have & TW_SRC_BIT(TW_SRC_PSI_MEMORY)) && s->psi_memory.has_some)
		/* PSI's avg10 is already in hundredths of a percent. */
		put_count(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_MEMORY_PRESSURE,
		    s->psi_memory.some.avg10);
	if ((s->have & TW_SRC_BIT(TW_SRC_PSI_IO)) && s->psi_io.has_some)
		put_count(TW_OID_BUFCACHE, &bc->has, bc->col, TW_OID_BC_IO_PRESSURE,
		    s->psi_io.some.avg10);
}

/* sysstat's figures (iostat -x), over the time the increases cover, each
 * in its natural unit. */
static void
disk_window(struct tw_view_disk *vd, const uint64_t *d, uint64_t cov)
{
	const double t = (double)cov;

#define DISK(c, figure) put_fig(TW_OID_DISK_TABLE, &vd->has, vd->col, (c), (figure))
	DISK(TW_OID_DISK_READ_OPS, per_s(d[TW_WDISK_READS], cov));
	DISK(TW_OID_DISK_WRITE_OPS, per_s(d[TW_WDISK_WRITES], cov));
	DISK(TW_OID_DISK_READ_RATE, (double)d[TW_WDISK_SECTORS_READ] * 512.0 * 1000.0 / t);
	DISK(TW_OID_DISK_WRITE_RATE, (double)d[TW_WDISK_SECTORS_WRITTEN] * 512.0 * 1000.0 / t);
	/* r_await = delta read ticks / delta reads, in ms; 0 without reads,
	 * as iostat prints. */
	DISK(TW_OID_DISK_READ_LATENCY, d[TW_WDISK_READS] == 0 ? 0 :
	    (double)d[TW_WDISK_READ_TICKS] / (double)d[TW_WDISK_READS]);
	DISK(TW_OID_DISK_WRITE_LATENCY, d[TW_WDISK_WRITES] == 0 ? 0 :
	    (double)d[TW_WDISK_WRITE_TICKS] / (double)d[TW_WDISK_WRITES]);
	/* aqu-sz = delta weighted ticks / delta t; %util = delta io ticks / delta t. */
	DISK(TW_OID_DISK_QUEUE_DEPTH, (double)d[TW_WDISK_WEIGHTED_TICKS] / t);
	DISK(TW_OID_DISK_UTIL, (double)d[TW_WDISK_IO_TICKS] * 100.0 / t);
#undef DISK
}

/* t: the disk's track in the window, NULL when it has none. */
static void
build_disk(struct tw_view_disk *vd, const struct tw_window *w, const struct tw_disk_stat *ds,
    const struct tw_queue *q, const struct tw_blockident *id, const struct tw_track *t)
{
	uint64_t d[TW_WDISK_K], cov;

	memset(vd, 0, sizeof(*vd));
	vd->major = ds->major;
	vd->minor = ds->minor;
	tw_escape_copy(vd->name, sizeof(vd->name), ds->name);
	vd->has |= TW_VIEW_BIT(TW_OID_DISK_NAME);
	if (t != NULL) {
		put(&vd->has, vd->col, TW_OID_DISK_READS, tw_track_total(&w->disks, t, TW_WDISK_READS));
		put(&vd->has, vd->col, TW_OID_DISK_WRITES,
		    tw_track_total(&w->disks, t, TW_WDISK_WRITES));
		put(&vd->has, vd->col, TW_OID_DISK_READ_BYTES,
		    tw_track_total(&w->disks, t, TW_WDISK_SECTORS_READ) * 512);
		put(&vd->has, vd->col, TW_OID_DISK_WRITTEN_BYTES,
		    tw_track_total(&w->disks, t, TW_WDISK_SECTORS_WRITTEN) * 512);
		if (ds->present & TW_DISK_BIT(TW_DISK_READ_TICKS))
			put(&vd->has, vd->col, TW_OID_DISK_READ_TIME,
			    tw_track_total(&w->disks, t, TW_WDISK_READ_TICKS));
		if (ds->present & TW_DISK_BIT(TW_DISK_WRITE_TICKS))
			put(&vd->has, vd->col, TW_OID_DISK_WRITE_TIME,
			    tw_track_total(&w->disks, t, TW_WDISK_WRITE_TICKS));
		/* The old 4-counter partition lines have no times: no
		 * latency, queue or utilisation can be given for them. */
		if (tw_window_track_delta(w, &w->disks, t, d, &cov) && cov > 0 &&
		    (ds->present & TW_DISK_BIT(TW_DISK_WEIGHTED_TICKS)))
			disk_window(vd, d, cov);
	}
	if (ds->present & TW_DISK_BIT(TW_DISK_IN_FLIGHT))
		put_count(TW_OID_DISK_TABLE, &vd->has, vd->col, TW_OID_DISK_IN_FLIGHT,
		    ds->v[TW_DISK_IN_FLIGHT]);
	if (q->scheduler[0] != '\0') {
		tw_str_copy_cut(vd->scheduler, sizeof(vd->scheduler), q->scheduler);
		vd->has |= TW_VIEW_BIT(TW_OID_DISK_SCHEDULER);
	}
	if (q->nr_requests >= 0)
		put_count(TW_OID_DISK_TABLE, &vd->has, vd->col, TW_OID_DISK_NR_REQUESTS,
		    (uint64_t)q->nr_requests);
	if (q->read_ahead_kb >= 0)
		put_count(TW_OID_DISK_TABLE, &vd->has, vd->col, TW_OID_DISK_READ_AHEAD_KB,
		    (uint64_t)q->read_ahead_kb);
	if (q->wbt_lat_usec >= 0 && q->wbt_lat_usec <= INT32_MAX)
		put(&vd->has, vd->col, TW_OID_DISK_WBT_LATENCY, (uint64_t)q->wbt_lat_usec);
	if (q->rotational == 0 || q->rotational == 1)
		put(&vd->has, vd->col, TW_OID_DISK_ROTATIONAL, q->rotational ? 1 : 2);
	if (id->alias[0] != '\0') {
		tw_escape_copy(vd->alias, sizeof(vd->alias), id->alias);
		vd->has |= TW_VIEW_BIT(TW_OID_DISK_ALIAS);
	}
	if (id->stable_id[0] != '\0') {
		tw_escape_copy(vd->stable_id, sizeof(vd->stable_id), id->stable_id);
		vd->has |= TW_VIEW_BIT(TW_OID_DISK_STABLE_ID);
	}
	tw_str_copy_cut(vd->type, sizeof(vd->type), tw_disk_type_name(id->type));
	vd->has |= TW_VIEW_BIT(TW_OID_DISK_TYPE);
}

static void
build_pool(struct tw_view_pool *vp, const struct tw_window *w, const struct tw_pool *p)
{
	uint64_t recent;

	memset(vp, 0, sizeof(*vp));
	vp->cls = p->cls;
	vp->instance = p->instance;
	/* A pool's name is tunewatch's words and a CPU's number, or a node's
	 * number and a zone's name, which is the kernel's word only
	 * (collect/buddyinfo.c refuses one that would need escaping). */
	tw_str_copy_cut(vp->name, sizeof(vp->name), p->name);
	tw_str_copy_cut(vp->tunable, sizeof(vp->tunable), p->tunable);
	vp->has = TW_VIEW_BIT(TW_OID_DBLOCK_NAME) | TW_VIEW_BIT(TW_OID_DBLOCK_TUNABLE);
	if (p->has & TW_POOL_HAS_SIZE)
		put_count(TW_OID_DBLOCK_TABLE, &vp->has, vp->col, TW_OID_DBLOCK_SIZE, p->size);
	if (p->has & TW_POOL_HAS_IN_USE)
		put_count(TW_OID_DBLOCK_TABLE, &vp->has, vp->col, TW_OID_DBLOCK_IN_USE, p->in_use);
	if (p->has & TW_POOL_HAS_FREE)
		put_count(TW_OID_DBLOCK_TABLE, &vp->has, vp->col, TW_OID_DBLOCK_FREE, p->free);
	if (p->has & TW_POOL_HAS_LIMIT)
		put_count(TW_OID_DBLOCK_TABLE, &vp->has, vp->col, TW_OID_DBLOCK_LIMIT, p->limit);
	if (p->has & TW_POOL_HAS_FAILURES) {
		put(&vp->has, vp->col, TW_OID_DBLOCK_FAILURES,
		    tw_window_pool_total(w, tw_pool_key(p)));
		if (tw_window_pool_failures(w, tw_pool_key(p), &recent))
			put_count(TW_OID_DBLOCK_TABLE, &vp->has, vp->col,
			    TW_OID_DBLOCK_RECENT_FAILURES, recent);
	}
	if (p->has & TW_POOL_HAS_PRESSURE) {
		put(&vp->has, vp->col, TW_OID_DBLOCK_PRESSURE_TIME,
		    tw_window_pool_pressure_total(w, tw_pool_key(p)));
		if (tw_window_pool_pressure(w, tw_pool_key(p), &recent))
			put_count(TW_OID_DBLOCK_TABLE, &vp->has, vp->col,
			    TW_OID_DBLOCK_RECENT_PRESSURE_TIME, recent);
	}
	if (p->event != NULL && p->event[0] != '\0') {
		tw_str_copy_cut(vp->event, sizeof(vp->event), p->event);
		vp->has |= TW_VIEW_BIT(TW_OID_DBLOCK_FAILURE_EVENT);
	}
}

/* twAgentUnprintableNames: the names of the view that were shown with a
 * byte escaped other than a backslash (systemd's own "\x2d" is in many
 * an ordinary unit's name). The sockets were built before the rest. */
static uint64_t
unprintable_names(const struct tw_view *v)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < v->ndisks; i++)
		n += (uint64_t)(tw_escape_had_unprintable(v->disks[i].name) +
		    tw_escape_had_unprintable(v->disks[i].alias) +
		    tw_escape_had_unprintable(v->disks[i].stable_id));
	for (i = 0; i < v->ntunables; i++)
		n += (uint64_t)tw_escape_had_unprintable(v->tunables[i].value);
	for (i = 0; i < v->nsocks; i++)
		n += (uint64_t)tw_escape_had_unprintable(v->socks[i].command);
	for (i = 0; i < v->ncgroups; i++)
		n += (uint64_t)(tw_escape_had_unprintable(v->cgroups[i].path) +
		    tw_escape_had_unprintable(v->cgroups[i].unit));
	return n;
}

int
tw_view_build(struct tw_view *v, const struct tw_view_settings *set,
    const struct tw_window *w, const struct tw_sample *s, const struct tw_pool_set *pools)
{
	size_t i, j, n;
	int rc;

	if ((rc = tw_view_reserve_disks(v, s->disks.count)) != TW_OK ||
	    (rc = tw_view_reserve_pools(v, pools->count)) != TW_OK ||
	    (rc = tw_view_reserve_tunables(v, TW_SYSCTL_COUNT)) != TW_OK)
		return rc;
	build_agent(&v->agent, set, w, s);
	build_bufcache(&v->bc, w, s);
	/* The sample's disks and the window's tracks are both sorted by key:
	 * walk them side by side rather than search for every disk. */
	for (i = 0, j = 0; i < s->disks.count; i++) {
		const struct tw_disk_stat *ds = &s->disks.disks[i];
		uint64_t key = tw_disk_key(ds->major, ds->minor);
		const struct tw_track *t = NULL;

		while (j < w->disks.count && w->disks.keys[j] < key)
			j++;
		if (j < w->disks.count && w->disks.keys[j] == key)
			t = w->disks.tracks[j];
		build_disk(&v->disks[i], w, ds, &s->queues[i], &s->idents[i], t);
	}
	v->ndisks = s->disks.count;
	for (i = 0; i < pools->count; i++)
		build_pool(&v->pools[i], w, &pools->pools[i]);
	v->npools = pools->count;
	n = 0;
	for (i = 0; i < TW_SYSCTL_COUNT; i++) {
		const struct tw_sysctl_value *sv = &s->sysctl.v[i];

		if (!(s->have & TW_SRC_BIT(TW_SRC_SYSCTL)) || sv->rc != TW_OK)
			continue;
		v->tunables[n].index = (uint32_t)i + 1;
		tw_str_copy_cut(v->tunables[n].name, sizeof(v->tunables[n].name),
		    tw_sysctl_name((enum tw_sysctl_id)i));
		tw_escape_copy(v->tunables[n].value, sizeof(v->tunables[n].value), sv->text);
		n++;
	}
	v->ntunables = n;
	if ((rc = tw_view_build_cgroups(v, w, s)) != TW_OK)
		return rc;
	put(&v->agent.has, v->agent.col, TW_OID_AGENT_UNPRINTABLE_NAMES, unprintable_names(v));
	return TW_OK;
}

static double
num(uint32_t group, uint32_t has, const uint64_t *col, unsigned c)
{
	const struct tw_column *tc = tw_column(group, c);

	if (tc == NULL || !(has & TW_VIEW_BIT(c)))
		return 0.0;
	return tw_column_decode(tc, col[c]);
}

double
tw_view_agent_num(const struct tw_view_agent *a, unsigned col)
{
	return num(TW_OID_AGENT, a->has, a->col, col);
}

double
tw_view_bc_num(const struct tw_view_bufcache *bc, unsigned col)
{
	return num(TW_OID_BUFCACHE, bc->has, bc->col, col);
}

double
tw_view_disk_num(const struct tw_view_disk *d, unsigned col)
{
	return num(TW_OID_DISK_TABLE, d->has, d->col, col);
}

double
tw_view_pool_num(const struct tw_view_pool *p, unsigned col)
{
	return num(TW_OID_DBLOCK_TABLE, p->has, p->col, col);
}

const char *
tw_view_tunable(const struct tw_view *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->ntunables; i++)
		if (strcmp(v->tunables[i].name, name) == 0)
			return v->tunables[i].value;
	return NULL;
}
