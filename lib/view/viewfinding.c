/* SPDX-License-Identifier: ISC */
/* twFindings and twFindingTable: the finding tracker's list in the MIB's
 * numbering. The tracker cut its texts to the row's sizes already, at a
 * character's boundary (they are built around shown names), so they are
 * copied here as they are. */
#include "config.h"

#include "view/build_priv.h"

#include "util/error.h"

void
tw_view_finding_row(const struct tw_view_finding_in *f, struct tw_view_finding *row)
{
	memset(row, 0, sizeof(*row));
	row->index = f->index;
	tw_str_copy_cut(row->id, sizeof(row->id), f->id);
	tw_str_copy_cut(row->symptom, sizeof(row->symptom), f->symptom);
	tw_str_copy_cut(row->subject, sizeof(row->subject), f->subject);
	tw_str_copy_cut(row->evidence, sizeof(row->evidence), f->evidence);
	tw_str_copy_cut(row->tunable, sizeof(row->tunable), f->tunable);
	tw_str_copy_cut(row->current, sizeof(row->current), f->current);
	tw_str_copy_cut(row->suggested, sizeof(row->suggested), f->suggested);
	tw_str_copy_cut(row->apply, sizeof(row->apply), f->apply);
	tw_str_copy_cut(row->persist, sizeof(row->persist), f->persist);
	tw_str_copy_cut(row->documentation, sizeof(row->documentation), f->documentation);
	tw_str_copy_cut(row->owner, sizeof(row->owner), f->owner);
	row->col[TW_OID_FINDING_SEVERITY] = f->critical ? TW_FINDING_CRITICAL : TW_FINDING_WARNING;
	row->col[TW_OID_FINDING_RAISED] = f->raised_s;
	row->col[TW_OID_FINDING_CHANGED] = f->changed_s;
	row->col[TW_OID_FINDING_CLASS] = (uint64_t)f->cls;
	row->col[TW_OID_FINDING_OWNER_UID] = f->owner_uid >= 0 ? (uint64_t)f->owner_uid : 0;
	/* Every column, empty strings included: an empty apply line says
	 * there is nothing to apply (a value unknown, or at its limit); the
	 * owner's uid where there is one. */
	row->has = ((UINT32_C(1) << TW_VIEW_FINDING_COLS) - 1) & ~UINT32_C(3);
	if (f->owner_uid < 0)
		row->has &= ~TW_VIEW_BIT(TW_OID_FINDING_OWNER_UID);
}

void
tw_view_put_notify_counts(struct tw_view *v, const struct tw_view_notify_counts *c)
{
	struct tw_view_findsum *s = &v->findsum;

	if (s->has == 0)
		return;
	s->col[TW_OID_FINDING_SUPPRESSED] = c->suppressed;
	s->col[TW_OID_FINDING_DROPPED] = c->dropped;
	s->col[TW_OID_FINDING_SENT] = c->sent;
	s->col[TW_OID_FINDING_LIMIT] = c->per_minute;
	s->has |= TW_VIEW_BIT(TW_OID_FINDING_SUPPRESSED) | TW_VIEW_BIT(TW_OID_FINDING_DROPPED) |
	    TW_VIEW_BIT(TW_OID_FINDING_SENT) | TW_VIEW_BIT(TW_OID_FINDING_LIMIT);
}

int
tw_view_build_findings(struct tw_view *v, const struct tw_view_findings_in *f,
    const struct tw_view_notify_counts *c)
{
	struct tw_view_findsum *s = &v->findsum;
	size_t i;
	int rc;

	if ((rc = tw_view_reserve_findings(v, f->n > 0 ? f->n : 1)) != TW_OK)
		return rc;
	for (i = 0; i < f->n; i++)
		tw_view_finding_row(&f->rows[i], &v->findings[i]);
	v->nfindings = f->n;
	memset(s, 0, sizeof(*s));
	s->col[TW_OID_FINDING_COUNT] = f->n;
	s->col[TW_OID_FINDING_LAST_CHANGE] = f->last_change_s;
	s->col[TW_OID_FINDING_CAPACITY] = f->capacity;
	s->col[TW_OID_FINDING_OVERFLOWS] = f->overflows;
	s->col[TW_OID_FINDING_RAISE_AFTER] = f->raise_after;
	s->col[TW_OID_FINDING_CLEAR_AFTER] = f->clear_after;
	/* The notification counters (twFindingNotificationsSuppressed and
	 * those after the table) come with the agent's notifications. */
	s->has = ((UINT32_C(1) << (TW_OID_FINDING_CLEAR_AFTER + 1)) - 1) & ~UINT32_C(1) &
	    ~TW_VIEW_BIT(TW_OID_FINDING_SUPPRESSED);
	if (c != NULL)
		tw_view_put_notify_counts(v, c);
	return TW_OK;
}
