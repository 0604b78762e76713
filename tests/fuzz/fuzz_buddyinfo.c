/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for tw_buddyinfo_parse (lib/collect/buddyinfo.c).
 *
 * It checks that every line is kept or counted as malformed, the shape of
 * every kept zone, that a zone printed back as a line parses to itself,
 * and that the text cut in two at a line boundary parses to what the whole
 * does. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "collect/buddyinfo.h"
#include "fuzz_check.h"
#include "util/error.h"

static int
same_zone(const struct tw_buddy_zone *a, const struct tw_buddy_zone *b)
{
	return a->node == b->node && strcmp(a->zone, b->zone) == 0 &&
	    a->norders == b->norders && memcmp(a->free, b->free, sizeof(a->free)) == 0;
}

static void
check_zone(const struct tw_buddy_zone *z)
{
	size_t zlen = strnlen(z->zone, sizeof(z->zone)), i;
	char line[1024];
	struct tw_buddy_set again;
	struct tw_parse_stats ps = { 0, 0 };
	size_t pos;

	FUZZ_ASSERT(zlen > 0 && zlen < sizeof(z->zone));
	FUZZ_ASSERT(strpbrk(z->zone, " \t\n") == NULL);
	FUZZ_ASSERT(z->norders >= 1 && z->norders <= TW_BUDDY_MAX_ORDERS);
	for (i = z->norders; i < TW_BUDDY_MAX_ORDERS; i++)
		FUZZ_ASSERT(z->free[i] == 0);

	pos = (size_t)snprintf(line, sizeof(line), "Node %" PRIu32 ", zone %10s", z->node,
	    z->zone);
	for (i = 0; i < z->norders; i++)
		pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %6" PRIu64,
		    z->free[i]);
	FUZZ_ASSERT(pos + 1 < sizeof(line));
	line[pos++] = '\n';
	tw_buddy_set_init(&again);
	FUZZ_ASSERT(tw_buddyinfo_parse(line, pos, &again, &ps) == TW_OK);
	FUZZ_ASSERT(ps.lines == 1 && ps.malformed == 0 && again.count == 1);
	FUZZ_ASSERT(same_zone(z, &again.zones[0]));
	tw_buddy_set_free(&again);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct tw_buddy_set all, parts;
	struct tw_parse_stats ps = { 0, 0 }, ps2 = { 0, 0 };
	size_t i, cut;

	tw_buddy_set_init(&all);
	FUZZ_ASSERT(tw_buddyinfo_parse(text, size, &all, &ps) == TW_OK);
	fuzz_check_stats(&ps, text, size);
	FUZZ_ASSERT(all.count == ps.lines - ps.malformed);
	for (i = 0; i < all.count; i++)
		check_zone(&all.zones[i]);

	cut = fuzz_line_cut(text, size);
	tw_buddy_set_init(&parts);
	FUZZ_ASSERT(tw_buddyinfo_parse(text, cut, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(tw_buddyinfo_parse(text + cut, size - cut, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(ps2.lines == ps.lines && ps2.malformed == ps.malformed);
	FUZZ_ASSERT(parts.count == all.count);
	for (i = 0; i < all.count; i++)
		FUZZ_ASSERT(same_zone(&all.zones[i], &parts.zones[i]));
	tw_buddy_set_free(&parts);
	tw_buddy_set_free(&all);
	return 0;
}
