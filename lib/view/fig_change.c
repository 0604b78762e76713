/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/fig_change.h"

#include "view/columns.h"
#include "view/view.h"

/* The figure of column col in its natural unit, or none. */
static double
figure(const struct tw_column_group *g, const struct tw_view_change *c, unsigned col)
{
	return tw_view_has(c, col) ? tw_column_decode(&g->cols[col], c->col[col]) : TW_FIG_NONE;
}

/* The text of column col, or NULL when the row does not have it. */
static const char *
text(const struct tw_view_change *c, unsigned col, const char *s)
{
	return tw_view_has(c, col) ? s : NULL;
}

void
tw_view_change_figures(const struct tw_view_change *c, struct tw_change_fig *f)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_CHANGE_TABLE);

	f->index = c->index;
	f->tunable = text(c, TW_OID_CHANGE_TUNABLE, c->tunable);
	f->subject = text(c, TW_OID_CHANGE_SUBJECT, c->subject);
	f->old_value = text(c, TW_OID_CHANGE_OLD_VALUE, c->old_value);
	f->new_value = text(c, TW_OID_CHANGE_NEW_VALUE, c->new_value);
	f->figure = text(c, TW_OID_CHANGE_FIGURE, c->figure);
	f->unit = text(c, TW_OID_CHANGE_FIGURE_UNIT, c->unit);
	f->time_s = figure(g, c, TW_OID_CHANGE_TIME);
	/* A TruthValue: true is 1, false 2. */
	f->evaluated = tw_view_has(c, TW_OID_CHANGE_EVALUATED) ?
	    c->col[TW_OID_CHANGE_EVALUATED] == 1 : -1;
	f->before = figure(g, c, TW_OID_CHANGE_BEFORE);
	f->after = figure(g, c, TW_OID_CHANGE_AFTER);
}
