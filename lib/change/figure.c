/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "change/figure.h"

#include <stdio.h>
#include <string.h>

#include "advice/advice.h"
#include "collect/blockqueue.h"
#include "view/record_agent.h"
#include "view/record_cache.h"
#include "view/record_cgroup.h"
#include "view/record_pool.h"
#include "view/record_disk.h"

/* Each symptom's family and figure; see figure.h. Pool symptoms name the
 * class of twDblockTable whose failures they are. */
static const struct tw_change_map by_symptom[TW_SYM_COUNT] = {
	[TW_SYM_SOFTNET_DROPS] = { TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
	    TW_DBLOCK_SOFTNET_BACKLOG },
	[TW_SYM_SOFTNET_SQUEEZE] = { TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
	    TW_DBLOCK_SOFTNET_BUDGET },
	[TW_SYM_UDP_RCVBUF] = { TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
	    TW_DBLOCK_UDP_RCVBUF },
	[TW_SYM_UDP_SNDBUF] = { TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
	    TW_DBLOCK_UDP_SNDBUF },
	[TW_SYM_UDP_MEM] = { TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
	    TW_DBLOCK_UDP_MEMORY },
	[TW_SYM_TCP_MEM] = { TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_PRESSURE,
	    TW_DBLOCK_TCP_MEMORY },
	[TW_SYM_TCP_PRUNE] = { TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
	    TW_DBLOCK_TCP_RCVBUF },
	[TW_SYM_LISTEN_OVERFLOW] = { TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
	    TW_DBLOCK_TCP_LISTEN },
	[TW_SYM_HIGHORDER_FAIL] = { TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
	    TW_DBLOCK_HIGH_ORDER },
	[TW_SYM_MBUF_DENIED] = { TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_NONE, 0 },
	[TW_SYM_LOW_HIT_REFAULTS] = { TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_REFAULT_RATE, 0 },
	[TW_SYM_LOW_HIT_SEQUENTIAL] = { TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_HIT_RATIO, 0 },
	[TW_SYM_METADATA_CHURN] = { TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_NONE, 0 },
	[TW_SYM_DIRTY_BURST] = { TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_NONE, 0 },
	[TW_SYM_DIRTY_LIMITED] = { TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_DIRTY_LIMITED, 0 },
	[TW_SYM_MEMORY_PRESSURE] = { TW_CHANGE_FAMILY_CACHE, TW_CHANGE_FIG_MEMORY_PRESSURE, 0 },
	[TW_SYM_READ_LATENCY_QUEUE] = { TW_CHANGE_FAMILY_DISKS, TW_CHANGE_FIG_NONE, 0 },
	[TW_SYM_READ_LATENCY_WRITEBACK] = { TW_CHANGE_FAMILY_DISKS, TW_CHANGE_FIG_NONE, 0 },
	[TW_SYM_WRITE_LATENCY] = { TW_CHANGE_FAMILY_DISKS, TW_CHANGE_FIG_NONE, 0 },
	[TW_SYM_NONROT_SCHEDULER] = { TW_CHANGE_FAMILY_DISKS, TW_CHANGE_FIG_NONE, 0 },
	[TW_SYM_RANDOM_READAHEAD] = { TW_CHANGE_FAMILY_DISKS, TW_CHANGE_FIG_NONE, 0 },
	[TW_SYM_INTERRUPT_LOAD] = { TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_NONE, 0 },
	[TW_SYM_QUEUE_FULL] = { TW_CHANGE_FAMILY_DISKS, TW_CHANGE_FIG_NONE, 0 },
	[TW_SYM_SOCKET_RCVBUF_DEFAULT] = { TW_CHANGE_FAMILY_POOLS, TW_CHANGE_FIG_POOL_FAILURES,
	    TW_DBLOCK_UDP_RCVBUF },
};

static int
names(const struct tw_advice_action *a, const char *tunable)
{
	return a->name != NULL && (strcmp(a->name, tunable) == 0 ||
	    (a->twin != NULL && a->twin->name != NULL && strcmp(a->twin->name, tunable) == 0));
}

