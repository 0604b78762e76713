/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/softnet.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"

/* Columns, 1-based as in the header comment. */
#define SN_MIN_COLS		9
#define SN_COL_RECEIVED_RPS	10
#define SN_COL_FLOW_LIMIT	11
#define SN_COL_BACKLOG		12
#define SN_COL_CPU		13

void
tw_softnet_set_init(struct tw_softnet_set *s)
{
	s->cpus = NULL;
	s->count = 0;
	s->cap = 0;
}

void
tw_softnet_set_free(struct tw_softnet_set *s)
{
	free(s->cpus);
	tw_softnet_set_init(s);
}

static int
softnet_set_grow(struct tw_softnet_set *s)
{
	void *p;
	int rc = tw_array_grow(s->cpus, &s->cap, s->count + 1, sizeof(*s->cpus), &p);

	s->cpus = p;
	return rc;
}

/* Fill c from one row; TW_E_INVAL unless every column is a 32-bit hex
 * number and there are at least SN_MIN_COLS of them. */
static int
softnet_parse_row(const char *line, size_t len, uint32_t row, struct tw_softnet_cpu *c)
{
	struct tw_tokens it;
	uint64_t v;
	size_t col;
	int rc;

	memset(c, 0, sizeof(*c));
	c->cpu = row;
	tw_tokens_init(&it, line, len);
	for (col = 1; (rc = tw_tokens_next_hex_u64(&it, &v)) == 1; col++) {
		uint32_t v32;

		if (v > UINT32_MAX)
			return TW_E_INVAL;
		v32 = (uint32_t)v;
		switch (col) {
		case 1:
			c->processed = v32;
			break;
		case 2:
			c->dropped = v32;
			break;
		case 3:
			c->time_squeeze = v32;
			break;
		case SN_COL_RECEIVED_RPS:
			c->received_rps = v32;
			break;
		case SN_COL_FLOW_LIMIT:
			c->flow_limit = v32;
			break;
		case SN_COL_BACKLOG:
			c->backlog_len = v32;
			c->has_backlog = 1;
			break;
		case SN_COL_CPU:
			c->cpu = v32;
			c->cpu_from_column = 1;
			break;
		default:
			break;
		}
	}
	if (rc != 0 || col - 1 < SN_MIN_COLS || col - 1 > UINT32_MAX)
		return TW_E_INVAL;
	c->ncols = (uint32_t)(col - 1);
	return TW_OK;
}

struct softnet_parse {
	struct tw_softnet_set *out;
	uint32_t row;
};

/* Without column 13 the row number is the best guess at the CPU; every
 * row counts, malformed ones too, so that one bad row does not shift the
 * CPUs after it. (A cut line, which never gets here, can only be the
 * last.) */
static int
softnet_add_row(void *ctx, const char *line, size_t len)
{
	struct softnet_parse *sp = ctx;
	struct tw_softnet_cpu c;
	int rc;

	if ((rc = softnet_parse_row(line, len, sp->row++, &c)) != TW_OK)
		return rc;
	if ((rc = softnet_set_grow(sp->out)) != TW_OK)
		return rc;
	sp->out->cpus[sp->out->count++] = c;
	return TW_OK;
}

int
tw_softnet_parse(const char *text, size_t len, struct tw_softnet_set *out,
    struct tw_parse_stats *ps)
{
	struct softnet_parse sp = { out, 0 };

	return tw_parse_lines(text, len, softnet_add_row, &sp, ps);
}

int
tw_softnet_read(int proc_fd, struct tw_buf *scratch, struct tw_softnet_set *out,
    struct tw_parse_stats *ps)
{
	int rc;

	out->count = 0;
	if ((rc = tw_read_file_at(proc_fd, "net/softnet_stat", scratch)) != TW_OK)
		return rc;
	return tw_softnet_parse(scratch->data, scratch->len, out, ps);
}
