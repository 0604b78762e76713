/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for tw_sockstat_parse (lib/collect/sockstat.c).
 *
 * It checks the line counts, that only the known fields are set, and that
 * the text cut in two at a line boundary parses to what the whole does. */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "collect/sockstat.h"
#include "util/error.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct tw_sockstat all, parts;
	struct tw_parse_stats ps = { 0, 0 }, ps2 = { 0, 0 };
	size_t cut;
	int i;

	memset(&all, 0, sizeof(all));
	FUZZ_ASSERT(tw_sockstat_parse(text, size, &all, &ps) == TW_OK);
	fuzz_check_stats(&ps, text, size);
	FUZZ_ASSERT((all.present & ~((UINT32_C(1) << TW_SOCK_NFIELDS) - 1)) == 0);
	for (i = 0; i < TW_SOCK_NFIELDS; i++)
		if (!(all.present & (UINT32_C(1) << i)))
			FUZZ_ASSERT(all.v[i] == 0);
	if (all.present != 0)
		FUZZ_ASSERT(ps.malformed < ps.lines);

	cut = fuzz_line_cut(text, size);
	memset(&parts, 0, sizeof(parts));
	FUZZ_ASSERT(tw_sockstat_parse(text, cut, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(tw_sockstat_parse(text + cut, size - cut, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(ps2.lines == ps.lines && ps2.malformed == ps.malformed);
	FUZZ_ASSERT(parts.present == all.present);
	FUZZ_ASSERT(memcmp(parts.v, all.v, sizeof(all.v)) == 0);
	return 0;
}
