/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for tw_protocols_parse (lib/collect/protocols.c).
 *
 * It checks the line counts and each row kept (a NUL-terminated name that
 * fits, memory -1 or more, a known pressure state), and, since rows are
 * placed by the first line's header, that the text cut at a line boundary
 * keeps a prefix of the whole's rows: a line never changes how an earlier
 * one was read. */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "collect/protocols.h"
#include "util/error.h"

static void
check_rows(const struct tw_protocols *p)
{
	size_t i;

	FUZZ_ASSERT(p->count <= TW_PROTOCOLS_MAX);
	for (i = 0; i < p->count; i++) {
		FUZZ_ASSERT(memchr(p->p[i].name, '\0', TW_PROTO_NAME_LEN) != NULL);
		FUZZ_ASSERT(p->p[i].memory >= -1);
		FUZZ_ASSERT(p->p[i].pressure >= TW_PROTO_PRESSURE_NI &&
		    p->p[i].pressure <= TW_PROTO_PRESSURE_YES);
	}
	if (p->count > 0 || p->left_out > 0)
		FUZZ_ASSERT(p->have_header);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct tw_protocols all, head;
	struct tw_parse_stats ps = { 0, 0 }, ps2 = { 0, 0 };
	size_t cut;

	memset(&all, 0, sizeof(all));
	FUZZ_ASSERT(tw_protocols_parse(text, size, &all, &ps) == TW_OK);
	fuzz_check_stats(&ps, text, size);
	check_rows(&all);
	if (all.count > 0)
		FUZZ_ASSERT(ps.malformed < ps.lines);

	cut = fuzz_line_cut(text, size);
	memset(&head, 0, sizeof(head));
	FUZZ_ASSERT(tw_protocols_parse(text, cut, &head, &ps2) == TW_OK);
	FUZZ_ASSERT(ps2.lines <= ps.lines && ps2.malformed <= ps.malformed);
	FUZZ_ASSERT(head.count <= all.count);
	FUZZ_ASSERT(head.have_header == all.have_header || cut == 0);
	FUZZ_ASSERT(memcmp(head.p, all.p, head.count * sizeof(head.p[0])) == 0);
	return 0;
}
