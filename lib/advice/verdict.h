/* SPDX-License-Identifier: ISC */
/* A verdict: the symptoms the figures show, each with its evidence, or
 * why none is shown (advice/evidence.h judges them). The functions that
 * fill one are for the evidence files alone.
 *
 * Text that does not fit is cut: it is evidence for a person to read, and
 * the figures come first. */
#ifndef TW_ADVICE_VERDICT_H
#define TW_ADVICE_VERDICT_H

#include <stddef.h>

#include "advice/advice.h"
#include "util/printf.h"

#define TW_EVIDENCE_MAX 4
#define TW_EVIDENCE_LEN 320

/* A symptom the figures show, and those figures: what a verdict found.
 * It is not yet a finding (lib/finding/finding.h), which adds whose it is
 * and what to turn. */
struct tw_shown {
	enum tw_symptom sym;
	char evidence[TW_EVIDENCE_LEN];	/* the figures that show it */
};

struct tw_verdict {
	struct tw_shown found[TW_EVIDENCE_MAX];
	size_t nfound;
	char no_tunable[TW_EVIDENCE_LEN];	/* set when nfound is 0 */
	/* With no_tunable: the symptom that was looked for and not shown
	 * ("read-latency-queue" for a slow disk), so that a finding without
	 * a tunable still has a ticket id (lib/advice/ticket.h). */
	enum tw_symptom no_tunable_sym;
	/* With no_tunable, where the knob is one no command here can turn:
	 * why a ticket has no apply line ("the application's own ..."). */
	const char *no_apply;
};

/* Numbers as the checks print them: locale-independent, no trailing
 * zeros. Several may appear in one line, so each has its own buffer. */
struct tw_verdict_nums {
	char b[6][32];
	int next;
};

/* v as the checks print it, with precision decimals at most ("unknown"
 * when it cannot be written), in the next of n's buffers. */
const char *tw_verdict_num(struct tw_verdict_nums *n, double v, unsigned precision);

/* An empty verdict. */
void tw_verdict_init(struct tw_verdict *out);

/* Add a finding of symptom sym with its evidence; once the verdict holds
 * TW_EVIDENCE_MAX findings, further ones are left out. */
void tw_verdict_found(struct tw_verdict *out, enum tw_symptom sym, const char *fmt, ...)
    TW_PRINTF(3, 4);

/* Say why no tunable helps; sym is the symptom that was looked for, from
 * which a no-tunable finding's ticket id is made. */
void tw_verdict_none(struct tw_verdict *out, enum tw_symptom sym, const char *fmt, ...)
    TW_PRINTF(3, 4);

#endif
