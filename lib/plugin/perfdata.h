/* Perfdata items, as the Monitoring Plugins guidelines define them:
 *
 *   'label'=value[UOM];[warn];[crit];[min];[max]
 *
 * Numbers never depend on the process locale (the separator is always '.').
 * An item is either written whole or not at all: a plugin must never print
 * half a perfdata item, which graphers would store as a wrong value.
 * plugin/output.h puts items into a plugin's output. */
#ifndef TW_PERFDATA_H
#define TW_PERFDATA_H

#include <stddef.h>

#include "plugin/range.h"

/* Fractional digits printed when the caller does not choose. */
#define TW_PERF_PRECISION_DEFAULT 2
#define TW_PERF_PRECISION_MAX 9

/* Format v with at most precision fractional digits (0 means
 * TW_PERF_PRECISION_DEFAULT; more than TW_PERF_PRECISION_MAX is
 * TW_E_INVAL), rounded half away from zero, without trailing zeros and
 * without a trailing '.': 5.0 is "5", 2.50 is "2.5", 0.004 is "0",
 * -0.001 is "0". Returns TW_OK, TW_E_INVAL for NaN and infinities, or
 * TW_E_TOOBIG (out is then "") when it does not fit. */
int tw_perf_number(double v, unsigned precision, char *out, size_t outlen);

/* 1 when uom is one of the guidelines' units: "" (a plain count), "s",
 * "ms", "us", "%", "B", "KB", "MB", "TB" or "c" (a continuous counter).
 * NULL counts as "". */
int tw_perf_uom_valid(const char *uom);

struct tw_perf {
	const char *label;	/* non-empty; anything printable */
	double value;		/* NaN prints "U": could not be measured */
	const char *uom;	/* see tw_perf_uom_valid(); NULL is "" */
	const struct tw_range *warn;	/* NULL: empty field */
	const struct tw_range *crit;	/* NULL: empty field */
	int has_min, has_max;
	double min, max;
	unsigned precision;	/* for value, min and max; 0 = default */
};

/* Format one item into out. The label is always single-quoted, a quote in
 * it doubled, '=' and control characters replaced by '_'. Trailing empty
 * fields are dropped ("'a'=1;;5" rather than "'a'=1;;5;;"). Returns TW_OK,
 * TW_E_INVAL (empty label, unknown UOM, infinite value, NaN min or max,
 * bad precision) or TW_E_TOOBIG; out is "" on any error (when outlen > 0). */
int tw_perf_format(const struct tw_perf *p, char *out, size_t outlen);

#endif
