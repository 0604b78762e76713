/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "change/watch.h"

#include <stdlib.h>
#include <string.h>

#include "advice/advice_cgroup.h"
#include "advice/ticket.h"
#include "finding/judge.h"
#include "util/array.h"
#include "util/error.h"
#include "view/record_cgroup.h"

/* The memory limits of the published cgroups, watched as tunables: a
 * service's cache is bounded by its limit, and the ticket that names the
 * limit is closed on the change's record like any other. Each limit file
 * is its own tunable, named as the cgroup's ticket names it (the unit's
 * property, or the file), with its value as systemd sizes it. A change is
 * about the cgroup's directory, its finding's subject, and carries that
 * finding's id: a user's app.slice/web.service and the system's
 * web.service share a unit name, never a ticket. Its owner is the
 * cgroup's (root for a system unit's), whose quota of the history it
 * counts in (history.h). */
struct tw_change_cglimit {
	uint32_t index;
	uint32_t present;		/* TW_CG_BIT of TW_CG_HIGH and TW_CG_MAX */
	uint64_t v[2];			/* high, max */
};

static const struct {
	enum tw_cg_field field;
	const char *v1, *v2;		/* the file; NULL: none on that version */
} limit_files[] = {
	{ TW_CG_HIGH, NULL, "memory.high" },
	{ TW_CG_MAX, "memory.limit_in_bytes", "memory.max" },
};

static void
compare(struct tw_change_watch *w, const struct tw_change_cglimit *a,
    const struct tw_sample_cgroup *b, enum tw_cg_version ver, const struct tw_view *v,
    uint64_t now_ms, int64_t now_s)
{
	const struct tw_view_cgroup *vc = tw_view_find_cgroup(v, b->index);
	const char *unit, *name;
	char x[32], y[32], subject[TW_TICKET_SUBJECT_CGROUP_LEN], id[TW_TICKET_ID_LEN];
	struct tw_cgroup_record rec;
	int64_t uid;
	size_t f;

	if (vc == NULL || tw_ticket_subject_cgroup(subject, sizeof(subject), ver == TW_CG_V1 ? 1 :
	    2, vc->path) != TW_OK)
		return;
	tw_view_cgroup_record(vc, &rec);
	uid = rec.owner_kind == TW_CG_OWNER_SYSTEM_UNIT ? 0 : rec.owner_uid;
	unit = tw_judge_cgroup_unit(vc->path);
	for (f = 0; f < sizeof(limit_files) / sizeof(limit_files[0]); f++) {
		uint32_t bit = TW_CG_BIT(limit_files[f].field);
		int had = (a->present & bit) != 0, has = (b->cg.present & bit) != 0;
		const char *file = ver == TW_CG_V1 ? limit_files[f].v1 : limit_files[f].v2;

		if (file == NULL ||
		    (had == has && (!had || a->v[f] == b->cg.v[limit_files[f].field])))
			continue;
		name = tw_advice_cgroup_tunable(file, unit != NULL);
		tw_advice_cgroup_value(had, (double)a->v[f], file, unit != NULL, x, sizeof(x));
		tw_advice_cgroup_value(has, (double)b->cg.v[limit_files[f].field], file,
		    unit != NULL, y, sizeof(y));
		/* The finding of a cgroup at its limit (ticket_cgroup.c). */
		tw_ticket_id(id, TW_SYM_CGROUP_CACHE_BOUNDED, subject, name);
		tw_change_history_add_cgroup(&w->history, v, name, subject, id, uid, b->index, x,
		    y, now_ms, now_s);
	}
}

void
tw_change_watch_cgroups(struct tw_change_watch *w, const struct tw_sample *s,
    const struct tw_view *v, int64_t now_s)
{
	const struct tw_sample_cgroups *set = &s->cgroups;
	size_t i, j = 0;

	if (!w->cgroups_read || !(s->have & TW_SRC_BIT(TW_SRC_CGROUPS)) ||
	    set->version != w->cgroups_version)
		return;
	/* Both sorted by index: a cgroup published in both samples. */
	for (i = 0; i < set->count; i++) {
		while (j < w->ncgroups && w->cgroups[j].index < set->rows[i].index)
			j++;
		if (j < w->ncgroups && w->cgroups[j].index == set->rows[i].index)
			compare(w, &w->cgroups[j], &set->rows[i], set->version, v, s->mono_ms, now_s);
	}
}

int
tw_change_keep_cgroups(struct tw_change_watch *w, const struct tw_sample *s)
{
	const struct tw_sample_cgroups *set = &s->cgroups;
	size_t i, n = (s->have & TW_SRC_BIT(TW_SRC_CGROUPS)) ? set->count : 0;
	void *p;
	int rc;

	w->cgroups_read = 0;
	rc = tw_array_grow(w->cgroups, &w->cgroups_cap, n, sizeof(*w->cgroups), &p);
	w->cgroups = p;
	if (rc != TW_OK) {
		w->ncgroups = 0;
		return rc;
	}
	for (i = 0; i < n; i++) {
		const struct tw_sample_cgroup *r = &set->rows[i];
		size_t f;

		w->cgroups[i].index = r->index;
		w->cgroups[i].present = r->cg.present &
		    (TW_CG_BIT(TW_CG_HIGH) | TW_CG_BIT(TW_CG_MAX));
		for (f = 0; f < sizeof(limit_files) / sizeof(limit_files[0]); f++)
			w->cgroups[i].v[f] = r->cg.v[limit_files[f].field];
	}
	w->ncgroups = n;
	w->cgroups_version = set->version;
	w->cgroups_read = (s->have & TW_SRC_BIT(TW_SRC_CGROUPS)) != 0;
	return TW_OK;
}

void
tw_change_free_cgroups(struct tw_change_watch *w)
{
	free(w->cgroups);
	w->cgroups = NULL;
	w->ncgroups = w->cgroups_cap = 0;
}
