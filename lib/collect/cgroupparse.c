/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/cgroupread.h"

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

/* memory.stat is the longest file a sample reads (about 45 lines on 6.x,
 * two or three of them wanted), for every published cgroup at every
 * sample. A line whose key is not wanted is counted and skipped unchecked:
 * its newline found (memchr) and its first bytes compared, no more;
 * checking every line's value was two thirds of what 500 cgroups added to
 * a sample. A wanted line must be what it always was: two
 * tokens separated by blanks, the second a decimal that fits in 64 bits;
 * another is malformed, as is a last line without its newline. */

static int
blank(char c)
{
	return c == ' ' || c == '\t';
}

static int
key_is(const char *k, size_t klen, const char *word, size_t wlen)
{
	return klen == wlen && memcmp(k, word, wlen) == 0;
}

#define KEY(s) s, sizeof(s) - 1

/* The rest of a wanted line, after its key, q to nl (its '\n'): blanks,
 * a decimal, perhaps blanks; its value, or 0 when it is malformed. The
 * digits are summed as they are checked (a 20-digit one again with the
 * careful parse); the '\n' at nl, neither blank nor digit, ends every
 * scan. */
static int
memstat_value(const char *q, const char *nl, uint64_t *n)
{
	const char *v;
	uint64_t acc = 0;

	while (blank(*q))
		q++;
	for (v = q; (unsigned)(*q - '0') < 10; q++)
		acc = acc * 10 + (uint64_t)(*q - '0');
	if (q == v || (q - v >= 20 && tw_parse_u64(v, (size_t)(q - v), &acc) != TW_OK))
		return 0;
	while (blank(*q))
		q++;
	*n = acc;
	return q == nl;
}

/* Which wanted key the line's first token, from k to its first blank or
 * nl, is: by its first byte, then one memcmp. Most lines are none. */
enum memstat_key { MS_OTHER, MS_CACHE, MS_REFAULT_FILE, MS_REFAULT };

static int
token_is_word(const char *k, const char *nl, const char *word, size_t wlen)
{
	return nl - k >= (ptrdiff_t)wlen && memcmp(k, word, wlen) == 0 &&
	    (k + wlen == nl || blank(k[wlen]));
}

/* *end is set to the key's end. */
static enum memstat_key
memstat_key(int v1, const char *k, const char *nl, const char **end)
{
	/* v1's keys are v2's with "total_" before them (the hierarchy's sum). */
	if (v1) {
		if (*k != 't' || nl - k < 6 || memcmp(k, "total_", 6) != 0)
			return MS_OTHER;
		k += 6;
		if (token_is_word(k, nl, KEY("cache"))) {
			*end = k + 5;
			return MS_CACHE;
		}
	} else if (*k == 'f') {
		*end = k + 4;
		return token_is_word(k, nl, KEY("file")) ? MS_CACHE : MS_OTHER;
	}
	if (*k != 'w' || nl - k < 18 || memcmp(k, "workingset_refault", 18) != 0)
		return MS_OTHER;
	*end = k + 18;
	if (k + 18 == nl || blank(k[18]))
		return MS_REFAULT;
	*end = k + 23;
	return token_is_word(k + 18, nl, KEY("_file")) ? MS_REFAULT_FILE : MS_OTHER;
}

int
tw_cgroup_parse_memstat(enum tw_cg_version ver, const char *text, size_t len,
    struct tw_cgroup *out, struct tw_parse_stats *ps)
{
	const char *p = text, *end = text + len;
	int v1 = ver == TW_CG_V1, refault_file = 0;
	/* Whether a line may hold a wanted key, by its first byte: that of a
	 * wanted key, a blank (a key after it) or the newline (no key: a
	 * malformed line). One look-up, not four comparisons. */
	static const unsigned char maybe[256] = {
		[' '] = 3, ['\t'] = 3, ['\n'] = 3, ['f'] = 1, ['w'] = 1, ['t'] = 2,
	};
	unsigned char mine = v1 ? 2 : 1;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *k;
		uint64_t n;
		enum memstat_key key;

		ps->lines++;
		if (nl == NULL) {
			ps->malformed++;
			break;
		}
		/* Most lines are told unwanted by their first byte: every
		 * wanted key of v1 begins "total_", of v2 "file" or
		 * "workingset_". */
		if (!(maybe[(unsigned char)*p] & mine)) {
			p = nl + 1;
			continue;
		}
		for (k = p; k < nl && blank(*k); k++)
			continue;
		if (k == nl) {
			/* No key: a blank line. */
			ps->malformed++;
			p = nl + 1;
			continue;
		}
		key = memstat_key(v1, k, nl, &k);
		p = nl + 1;
		if (key == MS_OTHER)
			continue;
		if (!memstat_value(k, nl, &n)) {
			ps->malformed++;
			continue;
		}
		switch (key) {
		case MS_CACHE:
			set(out, TW_CG_CACHE, n);
			break;
		case MS_REFAULT_FILE:
			set(out, TW_CG_REFAULTS, n);
			refault_file = 1;
			break;
		case MS_REFAULT:
			if (!refault_file)
				set(out, TW_CG_REFAULTS, n);
			break;
		case MS_OTHER:
			break;
		}
	}
	return TW_OK;
}

/* "8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=0 dios=0", one line a
 * device; summed over the devices. In one pass, as memory.stat: a walk
 * parses every cgroup's. A line must be: a device (a token with ':'), then
 * key=decimal tokens, rbytes and wbytes among them; any other line, and a
 * last line without its newline, is malformed. Each token is read once,
 * its key to the '=' and its digits summed as they are checked (before, a
 * scan for its end, a memchr for '=' and two of the digits: 600
 * instructions a line); the '\n' at nl, neither blank nor '=' nor digit,
 * ends every scan. */
