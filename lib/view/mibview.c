/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/mibview.h"

#include <string.h>

#include "util/sorted.h"
#include "view/mibrows.h"

/* Everything below twObjects, in order: a scalar group {id} (its objects
 * from lo up to, not including, hi; 0: to its end), a table {id}, or a
 * table one level down {id, sub}. The twFindings scalars lie on both sides
 * of twFindingTable, so they are two nodes, one before it and one after. */
struct node {
	uint32_t pre[2];
	size_t plen;
	int scalars;
	unsigned lo, hi;
};

static const struct node nodes[] = {
	{ { TW_OID_AGENT, 0 }, 1, 1, 0, 0 },
	{ { TW_OID_BUFCACHE, 0 }, 1, 1, 0, 0 },
	{ { TW_OID_DBLOCK_TABLE, 0 }, 1, 0, 0, 0 },
	{ { TW_OID_DISK_TABLE, 0 }, 1, 0, 0, 0 },
	{ { TW_OID_TUNABLE_TABLE, 0 }, 1, 0, 0, 0 },
	{ { TW_OID_FINDINGS, 0 }, 1, 1, 0, TW_OID_FINDING_TABLE },
	{ { TW_OID_FINDINGS, TW_OID_FINDING_TABLE }, 2, 0, 0, 0 },
	{ { TW_OID_FINDINGS, 0 }, 1, 1, TW_OID_FINDING_TABLE + 1, 0 },
	{ { TW_OID_CHANGE_TABLE, 0 }, 1, 0, 0, 0 },
	{ { TW_OID_PROBE_TABLE, 0 }, 1, 0, 0, 0 },
	{ { TW_OID_CGROUP_TABLE, 0 }, 1, 0, 0, 0 },
	{ { TW_OID_SOCKDROP_TABLE, 0 }, 1, 0, 0, 0 },
	{ { TW_OID_REQLAT_TABLE, 0 }, 1, 0, 0, 0 },
	{ { TW_OID_REQHIST_TABLE, 0 }, 1, 0, 0, 0 },
};

/* The value of one cell; 0 when the row has none. twAgentSampleAge is the
 * one object computed at the time of the request. */
static int
cell(const struct tw_column_group *g, const void *row, unsigned col, uint64_t now_ms,
    struct tw_ber_value *out)
{
	if (!tw_column_load(g, row, col, out))
		return 0;
	if (g->id == TW_OID_AGENT && col == TW_OID_AGENT_SAMPLE_AGE) {
		const struct tw_view_agent *a = row;
		uint64_t age = now_ms > a->newest_ms ? now_ms - a->newest_ms : 0;

		out->num = age > UINT32_MAX ? UINT32_MAX : age;
	}
	return 1;
}

/* ---- Lookups ------------------------------------------------------------ */

int
tw_oid_cmp(const uint32_t *a, size_t alen, const uint32_t *b, size_t blen)
{
	size_t i, n = alen < blen ? alen : blen;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return alen < blen ? -1 : alen > blen;
}

struct row_at {
	const struct tw_view *v;
	const struct tw_mv_table *t;
	size_t index_len;
	const uint32_t *rem;
	size_t remlen;
	int inclusive;
};

/* Whether row i's index comes before rem (at it too, when not inclusive). */
static int
row_before(const void *ctx, size_t i)
{
	const struct row_at *at = ctx;
	uint32_t idx[TW_MV_INDEX_MAX];
	int c;

	at->t->index(at->v, i, idx);
	c = tw_oid_cmp(idx, at->index_len, at->rem, at->remlen);
	return c < 0 || (c == 0 && !at->inclusive);
}

/* The first row whose index is after rem (at or after it when inclusive). */
static size_t
first_row_after(const struct tw_view *v, const struct tw_mv_table *t, size_t index_len,
    const uint32_t *rem, size_t remlen, int inclusive)
{
	struct row_at at = { v, t, index_len, rem, remlen, inclusive };

	return tw_sorted_first(t->nrows(v), row_before, &at);
}

enum tw_mv_result
tw_mv_get(const struct tw_view *v, uint64_t now_ms, const uint32_t *oid, size_t len,
    struct tw_ber_value *out)
{
	const struct tw_column_group *g;
	const struct tw_mv_table *t;
	size_t row;
	uint32_t idx[TW_MV_INDEX_MAX];

