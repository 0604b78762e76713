#include "config.h"

/* libFuzzer target for the shown form of foreign strings
 * (lib/util/escape.c).
 *
 * The input is a raw name, as a comm, a cgroup or a sysfs attribute could
 * hold it. Its shown form, with room for all of it, must be valid UTF-8
 * with no control character and no line separator, at most four bytes per
 * raw byte, and read back to the input by an unescaper of this file's own
 * (and by the library's). Cut to a buffer picked from the input, it must
 * be the longest prefix of whole units of the full form. tw_escape_tidy
 * must leave the full form as it is, and make of the raw input (as though
 * a foreign agent had sent it) and of every cut of the full form a shown
 * string again. The checks below decode UTF-8 by code point arithmetic,
 * not by the library's byte ranges, so the two cannot share a mistake. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "util/error.h"
#include "util/escape.h"

/* Decode one UTF-8 character at s (n bytes there) the long way round:
 * take the bits the lead byte announces, then refuse what RFC 3629 does
 * (overlong, surrogate, past U+10FFFF). 0 when invalid. */
static size_t
decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len, i;
	uint32_t c;

	if ((s[0] & 0x80) == 0) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, c = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, c = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4, c = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* What must never reach a terminal, a line splitter or a DisplayString. */
static int
forbidden(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c < 0xa0) || c == 0x2028 || c == 0x2029 ||
	    (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

static int
hexdigit(int c)
{
	static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
	const char *p;

	if (c == 0)
		return -1;
	if ((p = strchr(lower, c)) != NULL)
		return (int)(p - lower);
	if ((p = strchr(upper, c)) != NULL)
		return (int)(p - upper);
	return -1;
}

/* Check that s (len bytes) is shown: valid UTF-8, nothing forbidden, and
 * every backslash the start of \xNN. Records each unit's end in ends[]
 * (when not NULL), so that cuts can be checked against them. */
static size_t
check_shown(const char *s, size_t len, size_t *ends)
{
	size_t i = 0, n = 0, k;
	uint32_t c;

	while (i < len) {
		if (s[i] == '\\') {
			FUZZ_ASSERT(i + 4 <= len && s[i + 1] == 'x');
			FUZZ_ASSERT(hexdigit((unsigned char)s[i + 2]) >= 0);
			FUZZ_ASSERT(hexdigit((unsigned char)s[i + 3]) >= 0);
			k = 4;
		} else {
			k = decode((const unsigned char *)s + i, len - i, &c);
			FUZZ_ASSERT(k > 0);
			FUZZ_ASSERT(!forbidden(c));
		}
		i += k;
		if (ends != NULL)
			ends[n] = i;
		n++;
	}
	return n;
}

/* The test's own way back: every \xNN is byte NN, every other byte is
 * itself. */
static size_t
unescape(const char *s, size_t len, unsigned char *out)
{
	size_t i = 0, n = 0;

	while (i < len) {
		if (s[i] == '\\') {
			out[n++] = (unsigned char)(hexdigit((unsigned char)s[i + 2]) * 16 +
			    hexdigit((unsigned char)s[i + 3]));
			i += 4;
		} else {
			out[n++] = (unsigned char)s[i++];
		}
	}
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t cap = TW_ESCAPE_SIZE(size), len, nunits, *ends, cut, i, k, want;
	char *full = malloc(cap), *part = malloc(cap), *back = malloc(cap);
	unsigned char *raw = malloc(size + 1);
	int rc;

	ends = malloc((4 * size + 1) * sizeof(*ends));
	if (full == NULL || part == NULL || back == NULL || raw == NULL || ends == NULL)
		abort();

	/* The whole shown form. */
	FUZZ_ASSERT(tw_escape(full, cap, (const char *)data, size) == TW_OK);
	len = strlen(full);
	FUZZ_ASSERT(len <= 4 * size);
	nunits = check_shown(full, len, ends);
	FUZZ_ASSERT(tw_escape_is_shown(full, len));
	FUZZ_ASSERT(unescape(full, len, raw) == size);
	FUZZ_ASSERT(size == 0 || memcmp(raw, data, size) == 0);
	FUZZ_ASSERT(tw_unescape(back, cap, full, &k) == TW_OK);
	FUZZ_ASSERT(k == size && (size == 0 || memcmp(back, data, size) == 0));
	/* Plain text stays plain: no byte is escaped that need not be. */
	for (i = 0, k = 0; i < size; i++)
		k += data[i] >= 0x20 && data[i] < 0x7f && data[i] != '\\';
	if (k == size)
		FUZZ_ASSERT(len == size && memcmp(full, data, size) == 0);

	/* Cut to a buffer of a size picked from the input: the longest
	 * prefix of whole units that leaves room for the NUL. */
	cut = size > 0 ? 1 + (data[0] | (size > 1 ? data[1] << 8 : 0)) % cap : 1;
	rc = tw_escape(part, cut, (const char *)data, size);
	FUZZ_ASSERT(rc == (cut > len ? TW_OK : TW_E_TOOBIG));
	for (want = 0, i = 0; i < nunits && ends[i] < cut; i++)
		want = ends[i];
	FUZZ_ASSERT(strlen(part) == want && memcmp(part, full, want) == 0);

	/* Tidy: a shown string is left alone, and cut like tw_escape cuts. */
	FUZZ_ASSERT(tw_escape_tidy(back, cap, full, len) == TW_OK);
	FUZZ_ASSERT(strcmp(back, full) == 0);
	FUZZ_ASSERT(tw_escape_tidy(back, cut, full, len) == rc && strcmp(back, part) == 0);
	/* A byte-wise cut of the shown form (what snprintf leaves), tidied,
	 * is shown again and a prefix of it. */
	k = size > 2 ? data[2] % (len + 1) : len;
	FUZZ_ASSERT(tw_escape_tidy(back, cap, full, k) == TW_OK);
	check_shown(back, strlen(back), NULL);
	FUZZ_ASSERT(strlen(back) <= k && memcmp(back, full, strlen(back)) == 0);
	/* Raw bytes, as a foreign agent might send them, come out shown. */
	FUZZ_ASSERT(tw_escape_tidy(back, cap, (const char *)data, size) == TW_OK);
	check_shown(back, strlen(back), NULL);

	free(full);
	free(part);
	free(back);
	free(raw);
	free(ends);
	return 0;
}
