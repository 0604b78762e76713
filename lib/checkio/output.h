/* SPDX-License-Identifier: ISC */
/* Plugin output: the text a plugin prints, collected in memory.
 *
 * struct tw_out collects a whole plugin output, so that the plugin prints
 * it with one write at the end, never a partial result:
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
#ifndef TW_OUTPUT_H
#define TW_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "checkio/outlabel.h"
#include "threshold/perfdata.h"
#include "threshold/state.h"
#include "util/printf.h"
#include "util/readfile.h"

/* Default cap on the whole output: Nagios core keeps 8 KiB of plugin
 * output. NRPE 2 keeps only 1 KiB: set 1024 for plugins run through it. */
#define TW_OUT_LIMIT_DEFAULT 8192
#define TW_OUT_LIMIT_MIN 128

struct tw_out {
	const char *service;	/* "DISKLATENCY"; may be NULL or "" */
	struct tw_buf summary;	/* the text after "SERVICE STATE - " */
	struct tw_buf perf;	/* items, each ended by '\n' (never in an item) */
	struct tw_out_label *labels;	/* one per item of perf, in its order */
	size_t nlabels, labels_cap;
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
 * or a line. Lines go by group: a line with the indented lines under it
 * (a finding's apply and persist lines), and a last line says how many
 * were left out when it fits: "(526 more lines left out to keep the
 * output within 8192 bytes)". */
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
 * output stays usable; TW_E_NOMEM is sticky. Labels are written as
 * threshold/perfdata.h says; when two items of different subjects come out
 * with one label (/a/web.service and /b/web.service are both
 * web_service_refaults), tw_out_finish() ends each such label with '_'
 * and six hex digits of a hash of its subject, which stay the same from
 * run to run: web_service_refaults_3fa0c2. Labels that no other subject
 * shares are left as they are. */
int tw_out_perf(struct tw_out *o, const struct tw_perf *p);

/* The longest label tw_out_figure writes, with its NUL: a view's name
 * (TW_VIEW_STR, 128) and a figure's word. */
#define TW_OUT_FIGURE_LABEL 144

/* Append the item of one figure as the checks give each: labelled "NAME
 * WHAT" ("sda r_await"), or WHAT alone where name is NULL; a name too long
 * for TW_OUT_FIGURE_LABEL keeps its tail after "...", and WHAT whole. The
 * item's subject is subject (two subjects with one label are told apart
 * as tw_out_perf says), or the label where subject is NULL. Min 0, and
 * max 100 where percent; precision as struct tw_perf's (0: the default).
 * TW_E_INVAL, and nothing appended, for a WHAT that leaves no room. */
int tw_out_figure(struct tw_out *o, const char *name, const char *subject, const char *what,
    double v, const char *uom, unsigned precision, const struct tw_range *warn,
    const struct tw_range *crit, int percent);

/* Build the final text, "SERVICE STATE - summary | perf\nline\n...", and
 * return it in *text (owned by o, valid until the next call on o) and its
 * length in *len. Without a summary it is "SERVICE STATE"; without a
 * service, "STATE - summary". Returns TW_OK or the sticky error, in which
 * case the plugin should print a fixed UNKNOWN line of its own. */
int tw_out_finish(struct tw_out *o, enum tw_state st, const char **text, size_t *len);

#endif
