/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "threshold/range.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Parse one endpoint, -?[0-9]+(\.[0-9]+)?, into *out and append its
 * canonical spelling to canon (which has room: canonical is never longer).
 *
 * strtod() takes its decimal separator from LC_NUMERIC, so it is never
 * shown a '.': the digits are passed with the point removed and an
 * exponent instead ("12.34" becomes "1234e-2"), which strtod reads the same
 * in every locale and rounds correctly.
 */
static int
parse_number(const char *s, size_t len, double *out, char *canon, size_t *clen)
{
	char buf[TW_RANGE_TEXT_LEN + 16];
	const char *ip, *fp = NULL;
	size_t i = 0, nint, nfrac = 0, b = 0, k;
	int neg = 0, nonzero = 0;
	char *end;
	double v;

	if (len > 0 && s[0] == '-') {
		neg = 1;
		i++;
	}
	ip = s + i;
	while (i < len && is_digit(s[i]))
		i++;
	nint = (size_t)(s + i - ip);
	if (nint == 0)
		return TW_E_INVAL;
	if (i < len && s[i] == '.') {
		fp = s + ++i;
		while (i < len && is_digit(s[i]))
			i++;
		nfrac = (size_t)(s + i - fp);
		if (nfrac == 0)
			return TW_E_INVAL;
	}
	if (i != len)
		return TW_E_INVAL;

	if (neg)
		buf[b++] = '-';
	memcpy(buf + b, ip, nint);
	b += nint;
	if (nfrac > 0) {
		memcpy(buf + b, fp, nfrac);
		b += nfrac;
		buf[b++] = 'e';
		buf[b++] = '-';
		/* nfrac < TW_RANGE_TEXT_LEN, so two digits are enough. */
		if (nfrac >= 10)
			buf[b++] = (char)('0' + nfrac / 10);
		buf[b++] = (char)('0' + nfrac % 10);
	}
	buf[b] = '\0';
	v = strtod(buf, &end);
	if (end != buf + b || !isfinite(v))
		return TW_E_INVAL;

	/* Canonical: no leading zeros, no trailing fractional zeros, no "-0". */
	while (nint > 1 && ip[0] == '0') {
		ip++;
		nint--;
	}
	while (nfrac > 0 && fp[nfrac - 1] == '0')
		nfrac--;
	for (k = 0; k < nint; k++)
		nonzero |= ip[k] != '0';
	for (k = 0; k < nfrac; k++)
		nonzero |= fp[k] != '0';
	if (neg && nonzero)
		canon[(*clen)++] = '-';
	memcpy(canon + *clen, ip, nint);
	*clen += nint;
	if (nfrac > 0) {
		canon[(*clen)++] = '.';
		memcpy(canon + *clen, fp, nfrac);
		*clen += nfrac;
	}
	*out = v;
	return TW_OK;
}

int
tw_range_parse(const char *text, struct tw_range *out)
{
	struct tw_range r;
	char start_canon[TW_RANGE_TEXT_LEN], end_canon[TW_RANGE_TEXT_LEN];
	size_t len, slen = 0, elen = 0, t = 0;
	const char *p, *colon;
	int rc;

	if (text == NULL)
		return TW_E_INVAL;
	len = strnlen(text, TW_RANGE_TEXT_LEN);
	if (len == 0 || len >= TW_RANGE_TEXT_LEN)
		return TW_E_INVAL;
	memset(&r, 0, sizeof(r));
	p = text;
	if (*p == '@') {
		r.inside = 1;
		p++;
		len--;
	}
	colon = memchr(p, ':', len);
	if (colon == NULL) {
		/* "N": 0..N */
		rc = parse_number(p, len, &r.end, end_canon, &elen);
		if (rc != TW_OK)
			return rc;
		r.start = 0;
	} else {
		size_t sl = (size_t)(colon - p), el = len - sl - 1;

		if (sl == 1 && p[0] == '~')
			r.start_inf = 1;
		else if ((rc = parse_number(p, sl, &r.start, start_canon, &slen)) != TW_OK)
			return rc;
		if (el == 0)
			r.end_inf = 1;
		else if ((rc = parse_number(colon + 1, el, &r.end, end_canon, &elen)) != TW_OK)
			return rc;
	}
	if (!r.start_inf && !r.end_inf && r.start > r.end)
		return TW_E_INVAL;

	if (r.inside)
		r.text[t++] = '@';
	if (r.start_inf || r.end_inf || r.start != 0) {
		if (r.start_inf) {
			r.text[t++] = '~';
		} else {
			memcpy(r.text + t, start_canon, slen);
			t += slen;
		}
		r.text[t++] = ':';
	}
	memcpy(r.text + t, end_canon, elen);
	t += elen;
	r.text[t] = '\0';
	*out = r;
	return TW_OK;
}

int
tw_range_alerts(const struct tw_range *r, double v)
{
	int within;

	if (isnan(v))
		return 1;
	within = (r->start_inf || v >= r->start) && (r->end_inf || v <= r->end);
	return r->inside ? within : !within;
}

enum tw_state
tw_range_state(double v, const struct tw_range *warn, const struct tw_range *crit)
{
	if (isnan(v))
		return TW_STATE_UNKNOWN;
	if (crit != NULL && tw_range_alerts(crit, v))
		return TW_STATE_CRITICAL;
	if (warn != NULL && tw_range_alerts(warn, v))
		return TW_STATE_WARNING;
	return TW_STATE_OK;
}

int
tw_range_perfdata(const struct tw_range *r, char *out, size_t outlen)
{
	/* The canonical text of the simple form is already the plain "N". */
	size_t len = strlen(r->text);

	if (outlen == 0)
		return TW_E_TOOBIG;
	if (len >= outlen) {
		out[0] = '\0';
		return TW_E_TOOBIG;
	}
	memcpy(out, r->text, len + 1);
	return TW_OK;
}
