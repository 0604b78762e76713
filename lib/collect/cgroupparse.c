#include "config.h"

#include "collect/cgroup.h"

#include <string.h>

#include "util/error.h"

/* The parsers of the cgroup files, apart from their reading
 * (cgroupread.c). */

static void
set(struct tw_cgroup *cg, enum tw_cg_field f, uint64_t v)
{
	cg->v[f] = v;
	cg->present |= TW_CG_BIT(f);
}

/* ---- Parsers ------------------------------------------------------------ */

struct memstat_ctx {
	struct tw_cgroup *cg;
	enum tw_cg_version ver;
	int refault_file;	/* workingset_refault_file seen: it wins */
};

/* "key value" lines; keys this reader does not use are skipped. */
static int
memstat_line(void *ctx, const char *line, size_t len)
{
	struct memstat_ctx *m = ctx;
	struct tw_tokens it;
	const char *k, *v;
	size_t klen, vlen;
	uint64_t n;
	int v1 = m->ver == TW_CG_V1;

	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &k, &klen) || !tw_tokens_next(&it, &v, &vlen) ||
	    tw_tokens_next(&it, &v, &vlen) || tw_parse_u64(v, vlen, &n) != TW_OK)
		return TW_E_INVAL;
	if (tw_token_is(k, klen, v1 ? "total_cache" : "file")) {
		set(m->cg, TW_CG_CACHE, n);
	} else if (tw_token_is(k, klen, v1 ? "total_workingset_refault_file" :
	    "workingset_refault_file")) {
		set(m->cg, TW_CG_REFAULTS, n);
		m->refault_file = 1;
	} else if (!m->refault_file && tw_token_is(k, klen, v1 ? "total_workingset_refault" :
	    "workingset_refault")) {
		set(m->cg, TW_CG_REFAULTS, n);
	}
	return TW_OK;
}

int
tw_cgroup_parse_memstat(enum tw_cg_version ver, const char *text, size_t len,
    struct tw_cgroup *out, struct tw_parse_stats *ps)
{
	struct memstat_ctx m = { out, ver, 0 };

	return tw_parse_lines(text, len, memstat_line, &m, ps);
}

/* "8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=0 dios=0", one line a
 * device; summed over the devices. */
static int
iostat_line(void *ctx, const char *line, size_t len)
{
	struct tw_cgroup *cg = ctx;
	struct tw_tokens it;
	const char *tok;
	size_t tlen;
	uint64_t r = 0, w = 0, n;
	unsigned seen = 0;

	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &tok, &tlen) || memchr(tok, ':', tlen) == NULL)
		return TW_E_INVAL;
	while (tw_tokens_next(&it, &tok, &tlen)) {
		const char *eq = memchr(tok, '=', tlen);
		size_t klen;

		if (eq == NULL)
			return TW_E_INVAL;
		klen = (size_t)(eq - tok);
		if (tw_parse_u64(eq + 1, tlen - klen - 1, &n) != TW_OK)
			return TW_E_INVAL;
		if (tw_token_is(tok, klen, "rbytes")) {
			r = n;
			seen |= 1;
		} else if (tw_token_is(tok, klen, "wbytes")) {
			w = n;
			seen |= 2;
		}
	}
	if (seen != 3)
		return TW_E_INVAL;
	set(cg, TW_CG_READ_BYTES, cg->v[TW_CG_READ_BYTES] + r);
	set(cg, TW_CG_WRITE_BYTES, cg->v[TW_CG_WRITE_BYTES] + w);
	return TW_OK;
}

int
tw_cgroup_parse_iostat(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps)
{
	/* An empty io.stat is a cgroup that did no I/O: zero, not absent. */
	if ((out->present & TW_CG_BIT(TW_CG_READ_BYTES)) == 0) {
		set(out, TW_CG_READ_BYTES, 0);
		set(out, TW_CG_WRITE_BYTES, 0);
	}
	return tw_parse_lines(text, len, iostat_line, out, ps);
}

/* "8:0 Read 4096" ... "8:0 Total 8192", then "Total 8192": the Read and
 * Write lines of each device. */
static int
blkio_line(void *ctx, const char *line, size_t len)
{
	struct tw_cgroup *cg = ctx;
	struct tw_tokens it;
	const char *dev, *op, *v;
	size_t dlen, olen, vlen;
	uint64_t n;

	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &dev, &dlen))
		return TW_E_INVAL;
	if (tw_token_is(dev, dlen, "Total"))
		return tw_tokens_count(&it) == 1 ? TW_OK : TW_E_INVAL;
	if (memchr(dev, ':', dlen) == NULL || !tw_tokens_next(&it, &op, &olen) ||
	    !tw_tokens_next(&it, &v, &vlen) || tw_tokens_next(&it, &v, &vlen) ||
	    tw_parse_u64(v, vlen, &n) != TW_OK)
		return TW_E_INVAL;
	if (tw_token_is(op, olen, "Read"))
		set(cg, TW_CG_READ_BYTES, cg->v[TW_CG_READ_BYTES] + n);
	else if (tw_token_is(op, olen, "Write"))
		set(cg, TW_CG_WRITE_BYTES, cg->v[TW_CG_WRITE_BYTES] + n);
	return TW_OK;
}

int
tw_cgroup_parse_blkio(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps)
{
	if ((out->present & TW_CG_BIT(TW_CG_READ_BYTES)) == 0) {
		set(out, TW_CG_READ_BYTES, 0);
		set(out, TW_CG_WRITE_BYTES, 0);
	}
	return tw_parse_lines(text, len, blkio_line, out, ps);
}

/* memory.events: "low 0", "high 12", "max 3", "oom 0", "oom_kill 0": the
 * times the cgroup was throttled at memory.high or reclaimed at
 * memory.max. */
static int
events_line(void *ctx, const char *line, size_t len)
{
	struct tw_cgroup *cg = ctx;
	struct tw_tokens it;
	const char *k, *v;
	size_t klen, vlen;
	uint64_t n;

	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &k, &klen) || !tw_tokens_next(&it, &v, &vlen) ||
	    tw_tokens_next(&it, &v, &vlen) || tw_parse_u64(v, vlen, &n) != TW_OK)
		return TW_E_INVAL;
	if (tw_token_is(k, klen, "high") || tw_token_is(k, klen, "max"))
		set(cg, TW_CG_LIMIT_EVENTS, cg->v[TW_CG_LIMIT_EVENTS] + n);
	return TW_OK;
}

int
tw_cgroup_parse_events(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps)
{
	return tw_parse_lines(text, len, events_line, out, ps);
}
