/* SPDX-License-Identifier: ISC */
/* Threshold ranges, as the Monitoring Plugins guidelines define them.
 *
 *   "10"     alert when the value is outside 0..10 (below 0 or above 10)
 *   "10:"    alert below 10
 *   "~:10"   alert above 10 ("~" is minus infinity)
 *   "10:20"  alert outside 10..20
 *   "@10:20" alert inside 10..20
 *
 * Endpoints are inclusive: with "10" the value 10 is fine and 10.01 alerts;
 * with "@10:20" both 10 and 20 alert. "~:" never alerts.
 *
 * Numbers are written -?[0-9]+(\.[0-9]+)? and nothing else: no "+", no
 * ".5" or "5.", no exponent, no hex, no "inf" or "nan", no blanks. ":10"
 * (an empty start) is not in the guidelines and is rejected; write "10" or
 * "0:10". The decimal separator is always '.', whatever the process locale
 * says, so a threshold means the same under LC_NUMERIC=de_DE. */
#ifndef TW_RANGE_H
#define TW_RANGE_H

#include <stddef.h>

#include "threshold/state.h"

/* Longest range text accepted, terminating NUL included. */
#define TW_RANGE_TEXT_LEN 64

struct tw_range {
	double start;		/* meaningful unless start_inf */
	double end;		/* meaningful unless end_inf */
	int start_inf;		/* start is minus infinity ("~") */
	int end_inf;		/* end is plus infinity (nothing after ':') */
	int inside;		/* '@': alert inside the range, not outside */
	/* The canonical spelling: redundant zeros dropped ("007.50" is
	 * "7.5"), and a range that starts at 0 written in its short form
	 * ("0:10" is "10", "@0:10" is "@10"). Never longer than the input. */
	char text[TW_RANGE_TEXT_LEN];
};

/* Parse text into *out. Returns TW_OK, or TW_E_INVAL for an empty or
 * malformed range, a start above the end, or a text of
 * TW_RANGE_TEXT_LEN bytes or more. *out is left alone on error. */
int tw_range_parse(const char *text, struct tw_range *out);

/* 1 when v raises the alert the range describes, else 0. A NaN value
 * alerts: a value that could not be computed must not pass as good. */
int tw_range_alerts(const struct tw_range *r, double v);

/* The state of v against a warning and a critical range, either of which
 * may be NULL (not set). Critical is tested first, so a value in both is
 * CRITICAL. A NaN value is UNKNOWN. */
enum tw_state tw_range_state(double v, const struct tw_range *warn,
    const struct tw_range *crit);

/* The range as a perfdata warn or crit field: the plain number "N" for the
 * simple form (start 0, not inside, end finite), because Icinga 2 drops
 * range forms from perfdata; otherwise the canonical text. Returns TW_OK,
 * or TW_E_TOOBIG (and an empty string when outlen > 0) if it does not
 * fit. */
int tw_range_perfdata(const struct tw_range *r, char *out, size_t outlen);

#endif
