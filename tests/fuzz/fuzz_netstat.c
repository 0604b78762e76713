/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for tw_netstat_parse (lib/collect/netstat.c).
 *
 * It checks the line counts (a header and its values are two lines), the
 * shape of every kept entry, that tw_netstat_get finds each of them, and
 * that a file's text parsed twice into one set gives every entry twice in
 * the same order. */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "collect/netstat.h"
#include "util/error.h"

static void
check_entry(const struct tw_netstat_set *s, const struct tw_netstat_entry *e)
{
	size_t plen = strnlen(e->proto, sizeof(e->proto));
	size_t nlen = strnlen(e->name, sizeof(e->name));
	uint64_t v;

	FUZZ_ASSERT(plen > 0 && plen < sizeof(e->proto));
	FUZZ_ASSERT(nlen > 0 && nlen < sizeof(e->name));
	FUZZ_ASSERT(strpbrk(e->proto, " \t\n") == NULL && strpbrk(e->name, " \t\n") == NULL);
	FUZZ_ASSERT(e->negative == 0 || e->negative == 1);
	/* A negative value is kept as its two's complement. */
	if (e->negative)
		FUZZ_ASSERT((int64_t)e->value < 0);
	FUZZ_ASSERT(tw_netstat_get(s, e->proto, e->name, &v) == TW_OK);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct tw_netstat_set set;
	struct tw_parse_stats ps = { 0, 0 }, ps2 = { 0, 0 };
	size_t i, n;

	tw_netstat_set_init(&set);
	FUZZ_ASSERT(tw_netstat_parse(text, size, &set, &ps) == TW_OK);
	fuzz_check_stats(&ps, text, size);
	n = set.count;
	/* At most one entry a value, and each value line holds a "Proto:". */
	FUZZ_ASSERT(n <= size / 2);
	for (i = 0; i < n; i++)
		check_entry(&set, &set.entries[i]);

	FUZZ_ASSERT(tw_netstat_parse(text, size, &set, &ps2) == TW_OK);
	FUZZ_ASSERT(ps2.lines == ps.lines && ps2.malformed == ps.malformed);
	FUZZ_ASSERT(set.count == 2 * n);
	for (i = 0; i < n; i++) {
		const struct tw_netstat_entry *a = &set.entries[i], *b = &set.entries[n + i];

		FUZZ_ASSERT(strcmp(a->proto, b->proto) == 0 && strcmp(a->name, b->name) == 0);
		FUZZ_ASSERT(a->value == b->value && a->negative == b->negative);
	}
	tw_netstat_set_free(&set);
	return 0;
}
