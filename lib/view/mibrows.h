/* SPDX-License-Identifier: ISC */
/* The rows of TUNEWATCH-MIB's groups in a view, for the walk over them
 * (mibview.c): a scalar group is one row, the view's own struct; a table's
 * rows are the view's array, sorted by index, each table with how many
 * rows it has, the i-th of them and its index. */
#ifndef TW_MIBROWS_H
#define TW_MIBROWS_H

#include <stddef.h>
#include <stdint.h>

#include "view/view.h"

/* The longest index of a table: twReqHistEntry's four. */
#define TW_MV_INDEX_MAX 4

struct tw_mv_table {
	uint32_t id;		/* twObjects.id */
	size_t (*nrows)(const struct tw_view *v);
	const void *(*row)(const struct tw_view *v, size_t i);
	void (*index)(const struct tw_view *v, size_t i, uint32_t *idx);
};

/* The table twObjects.id (the findings table by its scalar group's
 * number), or NULL for a scalar group. */
const struct tw_mv_table *tw_mv_table(uint32_t id);

/* The row of scalar group id (twAgent, twBufferCache, twFindings). */
const void *tw_mv_scalar_row(const struct tw_view *v, uint32_t id);

#endif
