#include "config.h"

#include "collect/buddyinfo.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"
#include "util/escape.h"

void
tw_buddy_set_init(struct tw_buddy_set *s)
{
	s->zones = NULL;
	s->count = 0;
	s->cap = 0;
}

void
tw_buddy_set_free(struct tw_buddy_set *s)
{
	free(s->zones);
	tw_buddy_set_init(s);
}

static int
buddy_set_grow(struct tw_buddy_set *s)
{
	void *p;
	int rc = tw_array_grow(s->zones, &s->cap, s->count + 1, sizeof(*s->zones), &p);

	s->zones = p;
	return rc;
}

/* Fill z from "Node 0, zone   Normal   n0 n1 ... nK"; TW_E_INVAL when the
 * line has another shape or more orders than we can hold. */
static int
buddy_parse_line(const char *line, size_t len, struct tw_buddy_zone *z)
{
	struct tw_tokens it;
	const char *tok;
	size_t tlen, n, i;
	uint64_t node;

	memset(z, 0, sizeof(*z));
	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &tok, &tlen) || !tw_token_is(tok, tlen, "Node"))
		return TW_E_INVAL;
	/* The node number carries the comma: "0,". */
	if (!tw_tokens_next(&it, &tok, &tlen) || tlen < 2 || tok[tlen - 1] != ',' ||
	    tw_parse_u64(tok, tlen - 1, &node) != TW_OK || node > UINT32_MAX)
		return TW_E_INVAL;
	z->node = (uint32_t)node;
	if (!tw_tokens_next(&it, &tok, &tlen) || !tw_token_is(tok, tlen, "zone"))
		return TW_E_INVAL;
	/* A zone's name is the kernel's word ("Normal"): one that would need
	 * escaping (util/escape.h) makes the line malformed. */
	if (!tw_tokens_next(&it, &tok, &tlen) || tw_escape_needed(tok, tlen) ||
	    tw_token_copy(z->zone, sizeof(z->zone), tok, tlen) != TW_OK)
		return TW_E_INVAL;
	n = tw_tokens_count(&it);
	if (n == 0 || n > TW_BUDDY_MAX_ORDERS)
		return TW_E_INVAL;
	for (i = 0; i < n; i++) {
		tw_tokens_next(&it, &tok, &tlen);
		if (tw_parse_u64(tok, tlen, &z->free[i]) != TW_OK)
			return TW_E_INVAL;
	}
	z->norders = (uint32_t)n;
	return TW_OK;
}

/* Append the zone of one good line. */
static int
buddy_add_line(void *ctx, const char *line, size_t len)
{
	struct tw_buddy_set *out = ctx;
	struct tw_buddy_zone z;
	int rc;

	if ((rc = buddy_parse_line(line, len, &z)) != TW_OK)
		return rc;
	if ((rc = buddy_set_grow(out)) != TW_OK)
		return rc;
	out->zones[out->count++] = z;
	return TW_OK;
}

int
tw_buddyinfo_parse(const char *text, size_t len, struct tw_buddy_set *out,
    struct tw_parse_stats *ps)
{
	return tw_parse_lines(text, len, buddy_add_line, out, ps);
}

int
tw_buddyinfo_read(int proc_fd, struct tw_buf *scratch, struct tw_buddy_set *out,
    struct tw_parse_stats *ps)
{
	int rc;

	out->count = 0;
	if ((rc = tw_read_file_at(proc_fd, "buddyinfo", scratch)) != TW_OK)
		return rc;
	return tw_buddyinfo_parse(scratch->data, scratch->len, out, ps);
}
