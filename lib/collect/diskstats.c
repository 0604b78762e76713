/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/diskstats.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"

/* Counters a line may carry: 4 for the 2.6 partition form, 11 or more
 * otherwise; beyond TW_DISK_NFIELDS the kernel is newer than we are. */
#define DISK_OLD_PART_FIELDS	4
#define DISK_MIN_FIELDS		11

/* Where the four counters of the old partition form go. */
static const enum tw_disk_field old_part_map[DISK_OLD_PART_FIELDS] = {
	TW_DISK_READS, TW_DISK_SECTORS_READ, TW_DISK_WRITES, TW_DISK_SECTORS_WRITTEN
};

void
tw_disk_set_init(struct tw_disk_set *s)
{
	s->disks = NULL;
	s->count = 0;
	s->cap = 0;
}

void
tw_disk_set_free(struct tw_disk_set *s)
{
	free(s->disks);
	tw_disk_set_init(s);
}

unsigned
tw_disk_field_bits(enum tw_disk_field f)
{
	switch (f) {
	case TW_DISK_READ_TICKS:
	case TW_DISK_WRITE_TICKS:
	case TW_DISK_IN_FLIGHT:
	case TW_DISK_IO_TICKS:
	case TW_DISK_WEIGHTED_TICKS:
	case TW_DISK_DISCARD_TICKS:
	case TW_DISK_FLUSH_TICKS:
		return 32;
	default:
		return 64;
	}
}

static int
disk_set_grow(struct tw_disk_set *s)
{
	void *p;
	int rc = tw_array_grow(s->disks, &s->cap, s->count + 1, sizeof(*s->disks), &p);

	s->disks = p;
	return rc;
}

/* A device number: a token of digits that fits 32 bits. */
static int
next_u32(struct tw_tokens *it, uint32_t *out)
{
	uint64_t v;

	if (tw_tokens_next_u64(it, &v) != 1 || v > UINT32_MAX)
		return TW_E_INVAL;
	*out = (uint32_t)v;
	return TW_OK;
}

/* Fill d from one line; TW_E_INVAL when the line does not have the shape.
 * One pass over the counters: which form the line has is known only at its
 * end, so they are kept as read and placed afterwards. */
static int
disk_parse_line(const char *line, size_t len, struct tw_disk_stat *d)
{
	struct tw_tokens it;
	const char *tok;
	uint64_t v[TW_DISK_NFIELDS], x;
	size_t tlen, n, i;
	int rc;

	memset(d, 0, sizeof(*d));
	tw_tokens_init(&it, line, len);
	if (next_u32(&it, &d->major) != TW_OK || next_u32(&it, &d->minor) != TW_OK)
		return TW_E_INVAL;
	if (!tw_tokens_next(&it, &tok, &tlen))
		return TW_E_INVAL;
	/* A NUL inside the name would silently shorten it. */
	if (memchr(tok, '\0', tlen) != NULL ||
	    tw_token_copy(d->raw_name, sizeof(d->raw_name), tok, tlen) != TW_OK)
		return TW_E_INVAL;
	(void)tw_escape(d->name, sizeof(d->name), tok, tlen);

	/* Fields past the ones we know are still checked: garbage there (a
	 * CR, a truncated read) means the line cannot be trusted. */
	for (n = 0; (rc = tw_tokens_next_u64(&it, &x)) == 1; n++)
		if (n < TW_DISK_NFIELDS)
			v[n] = x;
	if (rc != 0)
		return TW_E_INVAL;
	if (n == DISK_OLD_PART_FIELDS) {
		for (i = 0; i < DISK_OLD_PART_FIELDS; i++) {
			d->v[old_part_map[i]] = v[i];
			d->present |= TW_DISK_BIT(old_part_map[i]);
		}
		return TW_OK;
	}
	if (n < DISK_MIN_FIELDS)
		return TW_E_INVAL;
	if (n > TW_DISK_NFIELDS)
		n = TW_DISK_NFIELDS;
	memcpy(d->v, v, n * sizeof(v[0]));
	d->present = TW_DISK_BIT(n) - 1;
	return TW_OK;
}

/* Parse straight into the next free entry: it becomes one only if the
 * line is good. */
static int
disk_add_line(void *ctx, const char *line, size_t len)
{
	struct tw_disk_set *out = ctx;
	int rc;

	if ((rc = disk_set_grow(out)) != TW_OK)
		return rc;
	if ((rc = disk_parse_line(line, len, &out->disks[out->count])) != TW_OK)
		return rc;
	out->count++;
	return TW_OK;
}

int
tw_diskstats_parse(const char *text, size_t len, struct tw_disk_set *out,
    struct tw_parse_stats *ps)
{
	return tw_parse_lines(text, len, disk_add_line, out, ps);
}

int
tw_diskstats_read(int proc_fd, struct tw_buf *scratch, struct tw_disk_set *out,
    struct tw_parse_stats *ps)
{
	int rc;

	out->count = 0;
	if ((rc = tw_read_file_at(proc_fd, "diskstats", scratch)) != TW_OK)
		return rc;
	return tw_diskstats_parse(scratch->data, scratch->len, out, ps);
}
