/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/build_priv.h"

#include "util/array.h"
#include "util/error.h"

/* twCgroupTable's rows, from the sample's published cgroups and their
 * tracks in the window. Figures the cgroup's kernel or version lacks
 * (pressure on v1, refaults before 4.x) are absent, not zero. */

static void
put(struct tw_view_cgroup *vc, unsigned c, uint64_t value)
{
	vc->col[c] = value;
	vc->has |= TW_VIEW_BIT(c);
}

/* A figure in its natural unit, scaled and clamped by the column table. */
static void
put_fig(struct tw_view_cgroup *vc, unsigned c, double figure)
{
	put(vc, c, tw_column_encode(tw_column(TW_OID_CGROUP_TABLE, c), figure));
}

static void
put_str(struct tw_view_cgroup *vc, unsigned c, char *dst, size_t len, const char *src)
{
	/* Shown already; cut, if at all, at a character's boundary. */
	(void)tw_escape_copy(dst, len, src);
	if (dst[0] != '\0')
		vc->has |= TW_VIEW_BIT(c);
}

/* The raw path, shown (util/escape.h). One too long for a DisplayString
 * keeps its end, where the unit and the names that tell cgroups apart
 * are: "..." and the last components that fit, from a '/' on (or the
 * last characters, when one component alone is too long). A '/' is never
 * part of an escape or of a character, so the cut splits neither. */
static void
put_path(struct tw_view_cgroup *vc, const char *path)
{
	static const char head[] = "...";
	char shown[TW_ESCAPE_SIZE(TW_CG_PATH_LEN - 1)];
	size_t len, room = sizeof(vc->path) - sizeof(head);
	const char *tail, *slash;

	(void)tw_escape_str(shown, sizeof(shown), path);
	len = strlen(shown);
	if (len < sizeof(vc->path)) {
		put_str(vc, TW_OID_CGROUP_PATH, vc->path, sizeof(vc->path), shown);
		return;
	}
	tail = shown + len - room;
	slash = strchr(tail, '/');
	tail = slash != NULL ? slash : tw_escape_unit_start(shown, tail);
	memcpy(vc->path, head, sizeof(head) - 1);
	memcpy(vc->path + sizeof(head) - 1, tail, strlen(tail) + 1);
	vc->has |= TW_VIEW_BIT(TW_OID_CGROUP_PATH);
}

/* The limit that bounds the cache: the lower of memory.high and
 * memory.max; v1 has only the one. */
static void
put_limit(struct tw_view_cgroup *vc, const struct tw_cgroup *cg, enum tw_cg_version ver)
{
	int high = (cg->present & TW_CG_BIT(TW_CG_HIGH)) != 0;
	int max = (cg->present & TW_CG_BIT(TW_CG_MAX)) != 0;
	const char *name;
	uint64_t limit;

	if (high && (!max || cg->v[TW_CG_HIGH] <= cg->v[TW_CG_MAX])) {
		limit = cg->v[TW_CG_HIGH];
		name = "memory.high";
	} else if (max) {
		limit = cg->v[TW_CG_MAX];
		name = ver == TW_CG_V1 ? "memory.limit_in_bytes" : "memory.max";
	} else {
		return;
	}
	put(vc, TW_OID_CGROUP_MEMORY_LIMIT, limit);
	put_str(vc, TW_OID_CGROUP_LIMIT_NAME, vc->limit_name, sizeof(vc->limit_name), name);
}

