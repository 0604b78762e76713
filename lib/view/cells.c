/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "view/columns.h"

#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/escape.h"

/* A cell's value against its entry of the column table (columns.c): scaled
 * in and out of the MIB's number, checked against the entry's type and
 * range, and moved between the wire and a view's row. */

/* ---- Values --------------------------------------------------------------- */

int
tw_column_check(const struct tw_column *c, const struct tw_ber_value *val)
{
	int64_t min;
	uint64_t max;

	if (val->type != tw_column_ber(c))
		return TW_E_INVAL;
	tw_column_range(c, &min, &max);
	if (val->type == TW_BER_OCTET_STRING)
		return val->len <= max ? TW_OK : TW_E_RANGE;
	if (val->type == TW_BER_INTEGER) {
		int64_t s = (int64_t)val->num;

		return s >= min && (s < 0 || (uint64_t)s <= max) ? TW_OK : TW_E_RANGE;
	}
	return (min <= 0 || val->num >= (uint64_t)min) && val->num <= max ? TW_OK : TW_E_RANGE;
}

void
tw_ber_describe(const struct tw_ber_value *val, char *buf, size_t len)
{
	size_t i, n = 0;

	switch ((int)val->type) {
	case TW_BER_OCTET_STRING:
		n = (size_t)snprintf(buf, len, "OCTET STRING \"");
		/* Quote at most 32 bytes, unprintable ones as '?'. */
		for (i = 0; i < val->len && i < 32 && n + 2 < len; i++)
			buf[n++] = val->str[i] >= 0x20 && val->str[i] < 0x7f ? val->str[i] : '?';
		if (n < len)
			snprintf(buf + n, len - n, "%s\"", val->len > 32 ? "..." : "");
		return;
	case TW_BER_INTEGER:
		snprintf(buf, len, "INTEGER %lld", (long long)(int64_t)val->num);
		return;
	case TW_BER_GAUGE32:
	case TW_BER_COUNTER64:
	case 0x41:	/* Counter32 */
	case 0x43:	/* TimeTicks */
		snprintf(buf, len, "%s %llu", tw_ber_name(val->type), (unsigned long long)val->num);
		return;
	}
	if (tw_ber_name(val->type) != NULL)
		snprintf(buf, len, "%s", tw_ber_name(val->type));
	else
		snprintf(buf, len, "type 0x%02x", (unsigned)val->type);
}

/* ---- A view's rows ---------------------------------------------------------- */

/* A row says which columns it has in a word at has_off, bit N for column
 * N, as view.h's TW_VIEW_BIT numbers them; this file knows rows only by
 * the offsets of the column table, not by the view's types. */
#define HAS_BIT(col) (UINT32_C(1) << (col))

static int
row_has(const struct tw_column_group *g, const void *row, unsigned col)
{
	uint32_t has;

	if (g->has_off == SIZE_MAX)
		return 1;
	memcpy(&has, (const char *)row + g->has_off, sizeof(has));
	return (has & HAS_BIT(col)) != 0;
}

int
tw_column_load(const struct tw_column_group *g, const void *row, unsigned col,
    struct tw_ber_value *out)
{
	const struct tw_column *c;

	if (col >= g->ncols || (c = &g->cols[col])->name == NULL ||
	    c->access != TW_ACCESS_READ_ONLY || !row_has(g, row, col))
		return 0;
	out->type = tw_column_ber(c);
	if (out->type == TW_BER_OCTET_STRING) {
		out->str = (const char *)row + c->str_off;
		out->len = strnlen(out->str, c->str_size);
		out->num = 0;
	} else {
		memcpy(&out->num, (const char *)row + g->col_off + col * sizeof(uint64_t),
		    sizeof(out->num));
		out->str = NULL;
		out->len = 0;
	}
	return 1;
}

void
tw_column_store(const struct tw_column_group *g, void *row, unsigned col,
    const struct tw_ber_value *val)
{
	const struct tw_column *c = &g->cols[col];

	if (val->type == TW_BER_OCTET_STRING) {
		/* What tunewatchd sends is shown (util/escape.h) and stays as
		 * it is; a foreign agent's raw bytes are shown here, so that
		 * no newline of theirs reaches a check's output. Cut, if at
		 * all, at a character's boundary. */
		(void)tw_escape_tidy((char *)row + c->str_off, c->str_size, val->str, val->len);
	} else {
		memcpy((char *)row + g->col_off + col * sizeof(uint64_t), &val->num,
		    sizeof(val->num));
	}
	if (g->has_off != SIZE_MAX) {
		uint32_t has;

		memcpy(&has, (char *)row + g->has_off, sizeof(has));
		has |= HAS_BIT(col);
		memcpy((char *)row + g->has_off, &has, sizeof(has));
	}
}
