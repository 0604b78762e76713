#include "config.h"

/* libFuzzer target for tw_diskstats_parse (lib/collect/diskstats.c).
 *
 * Besides the sanitizers, it checks that every line is either kept or
 * counted as malformed, that a kept device's name is shown (util/escape.h)
 * as the escape of the kernel's, that the device is printable back into a
 * line that parses to the same counters, and that the text cut in two at
 * a line boundary parses to what the whole does. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "collect/diskstats.h"
#include "fuzz_check.h"
#include "util/error.h"
#include "util/escape.h"

#define OLD_PART_BITS (TW_DISK_BIT(TW_DISK_READS) | TW_DISK_BIT(TW_DISK_SECTORS_READ) | \
	TW_DISK_BIT(TW_DISK_WRITES) | TW_DISK_BIT(TW_DISK_SECTORS_WRITTEN))

static int
same_disk(const struct tw_disk_stat *a, const struct tw_disk_stat *b)
{
	return a->major == b->major && a->minor == b->minor &&
	    strcmp(a->name, b->name) == 0 && strcmp(a->raw_name, b->raw_name) == 0 &&
	    a->present == b->present &&
	    memcmp(a->v, b->v, sizeof(a->v)) == 0;
}

static void
check_disk(const struct tw_disk_stat *d)
{
	size_t nlen = strnlen(d->raw_name, sizeof(d->raw_name)), n = 0;
	char shown[sizeof(d->name)];
	int f;

	FUZZ_ASSERT(nlen > 0 && nlen < sizeof(d->raw_name));
	FUZZ_ASSERT(strpbrk(d->raw_name, " \t\n") == NULL);
	/* The shown form, cut as the field cuts it. */
	(void)tw_escape(shown, sizeof(shown), d->raw_name, nlen);
	FUZZ_ASSERT(strcmp(shown, d->name) == 0);
	FUZZ_ASSERT(tw_escape_is_shown(d->name, strlen(d->name)));
	/* Either the 2.6 partition form or the first 11 to 17 counters. */
	for (f = 0; f < TW_DISK_NFIELDS; f++) {
		if (d->present & TW_DISK_BIT(f))
			n++;
		else
			FUZZ_ASSERT(d->v[f] == 0);
	}
	FUZZ_ASSERT(d->present == OLD_PART_BITS ||
	    (n >= 11 && d->present == (TW_DISK_BIT(n) - 1)));
}

/* Print d the way the kernel would and parse it back. */
static void
check_round_trip(const struct tw_disk_stat *d)
{
	static const enum tw_disk_field old[] = {
		TW_DISK_READS, TW_DISK_SECTORS_READ, TW_DISK_WRITES, TW_DISK_SECTORS_WRITTEN
	};
	char line[1024];
	struct tw_disk_set again;
	struct tw_parse_stats ps = { 0, 0 };
	size_t pos, i;
	int f;

	pos = (size_t)snprintf(line, sizeof(line), "%" PRIu32 " %" PRIu32 " %s", d->major,
	    d->minor, d->raw_name);
	if (d->present == OLD_PART_BITS) {
		for (i = 0; i < sizeof(old) / sizeof(old[0]); i++)
			pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %" PRIu64,
			    d->v[old[i]]);
	} else {
		for (f = 0; f < TW_DISK_NFIELDS && (d->present & TW_DISK_BIT(f)); f++)
			pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %" PRIu64,
			    d->v[f]);
	}
	FUZZ_ASSERT(pos + 1 < sizeof(line));
	line[pos++] = '\n';

	tw_disk_set_init(&again);
	FUZZ_ASSERT(tw_diskstats_parse(line, pos, &again, &ps) == TW_OK);
	FUZZ_ASSERT(ps.lines == 1 && ps.malformed == 0 && again.count == 1);
	FUZZ_ASSERT(same_disk(d, &again.disks[0]));
	tw_disk_set_free(&again);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct tw_disk_set all, parts;
	struct tw_parse_stats ps = { 0, 0 }, ps2 = { 0, 0 };
	size_t i, cut;

	tw_disk_set_init(&all);
	FUZZ_ASSERT(tw_diskstats_parse(text, size, &all, &ps) == TW_OK);
	fuzz_check_stats(&ps, text, size);
	FUZZ_ASSERT(all.count == ps.lines - ps.malformed);
	for (i = 0; i < all.count; i++) {
		check_disk(&all.disks[i]);
		check_round_trip(&all.disks[i]);
	}

	/* Parsers append and add: two halves make the whole. */
	cut = fuzz_line_cut(text, size);
	tw_disk_set_init(&parts);
	FUZZ_ASSERT(tw_diskstats_parse(text, cut, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(tw_diskstats_parse(text + cut, size - cut, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(ps2.lines == ps.lines && ps2.malformed == ps.malformed);
	FUZZ_ASSERT(parts.count == all.count);
	for (i = 0; i < all.count; i++)
		FUZZ_ASSERT(same_disk(&all.disks[i], &parts.disks[i]));

	tw_disk_set_free(&parts);
	tw_disk_set_free(&all);
	return 0;
}