static void
build_cgroup(struct tw_view_cgroup *vc, const struct tw_window *w, const struct tw_cgroup_row *r,
    enum tw_cg_version ver, const struct tw_track *t)
{
	static const struct {
		enum tw_cg_field field;
		unsigned col;
	} gauges[] = {
		{ TW_CG_CACHE, TW_OID_CGROUP_CACHE_BYTES },
		{ TW_CG_USAGE, TW_OID_CGROUP_MEMORY_USAGE },
		/* PSI's avg10 is already in hundredths of a percent. */
		{ TW_CG_MEM_PSI, TW_OID_CGROUP_MEMORY_PRESSURE },
		{ TW_CG_IO_PSI, TW_OID_CGROUP_IO_PRESSURE },
	};
	/* The limit events' increase covers the time between the samples
	 * they were read in (window/cgtrack.c), the others' the window's. */
	static const struct {
		enum tw_cg_field field;
		unsigned wcg;
		unsigned total, rate;
		int own_time;
	} counters[] = {
		{ TW_CG_REFAULTS, TW_WCG_REFAULTS, TW_OID_CGROUP_REFAULTS,
		    TW_OID_CGROUP_REFAULT_RATE, 0 },
		{ TW_CG_LIMIT_EVENTS, TW_WCG_LIMIT_EVENTS, TW_OID_CGROUP_LIMIT_EVENTS,
		    TW_OID_CGROUP_LIMIT_EVENT_RATE, 1 },
		{ TW_CG_READ_BYTES, TW_WCG_READ_BYTES, TW_OID_CGROUP_READ_BYTES,
		    TW_OID_CGROUP_READ_RATE, 0 },
		{ TW_CG_WRITE_BYTES, TW_WCG_WRITE_BYTES, TW_OID_CGROUP_WRITTEN_BYTES,
		    TW_OID_CGROUP_WRITE_RATE, 0 },
	};
	const struct tw_cgroup *cg = &r->cg;
	uint64_t d[TW_TRACK_MAX_K], cov = 0;
	int windowed = 0;
	size_t i;

	memset(vc, 0, sizeof(*vc));
	vc->index = r->index;
	put_path(vc, cg->path);
	put_str(vc, TW_OID_CGROUP_UNIT, vc->unit, sizeof(vc->unit), r->unit);
	put(vc, TW_OID_CGROUP_VERSION, (uint64_t)ver);
	if (r->owner != TW_CG_OWNER_NONE)
		put(vc, TW_OID_CGROUP_OWNER_KIND, (uint64_t)r->owner);
	if (r->owner == TW_CG_OWNER_USER_UNIT)
		put(vc, TW_OID_CGROUP_OWNER_UID, r->owner_uid);
	for (i = 0; i < sizeof(gauges) / sizeof(gauges[0]); i++)
		if (cg->present & TW_CG_BIT(gauges[i].field))
			put(vc, gauges[i].col, cg->v[gauges[i].field]);
	put_limit(vc, cg, ver);
	if (t == NULL)
		return;
	windowed = tw_window_track_delta(w, &w->cgroups, t, d, &cov) && cov > 0;
	for (i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		uint64_t ms = counters[i].own_time ? d[TW_WCG_EVENTS_MS] : cov;

		if (!(cg->present & TW_CG_BIT(counters[i].field)))
			continue;
		put(vc, counters[i].total, tw_track_total(&w->cgroups, t, counters[i].wcg));
		if (windowed && ms > 0)
			put_fig(vc, counters[i].rate, (double)d[counters[i].wcg] * 1000.0 / (double)ms);
	}
}

int
tw_view_build_cgroups(struct tw_view *v, const struct tw_window *w, const struct tw_sample *s)
{
	const struct tw_cgroup_set *set = &s->cgroups;
	size_t i, j = 0, n = (s->have & TW_SRC_BIT(TW_SRC_CGROUPS)) ? set->count : 0;
	int rc;

	v->ncgroups = 0;
	if ((rc = tw_view_reserve_cgroups(v, n)) != TW_OK)
		return rc;
	/* Rows and tracks are both sorted by index: walk them side by side. */
	for (i = 0; i < n; i++) {
		uint64_t key = set->rows[i].index;
		const struct tw_track *t = NULL;

		while (j < w->cgroups.count && w->cgroups.keys[j] < key)
			j++;
		if (j < w->cgroups.count && w->cgroups.keys[j] == key)
			t = w->cgroups.tracks[j];
		build_cgroup(&v->cgroups[i], w, &set->rows[i], set->version, t);
	}
	v->ncgroups = n;
	return TW_OK;
}
