/* Plugin output: perfdata items and the text a plugin prints.
 *
 * A perfdata item follows the Monitoring Plugins guidelines:
 *
 *   'label'=value[UOM];[warn];[crit];[min];[max]
 *
 * Numbers never depend on the process locale (the separator is always '.').
 * An item is either written whole or not at all: a plugin must never print
 * half a perfdata item, which graphers would store as a wrong value.
 *
 * struct tw_out collects a whole plugin output in memory, so that the
 * plugin prints it with one write at the end, never a partial result:
 *
 *   SERVICE STATE - summary | perf1 perf2
 *   long output line 1
 *   long output line 2
 *
 * Typical use:
 *
 *   struct tw_out o;
 *   const char *text;
 *   size_t len;
 *
 *   tw_out_init(&o, "DISKLATENCY");
 *   tw_out_printf(&o, "sda r_await %s ms", num);
 *   tw_out_perf(&o, &item);
 *   tw_out_line(&o, "sda: %s", detail);
 *   if (tw_out_finish(&o, state, &text, &len) == TW_OK)
 *           write(1, text, len);
 *   else
 *           ... print a fixed "UNKNOWN - out of memory" line ...
 *   tw_out_free(&o);
 */
#ifndef TW_PERFDATA_H
#define TW_PERFDATA_H

#include <stddef.h>

#include "plugin/range.h"
#include "util/readfile.h"
#include "plugin/state.h"

#ifndef TW_PRINTF
#if defined(__GNUC__)
#define TW_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TW_PRINTF(f, a)
#endif
#endif

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

/* Default cap on the whole output: Nagios core keeps 8 KiB of plugin
 * output. NRPE 2 keeps only 1 KiB: set 1024 for plugins run through it. */
#define TW_OUT_LIMIT_DEFAULT 8192
#define TW_OUT_LIMIT_MIN 128

struct tw_out {
	const char *service;	/* "DISKLATENCY"; may be NULL or "" */
	struct tw_buf summary;	/* the text after "SERVICE STATE - " */
	struct tw_buf perf;	/* items, each ended by '\n' (never in an item) */
	struct tw_buf lines;	/* long output, each line ended by '\n' */
	struct tw_buf final;	/* what tw_out_finish() returns */
	size_t limit;		/* 0: no cap */
	int err;		/* first allocation failure; sticky */
};

void tw_out_init(struct tw_out *o, const char *service);
void tw_out_free(struct tw_out *o);

/* Cap the finished text at limit bytes (0: no cap; otherwise at least
 * TW_OUT_LIMIT_MIN, else TW_E_INVAL). When the output would be longer,
 * tw_out_finish() drops whole long-output lines from the end first, then
 * whole perfdata items from the end, and only then shortens the summary
 * (ending it with "..."), so nothing is ever cut in the middle of an item
 * or a line. */
int tw_out_set_limit(struct tw_out *o, size_t limit);

/* Append to the summary. A newline or carriage return becomes a blank and
 * '|' becomes '/': the summary is one line, and a '|' would start the
 * perfdata. Format numbers with tw_perf_number(), not %f, whose decimal
 * separator follows the locale. Returns TW_OK, TW_E_INVAL (bad format) or
 * the sticky error. */
int tw_out_printf(struct tw_out *o, const char *fmt, ...) TW_PRINTF(2, 3);

/* Append one long-output line (the newline is added). A '|' becomes '/',
 * for the same reason; embedded newlines make several lines. */
int tw_out_line(struct tw_out *o, const char *fmt, ...) TW_PRINTF(2, 3);

/* Append one perfdata item. On TW_E_INVAL nothing is appended and the
 * output stays usable; TW_E_NOMEM is sticky. */
int tw_out_perf(struct tw_out *o, const struct tw_perf *p);

/* Build the final text, "SERVICE STATE - summary | perf\nline\n...", and
 * return it in *text (owned by o, valid until the next call on o) and its
 * length in *len. Without a summary it is "SERVICE STATE"; without a
 * service, "STATE - summary". Returns TW_OK or the sticky error, in which
 * case the plugin should print a fixed UNKNOWN line of its own. */
int tw_out_finish(struct tw_out *o, enum tw_state st, const char **text, size_t *len);

#endif