struct tw_change_map
tw_change_map(const char *tunable)
{
	static const struct tw_change_map none = { TW_CHANGE_FAMILY_NONE, TW_CHANGE_FIG_NONE, 0 };
	static const struct tw_change_map disk = { TW_CHANGE_FAMILY_DISKS,
	    TW_CHANGE_FIG_DISK_R_AWAIT, 0 };
	static const struct tw_change_map readahead = { TW_CHANGE_FAMILY_DISKS,
	    TW_CHANGE_FIG_DISK_READS_PER_MIB, 0 };
	const struct tw_advice_rule *rules;
	size_t n, i;

	static const struct tw_change_map cgroup = { TW_CHANGE_FAMILY_CACHE,
	    TW_CHANGE_FIG_CGROUP_REFAULTS, 0 };
	static const char *const limits[] = { "MemoryHigh", "MemoryMax", "MemoryLimit",
	    "memory.high", "memory.max", "memory.limit_in_bytes" };
	size_t k;

	/* A queue attribute belongs to one disk: its latency is the figure,
	 * whichever symptom names it, but for the read-ahead window, whose
	 * larger reads take longer each: there, how many reads a MiB takes. */
	if (strcmp(tunable, "queue/read_ahead_kb") == 0)
		return readahead;
	if (tw_queue_attr(tunable) != NULL)
		return disk;
	/* A cgroup's limit bounds its cache (no rule of the table names it:
	 * advice/advice_cgroup.c does). */
	for (k = 0; k < sizeof(limits) / sizeof(limits[0]); k++)
		if (strcmp(tunable, limits[k]) == 0)
			return cgroup;
	n = tw_advice_all(&rules);
	for (i = 0; i < n; i++)
		if (rules[i].sym < TW_SYM_COUNT && names(&rules[i].os[TW_OS_LINUX], tunable))
			return by_symptom[rules[i].sym];
	return none;
}

enum tw_change_family
tw_change_family_of(const char *tunable)
{
	return tw_change_map(tunable).family;
}

int
tw_change_figure_pick(const struct tw_view *v, const char *tunable, uint32_t major,
    uint32_t minor, const char *disk_name, struct tw_change_figure *f)
{
	struct tw_change_map m = tw_change_map(tunable);
	struct tw_pool_class_record pc;
	const struct tw_pool_record *p = &pc.busiest;

	memset(f, 0, sizeof(*f));
	switch (m.kind) {
	case TW_CHANGE_FIG_NONE:
	case TW_CHANGE_FIG_CGROUP_REFAULTS:
		return 0;
	case TW_CHANGE_FIG_POOL_PRESSURE:
		/* The pool of the class with the most failures in the window. */
		tw_view_pool_class_record(v, m.pool_class, &pc);
		if (!pc.found)
			return 0;
		f->a = p->cls;
		f->b = p->instance;
		if (!tw_fig_has(p->recent_pressure_ms)) {
			/* A kernel that says nothing of the pressure: its
			 * entries, as for any pool. */
			snprintf(f->name, sizeof(f->name), "%s", p->name);
			f->unit = "failures/min";
			m.kind = TW_CHANGE_FIG_POOL_FAILURES;
			break;
		}
		snprintf(f->name, sizeof(f->name), "%s pressure", p->name);
		f->unit = "%";
		break;
	case TW_CHANGE_FIG_POOL_FAILURES:
		tw_view_pool_class_record(v, m.pool_class, &pc);
		if (!pc.found)
			return 0;
		f->a = p->cls;
		f->b = p->instance;
		snprintf(f->name, sizeof(f->name), "%s", p->name);
		f->unit = "failures/min";
		break;
	case TW_CHANGE_FIG_DISK_R_AWAIT:
		f->a = major;
		f->b = minor;
		snprintf(f->name, sizeof(f->name), "%s r_await", disk_name);
		f->unit = "ms";
		break;
	case TW_CHANGE_FIG_DISK_READS_PER_MIB:
		f->a = major;
		f->b = minor;
		snprintf(f->name, sizeof(f->name), "%s reads per MiB", disk_name);
		f->unit = "reads/MiB";
		break;
	case TW_CHANGE_FIG_DIRTY_LIMITED:
		snprintf(f->name, sizeof(f->name), "writers throttled at the dirty limit");
		f->unit = "%";
		break;
	case TW_CHANGE_FIG_REFAULT_RATE:
		snprintf(f->name, sizeof(f->name), "refaults");
		f->unit = "pages/s";
		break;
	case TW_CHANGE_FIG_HIT_RATIO:
		snprintf(f->name, sizeof(f->name), "read hit ratio");
		f->unit = "%";
		break;
	case TW_CHANGE_FIG_MEMORY_PRESSURE:
		snprintf(f->name, sizeof(f->name), "memory pressure");
		f->unit = "%";
		break;
	}
	f->kind = m.kind;
	return 1;
}

