/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for tw_meminfo_parse (lib/collect/meminfo.c).
 *
 * It checks the line counts, that only the known fields are set and that
 * each holds a whole number of kB, and that the text cut in two at a line
 * boundary parses to what the whole does (the last line of a key wins
 * either way). */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "collect/meminfo.h"
#include "util/error.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct tw_meminfo all, parts;
	struct tw_parse_stats ps = { 0, 0 }, ps2 = { 0, 0 };
	size_t cut;
	int i;

	memset(&all, 0, sizeof(all));
	FUZZ_ASSERT(tw_meminfo_parse(text, size, &all, &ps) == TW_OK);
	fuzz_check_stats(&ps, text, size);
	FUZZ_ASSERT((all.present & ~((UINT32_C(1) << TW_MEM_NFIELDS) - 1)) == 0);
	for (i = 0; i < TW_MEM_NFIELDS; i++) {
		if (all.present & (UINT32_C(1) << i))
			FUZZ_ASSERT(all.bytes[i] % 1024 == 0);
		else
			FUZZ_ASSERT(all.bytes[i] == 0);
	}
	/* A file with a kept field has at least one good line. */
	if (all.present != 0)
		FUZZ_ASSERT(ps.malformed < ps.lines);

	cut = fuzz_line_cut(text, size);
	memset(&parts, 0, sizeof(parts));
	FUZZ_ASSERT(tw_meminfo_parse(text, cut, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(tw_meminfo_parse(text + cut, size - cut, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(ps2.lines == ps.lines && ps2.malformed == ps.malformed);
	FUZZ_ASSERT(parts.present == all.present);
	FUZZ_ASSERT(memcmp(parts.bytes, all.bytes, sizeof(all.bytes)) == 0);
	return 0;
}
