/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/build_priv.h"

#include "derive/derive_cgroup.h"
#include "util/error.h"
#include "view/recordrow.h"

/* twCgroupTable's rows: each published cgroup's record
 * (lib/derive/derive_cgroup.c) projected into the MIB's numbers. */

/* A path too long for a DisplayString keeps its end, where the unit and
 * the names that tell cgroups apart are: "..." and the last components
 * that fit, from a '/' on (or the last characters, when one component
 * alone is too long). A '/' is never part of an escape or of a
 * character, so the cut splits neither. */
static void
put_path(struct tw_view_cgroup *vc, const char *shown)
{
	static const char head[] = "...";
	size_t len = strlen(shown), room = sizeof(vc->path) - sizeof(head);
	const char *tail, *slash;

	if (len < sizeof(vc->path))
		return;		/* projected whole */
	tail = shown + len - room;
	slash = strchr(tail, '/');
	tail = slash != NULL ? slash : tw_escape_unit_start(shown, tail);
	memcpy(vc->path, head, sizeof(head) - 1);
	memcpy(vc->path + sizeof(head) - 1, tail, strlen(tail) + 1);
}

static void
build_cgroup(struct tw_view_cgroup *vc, const struct tw_window *w, const struct tw_sample_cgroup *r,
    enum tw_cg_version ver, const struct tw_track *t)
{
	struct tw_derive_cgroup_shown shown;
	struct tw_cgroup_record f;

	tw_derive_cgroup(w, r, ver, t, &shown, &f);
	memset(vc, 0, sizeof(*vc));
	vc->index = f.index;
	tw_recordrow_project(tw_vb_group(TW_OID_CGROUP_TABLE), &f, vc);
	put_path(vc, f.path);
}

int
tw_view_build_cgroups(struct tw_view *v, const struct tw_window *w, const struct tw_sample *s)
{
	const struct tw_sample_cgroups *set = &s->cgroups;
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
