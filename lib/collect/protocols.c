/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/protocols.h"

#include <string.h>

#include "util/error.h"

/* The header's columns we read, by position; the line must have all. */
struct proto_parse {
	struct tw_protocols *out;
	int header_seen;
	size_t name_at, memory_at, press_at, need;
};

static int
header(struct proto_parse *pp, const char *line, size_t len)
{
	struct tw_tokens it;
	const char *tok;
	size_t tlen, i = 0;
	int name = 0, memory = 0, press = 0;

	pp->header_seen = 1;
	tw_tokens_init(&it, line, len);
	for (; tw_tokens_next(&it, &tok, &tlen); i++) {
		if (tw_token_is(tok, tlen, "protocol") && !name) {
			pp->name_at = i;
			name = 1;
		} else if (tw_token_is(tok, tlen, "memory") && !memory) {
			pp->memory_at = i;
			memory = 1;
		} else if (tw_token_is(tok, tlen, "press") && !press) {
			pp->press_at = i;
			press = 1;
		}
	}
	if (!name || !memory || !press)
		return TW_E_INVAL;
	pp->need = pp->name_at;
	if (pp->memory_at > pp->need)
		pp->need = pp->memory_at;
	if (pp->press_at > pp->need)
		pp->need = pp->press_at;
	pp->need++;
	pp->out->have_header = 1;
	return TW_OK;
}

static int
pressure_of(const char *tok, size_t len, enum tw_proto_pressure *out)
{
	if (tw_token_is(tok, len, "yes"))
		*out = TW_PROTO_PRESSURE_YES;
	else if (tw_token_is(tok, len, "no"))
		*out = TW_PROTO_PRESSURE_NO;
	else if (tw_token_is(tok, len, "NI"))
		*out = TW_PROTO_PRESSURE_NI;
	else
		return TW_E_INVAL;
	return TW_OK;
}

/* A protocol's line, checked whole before it is kept. */
static int
proto_line(void *ctx, const char *line, size_t len)
{
	struct proto_parse *pp = ctx;
	struct tw_protocol row;
	struct tw_tokens it;
	const char *tok;
	size_t tlen, i;

	if (!pp->header_seen)
		return header(pp, line, len);
	if (!pp->out->have_header)
		return TW_E_INVAL;
	memset(&row, 0, sizeof(row));
	tw_tokens_init(&it, line, len);
	if (tw_tokens_count(&it) < pp->need)
		return TW_E_INVAL;
	for (i = 0; i < pp->need && tw_tokens_next(&it, &tok, &tlen); i++) {
		if (i == pp->name_at) {
			if (tlen >= TW_PROTO_NAME_LEN || memchr(tok, '\0', tlen) != NULL)
				return TW_E_INVAL;
			memcpy(row.name, tok, tlen);
			row.name[tlen] = '\0';
		} else if (i == pp->memory_at) {
			if (tw_parse_i64(tok, tlen, &row.memory) != TW_OK || row.memory < -1)
				return TW_E_INVAL;
		} else if (i == pp->press_at && pressure_of(tok, tlen, &row.pressure) != TW_OK) {
			return TW_E_INVAL;
		}
	}
	if (pp->out->count >= TW_PROTOCOLS_MAX) {
		pp->out->left_out++;
		return TW_OK;
	}
	pp->out->p[pp->out->count++] = row;
	return TW_OK;
}

int
tw_protocols_parse(const char *text, size_t len, struct tw_protocols *out,
    struct tw_parse_stats *ps)
{
	struct proto_parse pp;

	memset(&pp, 0, sizeof(pp));
	pp.out = out;
	return tw_parse_lines(text, len, proto_line, &pp, ps);
}

int
tw_protocols_read(int proc_fd, struct tw_buf *scratch, struct tw_protocols *out,
    struct tw_parse_stats *ps)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = tw_read_file_at(proc_fd, "net/protocols", scratch)) != TW_OK)
		return rc;
	return tw_protocols_parse(scratch->data, scratch->len, out, ps);
}

const struct tw_protocol *
tw_protocols_find(const struct tw_protocols *ps, const char *name)
{
	size_t i;

	for (i = 0; i < ps->count; i++)
		if (strcmp(ps->p[i].name, name) == 0)
			return &ps->p[i];
	return NULL;
}
