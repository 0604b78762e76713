/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for the threshold ranges (lib/threshold/range.c).
 *
 * The input is a warning range, optionally followed by a NUL and a
 * critical range. For each range that parses it checks that the canonical
 * text is no longer than the input and parses back to the same range, that
 * tw_range_perfdata gives a field that parses back to it too (and "" with
 * TW_E_TOOBIG in any smaller buffer), and that tw_range_alerts and
 * tw_range_state agree with the definition at the endpoints, just outside
 * them, at the infinities and at NaN. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "threshold/range.h"
#include "util/error.h"

static int
same_range(const struct tw_range *a, const struct tw_range *b)
{
	return a->start_inf == b->start_inf && a->end_inf == b->end_inf &&
	    a->inside == b->inside && (a->start_inf || a->start == b->start) &&
	    (a->end_inf || a->end == b->end) && strcmp(a->text, b->text) == 0;
}

/* The guidelines' wording, written apart from lib/threshold/range.c's: alert when v
 * is below start or above end; with '@', when it is neither. Not a number
 * always alerts. */
static int
expected_alert(const struct tw_range *r, double v)
{
	int outside;

	if (isnan(v))
		return 1;
	outside = (!r->start_inf && v < r->start) || (!r->end_inf && v > r->end);
	return r->inside ? !outside : outside;
}

static void
check_perfdata(const struct tw_range *r)
{
	char field[TW_RANGE_TEXT_LEN];
	struct tw_range back;
	size_t len = strlen(r->text), outlen;

	FUZZ_ASSERT(tw_range_perfdata(r, field, sizeof(field)) == TW_OK);
	FUZZ_ASSERT(tw_range_parse(field, &back) == TW_OK && same_range(r, &back));
	/* The simple form is a plain number, as Icinga 2 wants it. */
	if (!r->inside && !r->start_inf && !r->end_inf && r->start == 0)
		FUZZ_ASSERT(strchr(field, ':') == NULL);
	/* Too small: "" and an error, never a cut field. Exact sizes, so a
	 * write past the end is seen. */
	for (outlen = 0; outlen <= len; outlen++) {
		char *small = outlen > 0 ? malloc(outlen) : NULL;

		FUZZ_ASSERT(outlen == 0 || small != NULL);
		FUZZ_ASSERT(tw_range_perfdata(r, small, outlen) == TW_E_TOOBIG);
		if (outlen > 0)
			FUZZ_ASSERT(small[0] == '\0');
		free(small);
	}
}

static void
check_range(const char *text, const struct tw_range *r)
{
	struct tw_range again;

	FUZZ_ASSERT(strlen(r->text) <= strlen(text) && strlen(r->text) < TW_RANGE_TEXT_LEN);
	FUZZ_ASSERT(r->inside == (text[0] == '@'));
	if (!r->start_inf && !r->end_inf)
		FUZZ_ASSERT(r->start <= r->end);
	if (!r->start_inf)
		FUZZ_ASSERT(isfinite(r->start));
	if (!r->end_inf)
		FUZZ_ASSERT(isfinite(r->end));
	FUZZ_ASSERT(tw_range_parse(r->text, &again) == TW_OK && same_range(r, &again));
	check_perfdata(r);
}

/* Values where a range's answer changes, and a few that are always
 * interesting. */
static size_t
probe_values(const struct tw_range *r, double *v, size_t n)
{
	if (!r->start_inf) {
		v[n++] = r->start;
		v[n++] = nextafter(r->start, -INFINITY);
		v[n++] = nextafter(r->start, INFINITY);
	}
	if (!r->end_inf) {
		v[n++] = r->end;
		v[n++] = nextafter(r->end, -INFINITY);
		v[n++] = nextafter(r->end, INFINITY);
	}
	return n;
}

static void
check_state(const struct tw_range *warn, const struct tw_range *crit)
{
	double v[16];
	size_t n = 0, i;

	v[n++] = 0;
	v[n++] = -INFINITY;
	v[n++] = INFINITY;
	v[n++] = NAN;
	if (warn != NULL)
		n = probe_values(warn, v, n);
	if (crit != NULL)
		n = probe_values(crit, v, n);
	for (i = 0; i < n; i++) {
		int wa = warn != NULL && expected_alert(warn, v[i]);
		int ca = crit != NULL && expected_alert(crit, v[i]);
		enum tw_state want = isnan(v[i]) ? TW_STATE_UNKNOWN : ca ? TW_STATE_CRITICAL :
		    wa ? TW_STATE_WARNING : TW_STATE_OK;

		if (warn != NULL)
			FUZZ_ASSERT(tw_range_alerts(warn, v[i]) == expected_alert(warn, v[i]));
		if (crit != NULL)
			FUZZ_ASSERT(tw_range_alerts(crit, v[i]) == expected_alert(crit, v[i]));
		FUZZ_ASSERT(tw_range_state(v[i], warn, crit) == want);
	}
	/* Endpoints are inclusive. */
	if (warn != NULL && !warn->start_inf)
		FUZZ_ASSERT(tw_range_alerts(warn, warn->start) == warn->inside);
	if (warn != NULL && !warn->end_inf)
		FUZZ_ASSERT(tw_range_alerts(warn, warn->end) == warn->inside);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct tw_range untouched = { .start = 42, .text = "untouched" };
	struct tw_range warn = untouched, crit = untouched;
	const char *crit_text;
	char *text;
	int wrc, crc;

	text = fuzz_strndup(data, size);
	crit_text = text + strlen(text) + 1 <= text + size ? text + strlen(text) + 1 : NULL;

	wrc = tw_range_parse(text, &warn);
	FUZZ_ASSERT(wrc == TW_OK || wrc == TW_E_INVAL);
	if (wrc == TW_OK)
		check_range(text, &warn);
	else
		FUZZ_ASSERT(same_range(&warn, &untouched));
	crc = crit_text != NULL ? tw_range_parse(crit_text, &crit) : TW_E_INVAL;
	FUZZ_ASSERT(crc == TW_OK || crc == TW_E_INVAL);
	if (crc == TW_OK)
		check_range(crit_text, &crit);
	else
		FUZZ_ASSERT(same_range(&crit, &untouched));
	check_state(wrc == TW_OK ? &warn : NULL, crc == TW_OK ? &crit : NULL);

	/* Without a NUL in the first TW_RANGE_TEXT_LEN bytes the text is too
	 * long, and the parser must stop looking there. */
	if (size >= TW_RANGE_TEXT_LEN && memchr(data, '\0', TW_RANGE_TEXT_LEN) == NULL) {
		char *raw = malloc(TW_RANGE_TEXT_LEN);

		FUZZ_ASSERT(raw != NULL);
		memcpy(raw, data, TW_RANGE_TEXT_LEN);
		FUZZ_ASSERT(tw_range_parse(raw, &warn) == TW_E_INVAL);
		free(raw);
	}
	free(text);
	return 0;
}
