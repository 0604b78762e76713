#include "config.h"

#include "mibview.h"

#include <string.h>

/* ---- Values of each object -------------------------------------------
 * Each group lists its objects' types in MIB order; a cell is present when
 * the view's `has` bit for it is set. */

static const enum tw_mv_type agent_types[TW_VIEW_AGENT_COLS] = {
	[TW_OID_AGENT_VERSION] = TW_MV_STRING,
	[TW_OID_AGENT_INTERVAL] = TW_MV_GAUGE,
	[TW_OID_AGENT_WINDOW] = TW_MV_GAUGE,
	[TW_OID_AGENT_SAMPLE_AGE] = TW_MV_GAUGE,
	[TW_OID_AGENT_MALFORMED] = TW_MV_COUNTER64,
	[TW_OID_AGENT_WINDOW_SAMPLES] = TW_MV_GAUGE,
	[TW_OID_AGENT_WINDOW_SPAN] = TW_MV_GAUGE,
	[TW_OID_AGENT_SYSTEM] = TW_MV_STRING,
	[TW_OID_AGENT_SAMPLES] = TW_MV_COUNTER64,
};

static const enum tw_mv_type bc_types[TW_VIEW_BC_COLS] = {
	[TW_OID_BC_MEM_TOTAL] = TW_MV_COUNTER64,
	[TW_OID_BC_MEM_AVAILABLE] = TW_MV_COUNTER64,
	[TW_OID_BC_CACHED] = TW_MV_COUNTER64,
	[TW_OID_BC_BUFFERS] = TW_MV_COUNTER64,
	[TW_OID_BC_DIRTY] = TW_MV_COUNTER64,
	[TW_OID_BC_WRITEBACK] = TW_MV_COUNTER64,
	[TW_OID_BC_READ_HIT_RATIO] = TW_MV_GAUGE,
	[TW_OID_BC_HIT_RATIO_METHOD] = TW_MV_STRING,
	[TW_OID_BC_LOGICAL_READ_BYTES] = TW_MV_COUNTER64,
	[TW_OID_BC_PHYSICAL_READ_BYTES] = TW_MV_COUNTER64,
	[TW_OID_BC_HIT_RATIO_PROCESSES] = TW_MV_GAUGE,
	[TW_OID_BC_HIT_RATIO_UNREADABLE] = TW_MV_GAUGE,
	[TW_OID_BC_REFAULTS] = TW_MV_COUNTER64,
	[TW_OID_BC_REFAULT_RATE] = TW_MV_GAUGE,
	[TW_OID_BC_MAJOR_FAULTS] = TW_MV_COUNTER64,
	[TW_OID_BC_MAJOR_FAULT_RATE] = TW_MV_GAUGE,
	[TW_OID_BC_PAGE_IN_RATE] = TW_MV_GAUGE,
	[TW_OID_BC_MEMORY_PRESSURE] = TW_MV_GAUGE,
	[TW_OID_BC_IO_PRESSURE] = TW_MV_GAUGE,
	[TW_OID_BC_SWAP_TOTAL] = TW_MV_COUNTER64,
	[TW_OID_BC_SWAP_FREE] = TW_MV_COUNTER64,
};

static const enum tw_mv_type pool_types[TW_VIEW_POOL_COLS] = {
	[TW_OID_DBLOCK_NAME] = TW_MV_STRING,
	[TW_OID_DBLOCK_SIZE] = TW_MV_GAUGE,
	[TW_OID_DBLOCK_IN_USE] = TW_MV_GAUGE,
	[TW_OID_DBLOCK_FREE] = TW_MV_GAUGE,
	[TW_OID_DBLOCK_LIMIT] = TW_MV_GAUGE,
	[TW_OID_DBLOCK_FAILURES] = TW_MV_COUNTER64,
	[TW_OID_DBLOCK_RECENT_FAILURES] = TW_MV_GAUGE,
	[TW_OID_DBLOCK_TUNABLE] = TW_MV_STRING,
	[TW_OID_DBLOCK_FAILURE_EVENT] = TW_MV_STRING,
};

