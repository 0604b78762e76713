/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "util/scan.h"

#include <string.h>

#include "util/error.h"

void
tw_lines_init(struct tw_lines *it, const char *text, size_t len)
{
	it->p = text;
	it->end = text + len;
}

int
tw_lines_next(struct tw_lines *it, const char **line, size_t *len, int *complete)
{
	const char *nl;

	if (it->p >= it->end)
		return 0;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	*line = it->p;
	if (nl == NULL) {
		*len = (size_t)(it->end - it->p);
		*complete = 0;
		it->p = it->end;
	} else {
		*len = (size_t)(nl - it->p);
		*complete = 1;
		it->p = nl + 1;
	}
	return 1;
}

int
tw_parse_lines(const char *text, size_t len, tw_line_parser *parse_line, void *ctx,
    struct tw_parse_stats *ps)
{
	struct tw_lines lines;
	const char *line;
	size_t llen;
	int complete, rc;

	tw_lines_init(&lines, text, len);
	while (tw_lines_next(&lines, &line, &llen, &complete)) {
		ps->lines++;
		if (!complete) {
			ps->malformed++;
			continue;
		}
		rc = parse_line(ctx, line, llen);
		if (rc == TW_E_INVAL)
			ps->malformed++;
		else if (rc != TW_OK)
			return rc;
	}
	return TW_OK;
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

void
tw_tokens_init(struct tw_tokens *it, const char *line, size_t len)
{
	it->p = line;
	it->end = line + len;
}

int
tw_tokens_next(struct tw_tokens *it, const char **tok, size_t *len)
{
	const char *start;

	while (it->p < it->end && is_blank(*it->p))
		it->p++;
	if (it->p >= it->end)
		return 0;
	start = it->p;
	while (it->p < it->end && !is_blank(*it->p))
		it->p++;
	*tok = start;
	*len = (size_t)(it->p - start);
	return 1;
}

size_t
tw_tokens_count(const struct tw_tokens *it)
{
	struct tw_tokens copy = *it;
	const char *tok;
	size_t len, n = 0;

	while (tw_tokens_next(&copy, &tok, &len))
		n++;
	return n;
}

int
tw_parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0)
		return TW_E_INVAL;
	for (i = 0; i < len; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return TW_E_INVAL;
		d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return TW_E_RANGE;
		v = v * 10 + d;
	}
	*out = v;
	return TW_OK;
}

int
tw_parse_hex_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0)
		return TW_E_INVAL;
	for (i = 0; i < len; i++) {
		unsigned d;
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return TW_E_INVAL;
		if (v > (UINT64_MAX >> 4))
			return TW_E_RANGE;
		v = (v << 4) | d;
	}
	*out = v;
	return TW_OK;
}

int
tw_parse_i64(const char *s, size_t len, int64_t *out)
{
	uint64_t mag;
	int neg = 0, rc;

	if (len > 0 && s[0] == '-') {
		neg = 1;
		s++;
		len--;
	}
	rc = tw_parse_u64(s, len, &mag);
	if (rc != TW_OK)
		return rc;
	if (neg) {
		if (mag > (uint64_t)INT64_MAX + 1)
			return TW_E_RANGE;
		*out = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
	} else {
		if (mag > (uint64_t)INT64_MAX)
			return TW_E_RANGE;
		*out = (int64_t)mag;
	}
	return TW_OK;
}

int
tw_parse_hundredths(const char *s, size_t len, uint64_t *out)
{
	const char *dot = memchr(s, '.', len);
	uint64_t whole, frac = 0;
	size_t flen;
	int rc;

	if (dot == NULL) {
		rc = tw_parse_u64(s, len, &whole);
		if (rc != TW_OK)
			return rc;
		if (whole > UINT64_MAX / 100)
			return TW_E_RANGE;
		*out = whole * 100;
		return TW_OK;
	}
	rc = tw_parse_u64(s, (size_t)(dot - s), &whole);
	if (rc != TW_OK)
		return rc;
	flen = len - (size_t)(dot - s) - 1;
	if (flen == 0 || flen > 2)
		return TW_E_INVAL;
	rc = tw_parse_u64(dot + 1, flen, &frac);
	if (rc != TW_OK)
		return rc;
	if (flen == 1)
		frac *= 10;
	if (whole > (UINT64_MAX - frac) / 100)
		return TW_E_RANGE;
	*out = whole * 100 + frac;
	return TW_OK;
}

int
tw_token_is(const char *tok, size_t len, const char *word)
{
	size_t wl = strlen(word);

	return wl == len && memcmp(tok, word, len) == 0;
}

int
tw_token_copy(char *dst, size_t dstlen, const char *tok, size_t len)
{
	if (dstlen == 0 || len >= dstlen)
		return TW_E_TOOBIG;
	memcpy(dst, tok, len);
	dst[len] = '\0';
	return TW_OK;
}

char *
tw_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n'))
		*--end = '\0';
	return s;
}
