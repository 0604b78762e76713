/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/meminfo.h"

#include <string.h>

#include "util/error.h"

/* Keys as the kernel prints them, colon included, in enum order. */
static const char *const mem_keys[TW_MEM_NFIELDS] = {
	"MemTotal:", "MemAvailable:", "Cached:", "Buffers:", "Dirty:", "Writeback:",
	"SwapTotal:", "SwapFree:"
};

/* Check one line's shape and, for a key we keep, store its value.
 * TW_E_INVAL when the line is not "Key: value [kB]". */
static int
mem_parse_line(void *ctx, const char *line, size_t len)
{
	struct tw_meminfo *out = ctx;
	struct tw_tokens it;
	const char *key, *val, *unit = NULL, *extra;
	size_t klen, vlen, ulen = 0, elen;
	uint64_t v;
	int i, kb;

	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &key, &klen) || klen < 2 || key[klen - 1] != ':')
		return TW_E_INVAL;
	if (!tw_tokens_next(&it, &val, &vlen) || tw_parse_u64(val, vlen, &v) != TW_OK)
		return TW_E_INVAL;
	if (tw_tokens_next(&it, &unit, &ulen) && !tw_token_is(unit, ulen, "kB"))
		return TW_E_INVAL;
	if (tw_tokens_next(&it, &extra, &elen))
		return TW_E_INVAL;
	kb = unit != NULL;
	if (kb) {
		/* No kernel has 16 EiB of memory: a value that would overflow
		 * in bytes is garbage, so the line is malformed rather than
		 * saturated. */
		if (v > UINT64_MAX / 1024)
			return TW_E_INVAL;
		v *= 1024;
	}
	for (i = 0; i < TW_MEM_NFIELDS; i++) {
		if (!tw_token_is(key, klen, mem_keys[i]))
			continue;
		/* Every key we keep is a size: without its unit we cannot
		 * tell what it counts. */
		if (!kb)
			return TW_E_INVAL;
		out->bytes[i] = v;
		out->present |= UINT32_C(1) << i;
		break;
	}
	return TW_OK;
}

int
tw_meminfo_parse(const char *text, size_t len, struct tw_meminfo *out,
    struct tw_parse_stats *ps)
{
	return tw_parse_lines(text, len, mem_parse_line, out, ps);
}

int
tw_meminfo_read(int proc_fd, struct tw_buf *scratch, struct tw_meminfo *out,
    struct tw_parse_stats *ps)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = tw_read_file_at(proc_fd, "meminfo", scratch)) != TW_OK)
		return rc;
	return tw_meminfo_parse(scratch->data, scratch->len, out, ps);
}