static const enum tw_mv_type disk_types[TW_VIEW_DISK_COLS] = {
	[TW_OID_DISK_NAME] = TW_MV_STRING,
	[TW_OID_DISK_READS] = TW_MV_COUNTER64,
	[TW_OID_DISK_WRITES] = TW_MV_COUNTER64,
	[TW_OID_DISK_READ_BYTES] = TW_MV_COUNTER64,
	[TW_OID_DISK_WRITTEN_BYTES] = TW_MV_COUNTER64,
	[TW_OID_DISK_READ_TIME] = TW_MV_COUNTER64,
	[TW_OID_DISK_WRITE_TIME] = TW_MV_COUNTER64,
	[TW_OID_DISK_READ_OPS] = TW_MV_GAUGE,
	[TW_OID_DISK_WRITE_OPS] = TW_MV_GAUGE,
	[TW_OID_DISK_READ_RATE] = TW_MV_COUNTER64,
	[TW_OID_DISK_WRITE_RATE] = TW_MV_COUNTER64,
	[TW_OID_DISK_READ_LATENCY] = TW_MV_GAUGE,
	[TW_OID_DISK_WRITE_LATENCY] = TW_MV_GAUGE,
	[TW_OID_DISK_QUEUE_DEPTH] = TW_MV_GAUGE,
	[TW_OID_DISK_UTIL] = TW_MV_GAUGE,
	[TW_OID_DISK_IN_FLIGHT] = TW_MV_GAUGE,
	[TW_OID_DISK_SCHEDULER] = TW_MV_STRING,
	[TW_OID_DISK_NR_REQUESTS] = TW_MV_GAUGE,
	[TW_OID_DISK_READ_AHEAD_KB] = TW_MV_GAUGE,
	[TW_OID_DISK_WBT_LATENCY] = TW_MV_INTEGER,
	[TW_OID_DISK_ROTATIONAL] = TW_MV_INTEGER,
};

static void
set_str(struct tw_mv_value *out, const char *s)
{
	out->type = TW_MV_STRING;
	out->str = s;
	out->len = strlen(s);
	out->num = 0;
}

static void
set_num(struct tw_mv_value *out, enum tw_mv_type type, uint64_t n)
{
	out->type = type;
	out->num = n;
	out->str = NULL;
	out->len = 0;
}

static int
agent_cell(const struct tw_view *v, unsigned col, uint64_t now_ms, struct tw_mv_value *out)
{
	const struct tw_view_agent *a = &v->agent;

	if (!(a->has & TW_VIEW_BIT(col)))
		return 0;
	switch (col) {
	case TW_OID_AGENT_VERSION:
		set_str(out, a->version);
		return 1;
	case TW_OID_AGENT_SYSTEM:
		set_str(out, a->system);
		return 1;
	case TW_OID_AGENT_SAMPLE_AGE: {
		uint64_t age = now_ms > a->newest_ms ? now_ms - a->newest_ms : 0;

		set_num(out, TW_MV_GAUGE, age > UINT32_MAX ? UINT32_MAX : age);
		return 1;
	}
	}
	set_num(out, agent_types[col], a->col[col]);
	return 1;
}

static int
bc_cell(const struct tw_view *v, unsigned col, uint64_t now_ms, struct tw_mv_value *out)
{
	(void)now_ms;
	if (!(v->bc.has & TW_VIEW_BIT(col)))
		return 0;
	if (col == TW_OID_BC_HIT_RATIO_METHOD)
		set_str(out, v->bc.method);
	else
		set_num(out, bc_types[col], v->bc.col[col]);
	return 1;
}

/* ---- Tables ---------------------------------------------------------- */

struct table {
	uint32_t id;		/* twObjects.id */
	unsigned first_col;	/* the first accessible column */
	unsigned last_col;
	size_t index_len;
	size_t (*nrows)(const struct tw_view *v);
	void (*index)(const struct tw_view *v, size_t row, uint32_t *idx);
	int (*cell)(const struct tw_view *v, size_t row, unsigned col, struct tw_mv_value *out);
};

static size_t
pool_rows(const struct tw_view *v)
{
	return v->npools;
}

