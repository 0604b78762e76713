/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for the cgroup parsers (lib/collect/cgroupread.c):
 * tw_cgroup_parse_memstat (v1 and v2), _iostat, _blkio and _events.
 *
 * Byte 0 picks the parser. It checks the line counts, that a parser sets
 * only its own fields, and, for the ones that sum over lines (io.stat and
 * blkio over devices, memory.events over high and max), that the text cut
 * in two at a line boundary sums to what the whole does. */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "collect/cgroupread.h"
#include "util/error.h"

static int
memstat_v1(const char *t, size_t n, struct tw_cgroup *cg, struct tw_parse_stats *ps)
{
	return tw_cgroup_parse_memstat(TW_CG_V1, t, n, cg, ps);
}

static int
memstat_v2(const char *t, size_t n, struct tw_cgroup *cg, struct tw_parse_stats *ps)
{
	return tw_cgroup_parse_memstat(TW_CG_V2, t, n, cg, ps);
}

static const struct {
	int (*parse)(const char *, size_t, struct tw_cgroup *, struct tw_parse_stats *);
	uint32_t fields;	/* the only ones it may set */
	int sums;		/* cut in two = whole */
} parsers[] = {
	{ memstat_v1, TW_CG_BIT(TW_CG_CACHE) | TW_CG_BIT(TW_CG_REFAULTS), 0 },
	{ memstat_v2, TW_CG_BIT(TW_CG_CACHE) | TW_CG_BIT(TW_CG_REFAULTS), 0 },
	{ tw_cgroup_parse_iostat, TW_CG_BIT(TW_CG_READ_BYTES) | TW_CG_BIT(TW_CG_WRITE_BYTES), 1 },
	{ tw_cgroup_parse_blkio, TW_CG_BIT(TW_CG_READ_BYTES) | TW_CG_BIT(TW_CG_WRITE_BYTES), 1 },
	{ tw_cgroup_parse_events, TW_CG_BIT(TW_CG_LIMIT_EVENTS), 1 },
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t np = sizeof(parsers) / sizeof(parsers[0]);
	struct tw_parse_stats ps = { 0, 0 }, ps2 = { 0, 0 };
	struct tw_cgroup all, parts;
	const char *text;
	size_t p, cut;

	if (size < 1)
		return 0;
	p = data[0] % np;
	text = (const char *)data + 1;
	size--;
	memset(&all, 0, sizeof(all));
	FUZZ_ASSERT(parsers[p].parse(text, size, &all, &ps) == TW_OK);
	fuzz_check_stats(&ps, text, size);
	FUZZ_ASSERT((all.present & ~parsers[p].fields) == 0);
	if (!parsers[p].sums)
		return 0;
	cut = fuzz_line_cut(text, size);
	memset(&parts, 0, sizeof(parts));
	FUZZ_ASSERT(parsers[p].parse(text, cut, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(parsers[p].parse(text + cut, size - cut, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(ps2.lines == ps.lines && ps2.malformed == ps.malformed);
	FUZZ_ASSERT(memcmp(parts.v, all.v, sizeof(all.v)) == 0);
	return 0;
}
