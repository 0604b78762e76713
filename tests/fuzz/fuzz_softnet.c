/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for tw_softnet_parse (lib/collect/softnet.c).
 *
 * It checks that every row is kept or counted as malformed, and that what a
 * row says about itself agrees with its column count: the CPU comes from
 * column 13 exactly when there is one, and is otherwise the row number. */
#include <stdint.h>

#include "fuzz_check.h"
#include "collect/softnet.h"
#include "util/error.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct tw_softnet_set set;
	struct tw_parse_stats ps = { 0, 0 };
	size_t i;

	tw_softnet_set_init(&set);
	FUZZ_ASSERT(tw_softnet_parse(text, size, &set, &ps) == TW_OK);
	fuzz_check_stats(&ps, text, size);
	FUZZ_ASSERT(set.count == ps.lines - ps.malformed);
	for (i = 0; i < set.count; i++) {
		const struct tw_softnet_cpu *c = &set.cpus[i];

		FUZZ_ASSERT(c->ncols >= 9);
		FUZZ_ASSERT(c->cpu_from_column == (c->ncols >= 13));
		FUZZ_ASSERT(c->has_backlog == (c->ncols >= 12));
		if (c->ncols < 12)
			FUZZ_ASSERT(c->backlog_len == 0);
		if (c->ncols < 11)
			FUZZ_ASSERT(c->flow_limit == 0);
		if (c->ncols < 10)
			FUZZ_ASSERT(c->received_rps == 0);
		/* The row number: at least the kept rows before it, and less
		 * than the number of rows. */
		if (!c->cpu_from_column)
			FUZZ_ASSERT(c->cpu >= i && c->cpu < ps.lines);
	}
	tw_softnet_set_free(&set);
	return 0;
}