static void
pool_index(const struct tw_view *v, size_t row, uint32_t *idx)
{
	idx[0] = v->pools[row].cls;
	idx[1] = v->pools[row].instance;
}

static int
pool_cell(const struct tw_view *v, size_t row, unsigned col, struct tw_mv_value *out)
{
	const struct tw_view_pool *p = &v->pools[row];

	if (!(p->has & TW_VIEW_BIT(col)))
		return 0;
	switch (col) {
	case TW_OID_DBLOCK_NAME:
		set_str(out, p->name);
		return 1;
	case TW_OID_DBLOCK_TUNABLE:
		set_str(out, p->tunable);
		return 1;
	case TW_OID_DBLOCK_FAILURE_EVENT:
		set_str(out, p->event);
		return 1;
	}
	set_num(out, pool_types[col], p->col[col]);
	return 1;
}

static size_t
disk_rows(const struct tw_view *v)
{
	return v->ndisks;
}

static void
disk_index(const struct tw_view *v, size_t row, uint32_t *idx)
{
	idx[0] = v->disks[row].major;
	idx[1] = v->disks[row].minor;
}

static int
disk_cell(const struct tw_view *v, size_t row, unsigned col, struct tw_mv_value *out)
{
	const struct tw_view_disk *d = &v->disks[row];

	if (!(d->has & TW_VIEW_BIT(col)))
		return 0;
	if (col == TW_OID_DISK_NAME)
		set_str(out, d->name);
	else if (col == TW_OID_DISK_SCHEDULER)
		set_str(out, d->scheduler);
	else
		set_num(out, disk_types[col], d->col[col]);
	return 1;
}

static size_t
tunable_rows(const struct tw_view *v)
{
	return v->ntunables;
}

static void
tunable_index(const struct tw_view *v, size_t row, uint32_t *idx)
{
	idx[0] = v->tunables[row].index;
}

static int
tunable_cell(const struct tw_view *v, size_t row, unsigned col, struct tw_mv_value *out)
{
	const struct tw_view_tunable *t = &v->tunables[row];

	if (col == TW_OID_TUNABLE_NAME)
		set_str(out, t->name);
	else
		set_str(out, t->value);
	return 1;
}

static const struct table tables[] = {
	{ TW_OID_DBLOCK_TABLE, TW_OID_DBLOCK_NAME, TW_OID_DBLOCK_FAILURE_EVENT, 2,
	    pool_rows, pool_index, pool_cell },
	{ TW_OID_DISK_TABLE, TW_OID_DISK_NAME, TW_OID_DISK_ROTATIONAL, 2,
	    disk_rows, disk_index, disk_cell },
	{ TW_OID_TUNABLE_TABLE, TW_OID_TUNABLE_NAME, TW_OID_TUNABLE_VALUE, 1,
	    tunable_rows, tunable_index, tunable_cell },
};

/* ---- Scalar groups ----------------------------------------------------- */

struct group {
	uint32_t id;
	unsigned last;
	int (*cell)(const struct tw_view *v, unsigned col, uint64_t now_ms,
	    struct tw_mv_value *out);
};

static const struct group groups[] = {
	{ TW_OID_AGENT, TW_OID_AGENT_SAMPLES, agent_cell },
	{ TW_OID_BUFCACHE, TW_OID_BC_SWAP_FREE, bc_cell },
};

/* ---- Lookups ------------------------------------------------------------ */

static int
oid_cmp(const uint32_t *a, size_t alen, const uint32_t *b, size_t blen)
{
	size_t i, n = alen < blen ? alen : blen;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return alen < blen ? -1 : alen > blen;
}

