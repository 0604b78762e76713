/* SPDX-License-Identifier: ISC */
/* A view's row and its group's record (lib/figures/), through the column
 * table: each column says which field of the record holds its figure and
 * of what kind (columns.h, enum tw_fig_kind), and the scale between the
 * figure and the MIB's number. So a figure is described once, and the
 * view's cells are the MIB's numbers of the records' figures, rounded
 * there and only there.
 *
 * The row's identity (its index: major and minor, a class and instance)
 * is no column's figure; the callers copy it. */
#ifndef TW_VIEW_RECORDROW_H
#define TW_VIEW_RECORDROW_H

#include <stdint.h>

#include "figures/fig.h"
#include "view/columns.h"

/* Fill every field of rec that a column of g names from row: a figure in
 * its natural unit, or absent where the row lacks the column. Strings
 * point into row. */
void tw_recordrow_decode(const struct tw_column_group *g, const void *row, void *rec);

/* Put every figure of rec that a column of g names into row as the MIB's
 * number (scaled, rounded and clamped: tw_column_encode), and every
 * string shown and cut at a character's boundary; an absent figure leaves
 * its column absent. The row's other columns are left as they are. */
void tw_recordrow_project(const struct tw_column_group *g, const void *rec, void *row);

/* Column col of a row whose `has` and col[] are given, in its natural
 * unit, or TW_FIG_NONE: for the readers that decode a few figures of every
 * row each sample. Inline, so that a constant col folds. */
static inline double
tw_recordrow_num(const struct tw_column_group *g, uint32_t has, const uint64_t *cells, unsigned col)
{
	return (has >> col) & 1 ? tw_column_decode(&g->cols[col], cells[col]) : TW_FIG_NONE;
}

#endif