	if (len < 2 || (g = tw_column_group(oid[0])) == NULL)
		return TW_MV_NO_SUCH_OBJECT;
	if (g->index_len == 0 && tw_column_subgroup(oid[0], oid[1]) != NULL) {
		/* twFindingTable: {6, 8, 1, col, index} read as {6, 1, col,
		 * index}, its table's key being 6. */
		g = tw_column_subgroup(oid[0], oid[1]);
		oid++;
		len--;
	} else if (g->index_len == 0) {
		if (tw_column(g->id, oid[1]) == NULL)
			return TW_MV_NO_SUCH_OBJECT;
		if (len != 3 || oid[2] != 0)
			return TW_MV_NO_SUCH_INSTANCE;
		return cell(g, tw_mv_scalar_row(v, g->id), oid[1], now_ms, out) ? TW_MV_FOUND :
		    TW_MV_NO_SUCH_INSTANCE;
	}
	if (len < 3 || oid[1] != 1 || oid[2] < g->first || oid[2] >= g->ncols)
		return TW_MV_NO_SUCH_OBJECT;
	if (len != 3 + g->index_len)
		return TW_MV_NO_SUCH_INSTANCE;
	t = tw_mv_table(g->id);
	row = first_row_after(v, t, g->index_len, oid + 3, g->index_len, 1);
	if (row >= t->nrows(v))
		return TW_MV_NO_SUCH_INSTANCE;
	t->index(v, row, idx);
	if (tw_oid_cmp(idx, g->index_len, oid + 3, g->index_len) != 0)
		return TW_MV_NO_SUCH_INSTANCE;
	return cell(g, t->row(v, row), oid[2], now_ms, out) ? TW_MV_FOUND :
	    TW_MV_NO_SUCH_INSTANCE;
}

static int
group_next(const struct tw_view *v, uint64_t now_ms, const struct node *n,
    const uint32_t *oid, size_t len, int inclusive, uint32_t *next, size_t *nextlen,
    struct tw_ber_value *out)
{
	const struct tw_column_group *g = tw_column_group(n->pre[0]);
	const void *row = tw_mv_scalar_row(v, g->id);
	unsigned col = n->lo > g->first ? n->lo : g->first;
	unsigned end = n->hi != 0 && n->hi < g->ncols ? n->hi : g->ncols;

	for (; col < end; col++) {
		uint32_t cand[3] = { g->id, col, 0 };
		int c = tw_oid_cmp(cand, 3, oid, len);

		if ((c > 0 || (c == 0 && inclusive)) && cell(g, row, col, now_ms, out)) {
			memcpy(next, cand, sizeof(cand));
			*nextlen = 3;
			return 1;
		}
	}
	return 0;
}

/* The first cell of table g at or after oid; the table sits at pre
 * (plen arcs below twObjects), its cells at {pre, 1, column, index}. */
static int
table_next(const struct tw_view *v, const struct tw_column_group *g, const uint32_t *pre,
    size_t plen, const uint32_t *oid, size_t len, int inclusive, uint32_t *next,
    size_t *nextlen, struct tw_ber_value *out)
{
	static const uint32_t none[1] = { 0 };
	const struct tw_mv_table *t = tw_mv_table(g->id);
	uint32_t entry[3];
	const uint32_t *rem = none;
	size_t remlen = 0, nrows = t->nrows(v), row, elen = plen + 1;
	unsigned col = g->first;
	int c;

	memcpy(entry, pre, plen * sizeof(*pre));
	entry[plen] = 1;
	c = tw_oid_cmp(oid, len < elen ? len : elen, entry, elen);
	if (c > 0)
		return 0;	/* past this table */
	if (c == 0 && len > elen) {
		if (oid[elen] >= g->ncols)
			return 0;
		if (oid[elen] >= g->first) {
			col = oid[elen];
			rem = oid + elen + 1;
			remlen = len - elen - 1;
		}
	}
	/* Before this table or a column of it, rem is empty and every row of
	 * the column follows. */
	for (; col < g->ncols; col++) {
		row = first_row_after(v, t, g->index_len, rem, remlen, inclusive);
		for (; row < nrows; row++) {
			if (cell(g, t->row(v, row), col, 0, out)) {
				memcpy(next, entry, elen * sizeof(*entry));
				next[elen] = col;
				t->index(v, row, next + elen + 1);
				*nextlen = elen + 1 + g->index_len;
				return 1;
			}
		}
		rem = none;
		remlen = 0;
		inclusive = 1;
	}
	return 0;
}

enum tw_mv_result
tw_mv_next(const struct tw_view *v, uint64_t now_ms, const uint32_t *oid, size_t len,
    int inclusive, uint32_t *next, size_t *nextlen, struct tw_ber_value *out)
{
	size_t i;

	for (i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		const struct node *n = &nodes[i];
		int found;

		if (len > 0 && oid[0] > n->pre[0])
			continue;
		if (n->scalars)
			found = group_next(v, now_ms, n, oid, len, inclusive, next, nextlen, out);
		else if (n->plen == 1)
			found = table_next(v, tw_column_group(n->pre[0]), n->pre, 1, oid, len,
			    inclusive, next, nextlen, out);
		else
			found = table_next(v, tw_column_subgroup(n->pre[0], n->pre[1]), n->pre, 2,
			    oid, len, inclusive, next, nextlen, out);
		if (found)
			return TW_MV_FOUND;
	}
	return TW_MV_END;
}
