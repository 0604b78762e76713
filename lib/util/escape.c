/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "util/escape.h"

#include <stdint.h>
#include <string.h>

#include "util/error.h"

/* The length of the valid UTF-8 sequence at s (n bytes there), its code
 * point in *cp; 0 when s does not start one (RFC 3629, table 3-7 of the
 * Unicode standard: the second byte's range depends on the first). */
static size_t
utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1fu;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0fu;
		if (s[0] == 0xe0)
			lo = 0xa0;		/* no overlong form */
		else if (s[0] == 0xed)
			hi = 0x9f;		/* no surrogate */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07u;
		if (s[0] == 0xf0)
			lo = 0x90;		/* no overlong form */
		else if (s[0] == 0xf4)
			hi = 0x8f;		/* nothing past U+10FFFF */
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if (s[i] < lo || s[i] > hi)
			return 0;
		lo = 0x80;
		hi = 0xbf;
		c = c << 6 | (s[i] & 0x3fu);
	}
	*cp = c;
	return len;
}

/* Whether s (n bytes, n < 4) could be the start of a valid sequence that
 * was cut off: a lead byte and continuation bytes in range so far. */
static int
utf8_cut_short(const unsigned char *s, size_t n)
{
	unsigned char buf[4];
	uint32_t cp;

	/* Complete it with the smallest continuation bytes that the lead
	 * allows and see whether that is a valid sequence. */
	if (n == 0 || n >= 4 || s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	memset(buf, 0x80, sizeof(buf));
	memcpy(buf, s, n);
	if (s[0] == 0xe0 && n < 2)
		buf[1] = 0xa0;
	if (s[0] == 0xf0 && n < 2)
		buf[1] = 0x90;
	return utf8_seq(buf, sizeof(buf), &cp) > n;
}

/* Characters that are valid UTF-8 and still escaped: controls, and what
 * breaks or reorders a line on a terminal or in a reader that splits
 * lines the way Python's str.splitlines() does. */
static int
unsafe_cp(uint32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) ||
	    cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069);
}

static int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Whether s (n bytes left) starts with a whole \xNN escape. */
static int
is_escape(const char *s, size_t n)
{
	return n >= 4 && s[0] == '\\' && s[1] == 'x' && hex_value(s[2]) >= 0 &&
	    hex_value(s[3]) >= 0;
}

/* Whether s (n < 4 bytes: the end of the string) is an escape cut short:
 * "\", "\x" or "\xN". */
static int
escape_cut_short(const char *s, size_t n)
{
	return n > 0 && n < 4 && s[0] == '\\' && (n < 2 || s[1] == 'x') &&
	    (n < 3 || hex_value(s[2]) >= 0);
}

/* The output under construction: units are added whole or not at all. */
struct out {
	char *dst;
	size_t cap;
	size_t len;
	int full;
};

static void
put(struct out *o, const char *s, size_t n)
{
	if (o->full || o->cap - 1 - o->len < n) {
		o->full = 1;
		return;
	}
	memcpy(o->dst + o->len, s, n);
	o->len += n;
}

static void
put_escape(struct out *o, unsigned char c)
{
	static const char digits[] = "0123456789abcdef";
	char e[4] = { '\\', 'x', digits[c >> 4], digits[c & 0xf] };

	put(o, e, sizeof(e));
}

/* One character at s (n bytes left, n > 0) as tw_escape writes it; the
 * number of bytes of s it stood for. */
static size_t
put_char(struct out *o, const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t k = utf8_seq(s, n, &cp), i;

	if (k == 0) {
		put_escape(o, s[0]);
		return 1;
	}
	if (unsafe_cp(cp) || cp == '\\') {
		for (i = 0; i < k; i++)
			put_escape(o, s[i]);
		return k;
	}
	put(o, (const char *)s, k);
	return k;
}

/* The plain bytes at the start of s (n bytes there): printable ASCII but
 * the backslash, each a unit of its own, copied as they are. Most names
 * are nothing else, so they are taken a run at a time. */
static size_t
plain_run(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\')
		i++;
	return i;
}

/* Put the plain run at s (n bytes), as much of it as fits: every byte of
 * it is a unit, so a cut anywhere is at a boundary. */
static size_t
put_plain(struct out *o, const unsigned char *s, size_t n)
{
	size_t room = o->cap - 1 - o->len;

	if (n > room) {
		n = room;
		o->full = 1;
	}
	memcpy(o->dst + o->len, s, n);
	o->len += n;
	return n;
}

static int
finish(struct out *o)
{
	o->dst[o->len] = '\0';
	return o->full ? TW_E_TOOBIG : TW_OK;
}

/* Whether the n bytes at s are all plain (printable ASCII, no backslash),
 * eight at a test: the classic word tests for a smaller, a larger and an
 * equal byte set the top bit of a byte below 0x20, above 0x7e or 0x5c. */
