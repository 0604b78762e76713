/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "derive/derive_cgroup.h"

#include <stddef.h>

/* The limit that bounds the cache: the lower of memory.high and
 * memory.max; v1 has only the one. */
static void
limit(const struct tw_cgroup *cg, enum tw_cg_version ver, struct tw_cgroup_record *f)
{
	int high = (cg->present & TW_CG_BIT(TW_CG_HIGH)) != 0;
	int max = (cg->present & TW_CG_BIT(TW_CG_MAX)) != 0;

	if (high && (!max || cg->v[TW_CG_HIGH] <= cg->v[TW_CG_MAX])) {
		f->memory_limit_bytes = (double)cg->v[TW_CG_HIGH];
		f->limit_name = "memory.high";
	} else if (max) {
		f->memory_limit_bytes = (double)cg->v[TW_CG_MAX];
		f->limit_name = ver == TW_CG_V1 ? "memory.limit_in_bytes" : "memory.max";
	}
}

static void
gauges(const struct tw_cgroup *cg, struct tw_cgroup_record *f)
{
	if (cg->present & TW_CG_BIT(TW_CG_CACHE))
		f->cache_bytes = (double)cg->v[TW_CG_CACHE];
	if (cg->present & TW_CG_BIT(TW_CG_USAGE))
		f->memory_usage_bytes = (double)cg->v[TW_CG_USAGE];
	/* PSI's avg10 is in hundredths of a percent. */
	if (cg->present & TW_CG_BIT(TW_CG_MEM_PSI))
		f->memory_pressure_pct = (double)cg->v[TW_CG_MEM_PSI] / 100.0;
	if (cg->present & TW_CG_BIT(TW_CG_IO_PSI))
		f->io_pressure_pct = (double)cg->v[TW_CG_IO_PSI] / 100.0;
	if (cg->present & TW_CG_BIT(TW_CG_FILESET))
		f->fileset_bytes = (double)cg->v[TW_CG_FILESET];
}

/* The counters since the cgroup was first seen and their rates over the
 * window. The limit events' increase covers the time between the samples
 * they were read in (window/cgtrack.c), the others' the window's. */
static void
counters(const struct tw_window *w, const struct tw_cgroup *cg, const struct tw_track *t,
    struct tw_cgroup_record *f)
{
	static const struct {
		enum tw_cg_field field;
		unsigned wcg;
		size_t total, rate;
		int own_time;
	} cs[] = {
		{ TW_CG_REFAULTS, TW_WCG_REFAULTS, offsetof(struct tw_cgroup_record, refaults),
		    offsetof(struct tw_cgroup_record, refaults_s), 0 },
		{ TW_CG_LIMIT_EVENTS, TW_WCG_LIMIT_EVENTS,
		    offsetof(struct tw_cgroup_record, limit_events),
		    offsetof(struct tw_cgroup_record, limit_events_s), 1 },
		{ TW_CG_READ_BYTES, TW_WCG_READ_BYTES, offsetof(struct tw_cgroup_record, read_bytes),
		    offsetof(struct tw_cgroup_record, read_bytes_s), 0 },
		{ TW_CG_WRITE_BYTES, TW_WCG_WRITE_BYTES,
		    offsetof(struct tw_cgroup_record, written_bytes),
		    offsetof(struct tw_cgroup_record, write_bytes_s), 0 },
	};
	uint64_t d[TW_TRACK_MAX_K], cov = 0;
	int windowed = tw_window_track_delta(w, &w->cgroups, t, d, &cov) && cov > 0;
	size_t i;

	/* How much its memory besides the page cache rose (window.h). */
	if (windowed && (cg->present & TW_CG_BIT(TW_CG_ANON_UP))) {
		f->anon_growth_kib = (double)d[TW_WCG_ANON_UP] / 1024.0;
		f->anon_fall_kib = (double)d[TW_WCG_ANON_DOWN] / 1024.0;
	}
	for (i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		uint64_t ms = cs[i].own_time ? d[TW_WCG_EVENTS_MS] : cov;

		if (!(cg->present & TW_CG_BIT(cs[i].field)))
			continue;
		*(uint64_t *)(void *)((char *)f + cs[i].total) =
		    tw_track_total(&w->cgroups, t, cs[i].wcg);
		if (windowed && ms > 0)
			*(double *)(void *)((char *)f + cs[i].rate) =
			    (double)d[cs[i].wcg] * 1000.0 / (double)ms;
	}
}

void
tw_derive_cgroup(const struct tw_window *w, const struct tw_sample_cgroup *r,
    enum tw_cg_version ver, const struct tw_track *t, struct tw_derive_cgroup_shown *shown,
    struct tw_cgroup_record *f)
{
	tw_cgroup_record_init(f);
	f->index = r->index;
	(void)tw_escape_str(shown->path, sizeof(shown->path), r->cg.path);
	f->path = shown->path;
	f->unit = r->unit[0] != '\0' ? r->unit : NULL;
	f->version = (int64_t)ver;
	if (r->owner != TW_CG_OWNER_NONE)
		f->owner_kind = (int64_t)r->owner;
	if (r->owner == TW_CG_OWNER_USER_UNIT ||
	    (r->owner == TW_CG_OWNER_CGROUP && r->owner_uid != UINT32_MAX))
		f->owner_uid = (int64_t)r->owner_uid;
	gauges(&r->cg, f);
	limit(&r->cg, ver, f);
	if (t != NULL)
		counters(w, &r->cg, t, f);
}