static int
iostat_line(const char *p, const char *nl, uint64_t *r, uint64_t *w)
{
	unsigned seen = 0;
	int colon = 0;

	while (blank(*p))
		p++;
	for (; *p != '\n' && !blank(*p); p++)
		colon |= *p == ':';
	if (!colon)
		return 0;
	for (;;) {
		const char *k, *v;
		uint64_t n = 0;

		while (blank(*p))
			p++;
		if (p == nl)
			return seen == 3;
		for (k = p; *p != '=' && *p != '\n' && !blank(*p); p++)
			continue;
		if (*p != '=')
			return 0;	/* a token without '=' */
		for (v = ++p; (unsigned)(*p - '0') < 10; p++)
			n = n * 10 + (uint64_t)(*p - '0');
		if (p == v || (*p != '\n' && !blank(*p)) ||
		    (p - v >= 20 && tw_parse_u64(v, (size_t)(p - v), &n) != TW_OK))
			return 0;
		if (key_is(k, (size_t)(v - 1 - k), KEY("rbytes"))) {
			*r = n;
			seen |= 1;
		} else if (key_is(k, (size_t)(v - 1 - k), KEY("wbytes"))) {
			*w = n;
			seen |= 2;
		}
	}
}

/* io.stat as the kernel prints it, "8:0 rbytes=1 wbytes=2 rios=3 wios=4
 * dbytes=0 dios=0\n" with single spaces, read against that form in one
 * pass: a walk reads every cgroup's. Any other line (other keys, blanks,
 * 20 digits) returns 0 and goes through iostat_line, which decides as
 * before; what this takes, that takes the same. The '\n' at nl, not a
 * digit, ends each number. */
static const char *
io_literal(const char *p, const char *nl, const char *word, size_t wlen)
{
	return p != NULL && (size_t)(nl - p) >= wlen && memcmp(p, word, wlen) == 0 ?
	    p + wlen : NULL;
}

static const char *
io_number(const char *p, uint64_t *n)
{
	const char *v = p;
	uint64_t acc = 0;

	if (p == NULL)
		return NULL;
	for (; (unsigned)(*p - '0') < 10; p++)
		acc = acc * 10 + (uint64_t)(*p - '0');
	if (p == v || p - v >= 20)
		return NULL;
	*n = acc;
	return p;
}

static int
iostat_kernel_line(const char *p, const char *nl, uint64_t *r, uint64_t *w)
{
	uint64_t n;

	p = io_number(io_literal(io_number(p, &n), nl, KEY(":")), &n);
	p = io_number(io_literal(p, nl, KEY(" rbytes=")), r);
	p = io_number(io_literal(p, nl, KEY(" wbytes=")), w);
	p = io_number(io_literal(p, nl, KEY(" rios=")), &n);
	p = io_number(io_literal(p, nl, KEY(" wios=")), &n);
	p = io_number(io_literal(p, nl, KEY(" dbytes=")), &n);
	p = io_number(io_literal(p, nl, KEY(" dios=")), &n);
	return p == nl;
}

int
tw_cgroup_parse_iostat(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps)
{
	const char *p = text, *end = text + len;

	/* An empty io.stat is a cgroup that did no I/O: zero, not absent. */
	if ((out->present & TW_CG_BIT(TW_CG_READ_BYTES)) == 0) {
		set(out, TW_CG_READ_BYTES, 0);
		set(out, TW_CG_WRITE_BYTES, 0);
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		uint64_t r = 0, w = 0;

		ps->lines++;
		if (nl == NULL) {
			ps->malformed++;
			break;
		}
		if (iostat_kernel_line(p, nl, &r, &w) || iostat_line(p, nl, &r, &w)) {
			set(out, TW_CG_READ_BYTES, out->v[TW_CG_READ_BYTES] + r);
			set(out, TW_CG_WRITE_BYTES, out->v[TW_CG_WRITE_BYTES] + w);
		} else {
			ps->malformed++;
		}
		p = nl + 1;
	}
	return TW_OK;
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

	/* The kernel's "key value", with one space and fewer than 20
	 * digits, read without the tokenizer; any other line goes through
	 * it, which takes this one the same. */
	const char *end = line + len, *sp = line, *q;

	while (sp < end && !blank(*sp))
		sp++;
	q = sp;
	if (sp > line && sp < end && *sp == ' ')
		for (n = 0, q = sp + 1; q < end && (unsigned)(*q - '0') < 10; q++)
			n = n * 10 + (uint64_t)(*q - '0');
	if (q == end && q - sp > 1 && q - sp <= 20) {
		k = line;
		klen = (size_t)(sp - line);
	} else {
		tw_tokens_init(&it, line, len);
		if (!tw_tokens_next(&it, &k, &klen) || !tw_tokens_next(&it, &v, &vlen) ||
		    tw_tokens_next(&it, &v, &vlen) || tw_parse_u64(v, vlen, &n) != TW_OK)
			return TW_E_INVAL;
	}
	if (key_is(k, klen, KEY("high")) || key_is(k, klen, KEY("max")))
		set(cg, TW_CG_LIMIT_EVENTS, cg->v[TW_CG_LIMIT_EVENTS] + n);
	return TW_OK;
}

int
tw_cgroup_parse_events(const char *text, size_t len, struct tw_cgroup *out,
    struct tw_parse_stats *ps)
{
	return tw_parse_lines(text, len, events_line, out, ps);
}