static inline int
all_plain(const unsigned char *s, size_t n)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, bs, below, above, backslash;

		memcpy(&x, s + i, sizeof(x));
		bs = x ^ (ones * '\\');
		below = (x - ones * 0x20) & ~x & highs;
		above = ((x + ones) | x) & highs;	/* 0x7f and up */
		backslash = (bs - ones) & ~bs & highs;
		if ((below | above | backslash) != 0)
			break;
	}
	for (; i < n; i++)
		if ((unsigned)s[i] - 0x20u > 0x5eu || s[i] == '\\')
			return 0;
	return 1;
}

int
tw_escape(char *dst, size_t cap, const char *raw, size_t len)
{
	struct out o = { dst, cap, 0, 0 };
	const unsigned char *s = (const unsigned char *)raw;
	size_t i = 0;

	if (dst == NULL || cap == 0)
		return TW_E_INVAL;
	if (raw == NULL)
		len = 0;
	/* Nearly every name is plain and fits: its own escape. */
	if (raw != NULL && len < cap && all_plain(s, len)) {
		memcpy(dst, raw, len);
		dst[len] = '\0';
		return TW_OK;
	}
	while (i < len && !o.full) {
		size_t k = plain_run(s + i, len - i);

		i += k > 0 ? put_plain(&o, s + i, k) : put_char(&o, s + i, len - i);
	}
	return finish(&o);
}

int
tw_escape_str(char *dst, size_t cap, const char *raw)
{
	return tw_escape(dst, cap, raw, raw != NULL ? strlen(raw) : 0);
}

int
tw_escape_tidy(char *dst, size_t cap, const char *src, size_t len)
{
	struct out o = { dst, cap, 0, 0 };
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0;

	if (dst == NULL || cap == 0)
		return TW_E_INVAL;
	if (src == NULL)
		len = 0;
	while (i < len && !o.full) {
		size_t k = plain_run(s + i, len - i);

		if (k > 0) {
			i += put_plain(&o, s + i, k);
		} else if (is_escape(src + i, len - i)) {
			put(&o, src + i, 4);
			i += 4;
		} else if (escape_cut_short(src + i, len - i) ||
		    utf8_cut_short(s + i, len - i)) {
			break;
		} else {
			i += put_char(&o, s + i, len - i);
		}
	}
	return finish(&o);
}

/* Nearly every name the view copies (a few for every disk and pool each
 * sample) is plain and fits, which tidying leaves as it is: copied so. */
int
tw_escape_copy(char *dst, size_t cap, const char *src)
{
	size_t n;

	if (src == NULL || dst == NULL || cap == 0)
		return tw_escape_tidy(dst, cap, src, 0);
	n = strnlen(src, cap);
	if (n == cap || !all_plain((const unsigned char *)src, n))
		return tw_escape_tidy(dst, cap, src, strlen(src));
	memcpy(dst, src, n + 1);
	return TW_OK;
}

int
tw_escape_is_shown(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k;
	uint32_t cp;

	if (s == NULL)
		return len == 0;
	while (i < len) {
		if (is_escape(s + i, len - i)) {
			i += 4;
			continue;
		}
		k = utf8_seq(u + i, len - i, &cp);
		if (k == 0 || unsafe_cp(cp) || cp == '\\')
			return 0;
		i += k;
	}
	return 1;
}

int
tw_escape_needed(const char *raw, size_t len)
{
	return memchr(raw, '\\', len) != NULL || !tw_escape_is_shown(raw, len);
}

int
tw_escape_had_unprintable(const char *s)
{
	const char *p;

	if (s == NULL)
		return 0;
	/* is_escape stops at the first byte that does not fit, the NUL
	 * included, so it reads no further than the string. */
	for (p = strchr(s, '\\'); p != NULL; p = strchr(p + 1, '\\'))
		if (is_escape(p, 4) && (hex_value(p[2]) << 4 | hex_value(p[3])) != '\\')
			return 1;
	return 0;
}

int
tw_unescape(char *dst, size_t cap, const char *shown, size_t *outlen)
{
	size_t len, i = 0, o = 0;
	int rc = TW_OK;

	if (outlen != NULL)
		*outlen = 0;
	if (dst == NULL || cap == 0)
		return TW_E_INVAL;
	len = shown != NULL ? strlen(shown) : 0;
	while (i < len && rc == TW_OK) {
		char c = shown[i];

		if (c == '\\' && is_escape(shown + i, len - i)) {
			c = (char)(hex_value(shown[i + 2]) << 4 | hex_value(shown[i + 3]));
			i += 4;
		} else if (c == '\\' || (unsigned char)c < 0x20 || c == 0x7f) {
			rc = TW_E_INVAL;
			break;
		} else {
			i++;
		}
		if (o + 1 >= cap)
			rc = TW_E_TOOBIG;
		else
			dst[o++] = c;
	}
	if (rc != TW_OK)
		o = 0;
	dst[o] = '\0';
	if (outlen != NULL)
		*outlen = o;
	return rc;
}

const char *
tw_escape_unit_start(const char *s, const char *p)
{
	size_t back;

	/* Every backslash of a shown string begins a four-byte escape. */
	for (back = 1; back <= 3 && p - back >= s; back++) {
		if (p[-back] == '\\') {
			p += 4 - back;
			break;
		}
	}
	while (((unsigned char)*p & 0xc0) == 0x80)
		p++;
	return p;
}
