/* SPDX-License-Identifier: ISC */
/* Filling a verdict (advice/evidence.h), for the evidence files alone.
 *
 * Text that does not fit is cut: it is evidence for a person to read, and
 * the figures come first. */
#ifndef TW_ADVICE_VERDICT_H
#define TW_ADVICE_VERDICT_H

#include "advice/evidence.h"
#include "util/printf.h"

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