/* The first row whose index is after rem (at or after it when inclusive). */
static size_t
first_row_after(const struct tw_view *v, const struct table *t, const uint32_t *rem,
    size_t remlen, int inclusive)
{
	size_t lo = 0, hi = t->nrows(v);
	uint32_t idx[2];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c;

		t->index(v, mid, idx);
		c = oid_cmp(idx, t->index_len, rem, remlen);
		if (c > 0 || (c == 0 && inclusive))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

enum tw_mv_result
tw_mv_get(const struct tw_view *v, uint64_t now_ms, const uint32_t *oid, size_t len,
    struct tw_mv_value *out)
{
	size_t i;

	if (len < 2)
		return TW_MV_NO_SUCH_OBJECT;
	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		const struct group *g = &groups[i];

		if (oid[0] != g->id)
			continue;
		if (oid[1] < 1 || oid[1] > g->last)
			return TW_MV_NO_SUCH_OBJECT;
		if (len != 3 || oid[2] != 0)
			return TW_MV_NO_SUCH_INSTANCE;
		return g->cell(v, oid[1], now_ms, out) ? TW_MV_FOUND : TW_MV_NO_SUCH_INSTANCE;
	}
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		const struct table *t = &tables[i];
		size_t row;
		uint32_t idx[2];

		if (oid[0] != t->id)
			continue;
		if (len < 3 || oid[1] != 1 || oid[2] < t->first_col || oid[2] > t->last_col)
			return TW_MV_NO_SUCH_OBJECT;
		if (len != 3 + t->index_len)
			return TW_MV_NO_SUCH_INSTANCE;
		row = first_row_after(v, t, oid + 3, t->index_len, 1);
		if (row >= t->nrows(v))
			return TW_MV_NO_SUCH_INSTANCE;
		t->index(v, row, idx);
		if (oid_cmp(idx, t->index_len, oid + 3, t->index_len) != 0)
			return TW_MV_NO_SUCH_INSTANCE;
		return t->cell(v, row, oid[2], out) ? TW_MV_FOUND : TW_MV_NO_SUCH_INSTANCE;
	}
	return TW_MV_NO_SUCH_OBJECT;
}

static int
group_next(const struct tw_view *v, uint64_t now_ms, const struct group *g, const uint32_t *oid,
    size_t len, int inclusive, uint32_t *next, size_t *nextlen, struct tw_mv_value *out)
{
	unsigned col;

	for (col = 1; col <= g->last; col++) {
		uint32_t cand[3] = { g->id, col, 0 };
		int c = oid_cmp(cand, 3, oid, len);

		if ((c > 0 || (c == 0 && inclusive)) && g->cell(v, col, now_ms, out)) {
			memcpy(next, cand, sizeof(cand));
			*nextlen = 3;
			return 1;
		}
	}
	return 0;
}

static int
table_next(const struct tw_view *v, const struct table *t, const uint32_t *oid, size_t len,
    int inclusive, uint32_t *next, size_t *nextlen, struct tw_mv_value *out)
{
	static const uint32_t none[1] = { 0 };
	uint32_t entry[2] = { t->id, 1 };
	const uint32_t *rem = none;
	size_t remlen = 0, nrows = t->nrows(v), row;
	unsigned col = t->first_col;
	int c = oid_cmp(oid, len < 2 ? len : 2, entry, 2);

	if (c > 0)
		return 0;	/* past this table */
	if (c == 0 && len > 2) {
		if (oid[2] > t->last_col)
			return 0;
		if (oid[2] >= t->first_col) {
			col = oid[2];
			rem = oid + 3;
			remlen = len - 3;
		}
	}
	/* Before this table or a column of it, rem is empty and every row of
	 * the column follows. */
	for (; col <= t->last_col; col++) {
		row = first_row_after(v, t, rem, remlen, inclusive);
		for (; row < nrows; row++) {
			if (t->cell(v, row, col, out)) {
				next[0] = t->id;
				next[1] = 1;
				next[2] = col;
				t->index(v, row, next + 3);
				*nextlen = 3 + t->index_len;
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
    int inclusive, uint32_t *next, size_t *nextlen, struct tw_mv_value *out)
{
	size_t i;

	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		if (len > 0 && oid[0] > groups[i].id)
			continue;
		if (group_next(v, now_ms, &groups[i], oid, len, inclusive, next, nextlen, out))
			return TW_MV_FOUND;
	}
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		if (len > 0 && oid[0] > tables[i].id)
			continue;
		if (table_next(v, &tables[i], oid, len, inclusive, next, nextlen, out))
			return TW_MV_FOUND;
	}
	return TW_MV_END;
}
