/* SPDX-License-Identifier: ISC */
/* twChangeTable's rows, from the change history's records (lib/change/),
 * newest first, and their figures in the rows' own units. */
#include "config.h"

#include "view/build_priv.h"

static void
put_str(struct tw_view_change *r, unsigned col, char *dst, size_t len, const char *src)
{
	/* Names and values are shown strings (util/escape.h). */
	tw_escape_copy(dst, len, src);
	r->has |= TW_VIEW_BIT(col);
}

void
tw_view_build_change_row(const struct tw_view_change_in *c, struct tw_view_change *r)
{
	const struct tw_column *before = tw_column(TW_OID_CHANGE_TABLE, TW_OID_CHANGE_BEFORE);
	const struct tw_column *after = tw_column(TW_OID_CHANGE_TABLE, TW_OID_CHANGE_AFTER);

	memset(r, 0, sizeof(*r));
	r->index = c->index;
	put_str(r, TW_OID_CHANGE_TUNABLE, r->tunable, sizeof(r->tunable), c->tunable);
	put_str(r, TW_OID_CHANGE_SUBJECT, r->subject, sizeof(r->subject), c->subject);
	put_str(r, TW_OID_CHANGE_OLD_VALUE, r->old_value, sizeof(r->old_value),
	    c->old_value);
	put_str(r, TW_OID_CHANGE_NEW_VALUE, r->new_value, sizeof(r->new_value),
	    c->new_value);
	tw_vb_put(&r->has, r->col, TW_OID_CHANGE_TIME, c->when_s < 0 ? 0 :
	    c->when_s > UINT32_MAX ? UINT32_MAX : (uint64_t)c->when_s);
	tw_vb_put(&r->has, r->col, TW_OID_CHANGE_EVALUATED, c->evaluated ? 1 : 2);
	if (c->figure != NULL) {
		put_str(r, TW_OID_CHANGE_FIGURE, r->figure, sizeof(r->figure), c->figure);
		put_str(r, TW_OID_CHANGE_FIGURE_UNIT, r->unit, sizeof(r->unit), c->unit);
	}
	if (c->has_before)
		tw_vb_put(&r->has, r->col, TW_OID_CHANGE_BEFORE,
		    tw_column_encode(before, c->before));
	if (c->has_after)
		tw_vb_put(&r->has, r->col, TW_OID_CHANGE_AFTER,
		    tw_column_encode(after, c->after));
}

void
tw_view_build_changes(struct tw_view *v, const struct tw_view_change_in *changes, size_t n)
{
	size_t i;

	if (n > TW_VIEW_CHANGES)
		n = TW_VIEW_CHANGES;
	for (i = 0; i < n; i++)
		tw_view_build_change_row(&changes[i], &v->changes[i]);
	v->nchanges = n;
}

/* A figure of a twChangeTable row in its natural unit (the row's
 * twChangeFigureUnit); 0 when the row does not have it. */