void
tw_change_figure_cgroup(uint32_t index, struct tw_change_figure *f)
{
	memset(f, 0, sizeof(*f));
	f->kind = TW_CHANGE_FIG_CGROUP_REFAULTS;
	f->a = index;
	snprintf(f->name, sizeof(f->name), "cgroup refaults");
	f->unit = "pages/s";
}

/* Disk (major, minor)'s record in df; 0 when v has no such disk. */
static int
disk_figures(const struct tw_view *v, uint32_t major, uint32_t minor, struct tw_disk_record *df)
{
	const struct tw_view_disk *d = tw_view_find_disk(v, major, minor);

	if (d == NULL)
		return 0;
	tw_view_disk_record(d, df);
	return 1;
}

/* A figure of the record, when it is given. */
static int
given(double x, double *out)
{
	if (!tw_fig_has(x))
		return 0;
	*out = x;
	return 1;
}

/* One of the buffer cache's figures, by kind. */
static int
cache_figure(const struct tw_view *v, enum tw_change_figure_kind kind, double *out)
{
	struct tw_cache_record bc;

	tw_view_cache_record(&v->bc, &bc);
	switch (kind) {
	case TW_CHANGE_FIG_DIRTY_LIMITED:
		return given(bc.dirty_limited_pct, out);
	case TW_CHANGE_FIG_REFAULT_RATE:
		return given(bc.refaults_s, out);
	case TW_CHANGE_FIG_HIT_RATIO:
		return given(bc.hit_ratio_pct, out);
	case TW_CHANGE_FIG_MEMORY_PRESSURE:
		return given(bc.memory_pressure_pct, out);
	default:
		return 0;
	}
}

/* The time the window's figures really cover, or none. */
static double
window_span_ms(const struct tw_view *v)
{
	struct tw_agent_record agent;

	tw_view_agent_record(&v->agent, &agent);
	return agent.window_span_ms;
}

int
tw_change_figure_read(const struct tw_view *v, const struct tw_change_figure *f, double *out)
{
	const struct tw_view_pool *p;
	struct tw_pool_record pf;
	struct tw_disk_record df;
	const struct tw_view_cgroup *cg;
	struct tw_cgroup_record cgf;
	double span_ms;

	switch (f->kind) {
	case TW_CHANGE_FIG_POOL_PRESSURE:
		/* The window's time in pressure against its span. */
		if ((p = tw_view_find_pool(v, f->a, f->b)) == NULL)
			return 0;
		tw_view_pool_record(p, &pf);
		span_ms = window_span_ms(v);
		if (!tw_fig_has(pf.recent_pressure_ms) || !tw_fig_has(span_ms) || span_ms <= 0)
			return 0;
		*out = pf.recent_pressure_ms * 100.0 / span_ms;
		if (*out > 100.0)
			*out = 100.0;
		return 1;
	case TW_CHANGE_FIG_POOL_FAILURES:
		/* Failures within the window, per minute of the window's span. */
		if ((p = tw_view_find_pool(v, f->a, f->b)) == NULL)
			return 0;
		tw_view_pool_record(p, &pf);
		span_ms = window_span_ms(v);
		if (!tw_fig_has(pf.recent_failures) || !tw_fig_has(span_ms) || span_ms <= 0)
			return 0;
		*out = pf.recent_failures * 60000.0 / span_ms;
		return 1;
	case TW_CHANGE_FIG_DISK_R_AWAIT:
		if (!disk_figures(v, f->a, f->b, &df) || !tw_fig_has(df.r_await_ms))
			return 0;
		*out = df.r_await_ms;
		return 1;
	case TW_CHANGE_FIG_DISK_READS_PER_MIB:
		/* An idle disk reads nothing: no figure, not 0. */
		if (!disk_figures(v, f->a, f->b, &df) || !tw_fig_has(df.read_ops_s) ||
		    !tw_fig_has(df.read_bytes_s) || df.read_bytes_s <= 0)
			return 0;
		*out = df.read_ops_s * 1048576.0 / df.read_bytes_s;
		return 1;
	case TW_CHANGE_FIG_DIRTY_LIMITED:
	case TW_CHANGE_FIG_REFAULT_RATE:
	case TW_CHANGE_FIG_HIT_RATIO:
	case TW_CHANGE_FIG_MEMORY_PRESSURE:
		return cache_figure(v, f->kind, out);
	case TW_CHANGE_FIG_CGROUP_REFAULTS:
		cg = tw_view_find_cgroup(v, f->a);
		if (cg == NULL)
			return 0;
		tw_view_cgroup_record(cg, &cgf);
		return given(cgf.refaults_s, out);
	case TW_CHANGE_FIG_NONE:
		break;
	}
	return 0;
}
