/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for tw_psi_parse (lib/collect/pressure.c).
 *
 * It checks the line counts, that a line kind is set only with its flag,
 * and that the text cut in two at a line boundary parses to what the whole
 * does. */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "collect/pressure.h"
#include "util/error.h"

static int
same_line(const struct tw_psi_line *a, const struct tw_psi_line *b)
{
	return a->avg10 == b->avg10 && a->avg60 == b->avg60 && a->avg300 == b->avg300 &&
	    a->total_us == b->total_us;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct tw_psi_line zero;
	const char *text = (const char *)data;
	struct tw_psi all, parts;
	struct tw_parse_stats ps = { 0, 0 }, ps2 = { 0, 0 };
	size_t cut;

	memset(&all, 0, sizeof(all));
	FUZZ_ASSERT(tw_psi_parse(text, size, &all, &ps) == TW_OK);
	fuzz_check_stats(&ps, text, size);
	FUZZ_ASSERT(all.has_some == 0 || all.has_some == 1);
	FUZZ_ASSERT(all.has_full == 0 || all.has_full == 1);
	if (!all.has_some)
		FUZZ_ASSERT(same_line(&all.some, &zero));
	if (!all.has_full)
		FUZZ_ASSERT(same_line(&all.full, &zero));
	/* Every good line is "some" or "full": two at most are distinct. */
	FUZZ_ASSERT(ps.lines - ps.malformed >= (uint64_t)(all.has_some + all.has_full));
	if (ps.lines - ps.malformed > 0)
		FUZZ_ASSERT(all.has_some || all.has_full);

	cut = fuzz_line_cut(text, size);
	memset(&parts, 0, sizeof(parts));
	FUZZ_ASSERT(tw_psi_parse(text, cut, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(tw_psi_parse(text + cut, size - cut, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(ps2.lines == ps.lines && ps2.malformed == ps.malformed);
	FUZZ_ASSERT(parts.has_some == all.has_some && parts.has_full == all.has_full);
	FUZZ_ASSERT(same_line(&parts.some, &all.some) && same_line(&parts.full, &all.full));
	return 0;
}
