/* SPDX-License-Identifier: ISC */
/* Perfdata items, as the Monitoring Plugins guidelines define them:
 *
 *   label=value[UOM];[warn];[crit];[min];[max]
 *
 * Numbers never depend on the process locale (the separator is always '.').
 * An item is either written whole or not at all: a plugin must never print
 * half a perfdata item, which graphers would store as a wrong value.
 * checkio/output.h puts items into a plugin's output. */
#ifndef TW_PERFDATA_H
#define TW_PERFDATA_H

#include <stddef.h>

#include "threshold/range.h"

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

/* Labels. Graphite (Icinga 2's GraphiteWriter) stores a label with a
 * blank, '/' or '\\' under another name and takes a '.' for a level of
 * its tree; PNP4Nagios and RRD want file-name characters. So a label is
 * written in one alphabet, and the same way by every check: letters,
 * digits, '_' and '-' are kept, case included; every run of other bytes
 * (blanks, '.', '/', quotes, '=', '|', an escape's backslash, UTF-8)
 * becomes one '_', and a run at either end is dropped. "sda r_await" is
 * sda_r_await, "nginx.service refaults" nginx_service_refaults. No label
 * needs quotes, so none has them. Two subjects whose labels come out
 * alike in one output are told apart by checkio/output.c (a suffix). */
#define TW_PERF_LABEL_CHARS \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

/* Write label by the rule above into out (outlen bytes with the NUL): the
 * whole of it, or TW_E_TOOBIG and "" (when outlen > 0); TW_E_INVAL for a
 * NULL or empty label, or one with nothing of the alphabet in it. */
int tw_perf_label(const char *label, char *out, size_t outlen);

struct tw_perf {
	const char *label;	/* non-empty; written as tw_perf_label says */
	/* What the label is about, in full ("/system.slice/nginx.service"),
	 * when the label names it shorter or alike: tw_out_perf tells two
	 * subjects apart by it. NULL: the label itself. */
	const char *subject;
	double value;		/* NaN prints "U": could not be measured */
	const char *uom;	/* see tw_perf_uom_valid(); NULL is "" */
	const struct tw_range *warn;	/* NULL: empty field */
	const struct tw_range *crit;	/* NULL: empty field */
	int has_min, has_max;
	double min, max;
	unsigned precision;	/* for value, min and max; 0 = default */
};

/* Format one item into out, its label by tw_perf_label. Trailing empty
 * fields are dropped ("'a'=1;;5" rather than "'a'=1;;5;;"). Returns TW_OK,
 * TW_E_INVAL (an empty label or one tw_perf_label refuses, unknown UOM,
 * infinite value, NaN min or max, bad precision) or TW_E_TOOBIG; out is ""
 * on any error (when outlen > 0). */
int tw_perf_format(const struct tw_perf *p, char *out, size_t outlen);

#endif
