/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "threshold/perfdata.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/strwriter.h"

int
tw_perf_number(double v, unsigned precision, char *out, size_t outlen)
{
	/* DBL_MAX has 309 integer digits; add sign, point and fraction. */
	char ibuf[330], fbuf[TW_PERF_PRECISION_MAX + 1];
	struct tw_strwriter s;
	double a, ip, frac, scale = 1;
	uint64_t f;
	unsigned i;
	int n, flen;

	tw_strwriter_init(&s, out, outlen);
	if (precision == 0)
		precision = TW_PERF_PRECISION_DEFAULT;
	if (precision > TW_PERF_PRECISION_MAX || !isfinite(v))
		return TW_E_INVAL;
	for (i = 0; i < precision; i++)
		scale *= 10;
	/*
	 * Split |v| into whole and fractional parts (both exact: a - floor(a)
	 * loses nothing) and round the fraction to an integer count of
	 * 10^-precision. printf("%.2f") would use LC_NUMERIC's separator.
	 */
	a = fabs(v);
	ip = floor(a);
	frac = a - ip;
	f = (uint64_t)round(frac * scale);
	if ((double)f >= scale) {
		ip += 1;
		f = 0;
	}
	/* An integral double prints with no separator and no grouping. */
	n = snprintf(ibuf, sizeof(ibuf), "%.0f", ip);
	if (n < 0 || (size_t)n >= sizeof(ibuf))
		return TW_E_INVAL;
	flen = (int)precision;
	for (i = precision; i > 0; i--) {
		fbuf[i - 1] = (char)('0' + f % 10);
		f /= 10;
	}
	while (flen > 0 && fbuf[flen - 1] == '0')
		flen--;
	if (v < 0 && (ip != 0 || flen > 0))
		tw_strwriter_put(&s, "-", 1);
	tw_strwriter_put(&s, ibuf, (size_t)n);
	if (flen > 0) {
		tw_strwriter_put(&s, ".", 1);
		tw_strwriter_put(&s, fbuf, (size_t)flen);
	}
	return tw_strwriter_finish(&s);
}

int
tw_perf_uom_valid(const char *uom)
{
	static const char *const uoms[] = {
		"", "s", "ms", "us", "%", "B", "KB", "MB", "TB", "c",
	};
	size_t i;

	if (uom == NULL)
		return 1;
	for (i = 0; i < sizeof(uoms) / sizeof(uoms[0]); i++)
		if (strcmp(uom, uoms[i]) == 0)
			return 1;
	return 0;
}

/* Append label by the rule of perfdata.h; the number of bytes appended
 * (0: nothing of the alphabet in it). */
static size_t
put_label(struct tw_strwriter *s, const char *label)
{
	size_t start = s->len;
	const char *p;
	int gap = 0;

	for (p = label; *p != '\0'; p++) {
		if (strchr(TW_PERF_LABEL_CHARS, *p) == NULL) {
			gap = 1;
			continue;
		}
		/* A run between two kept characters is one '_'; one before
		 * the first or after the last is dropped. */
		if (gap && s->len > start)
			tw_strwriter_put(s, "_", 1);
		gap = 0;
		tw_strwriter_put(s, p, 1);
	}
	return s->len - start;
}

int
tw_perf_label(const char *label, char *out, size_t outlen)
{
	struct tw_strwriter s;

	tw_strwriter_init(&s, out, outlen);
	if (label == NULL || put_label(&s, label) == 0) {
		tw_strwriter_finish(&s);
		if (outlen > 0)
			out[0] = '\0';
		return s.over ? TW_E_TOOBIG : TW_E_INVAL;
	}
	return tw_strwriter_finish(&s);
}

int
tw_perf_format(const struct tw_perf *p, char *out, size_t outlen)
{
	/* Fields after the value: warn, crit, min, max. */
	char field[4][340], value[340];
	struct tw_strwriter s;
	int last = -1, i, rc;

	tw_strwriter_init(&s, out, outlen);
	if (p->label == NULL || p->label[0] == '\0' || !tw_perf_uom_valid(p->uom))
		return TW_E_INVAL;
	if (p->precision > TW_PERF_PRECISION_MAX)
		return TW_E_INVAL;
	if (isnan(p->value)) {
		/* The guidelines' "U": the value could not be determined. */
		strcpy(value, "U");
	} else {
		rc = tw_perf_number(p->value, p->precision, value, sizeof(value));
		if (rc != TW_OK)
			return rc;
		if (p->uom != NULL)
			strcat(value, p->uom);
	}
	for (i = 0; i < 4; i++)
		field[i][0] = '\0';
	if (p->warn != NULL &&
	    (rc = tw_range_perfdata(p->warn, field[0], sizeof(field[0]))) != TW_OK)
		return rc;
	if (p->crit != NULL &&
	    (rc = tw_range_perfdata(p->crit, field[1], sizeof(field[1]))) != TW_OK)
		return rc;
	if (p->has_min &&
	    (rc = tw_perf_number(p->min, p->precision, field[2], sizeof(field[2]))) != TW_OK)
		return rc;
	if (p->has_max &&
	    (rc = tw_perf_number(p->max, p->precision, field[3], sizeof(field[3]))) != TW_OK)
		return rc;
	for (i = 0; i < 4; i++)
		if (field[i][0] != '\0')
			last = i;

	if (put_label(&s, p->label) == 0 && !s.over)
		return TW_E_INVAL;
	tw_strwriter_put(&s, "=", 1);
	tw_strwriter_puts(&s, value);
	for (i = 0; i <= last; i++) {
		tw_strwriter_put(&s, ";", 1);
		tw_strwriter_puts(&s, field[i]);
	}
	return tw_strwriter_finish(&s);
}
