/* SPDX-License-Identifier: ISC */
/* Filling a verdict (advice/evidence.h), for the evidence files alone.
 *
 * Text that does not fit is cut: it is evidence for a person to read, and
 * the figures come first. */
#ifndef TW_ADVICE_VERDICT_H
#define TW_ADVICE_VERDICT_H

#include "advice/evidence.h"
#include "util/printf.h"

/* Add a finding of symptom sym with its evidence; once the verdict holds
 * TW_EVIDENCE_MAX findings, further ones are left out. */
void tw_verdict_found(struct tw_verdict *out, enum tw_symptom sym, const char *fmt, ...)
    TW_PRINTF(3, 4);

/* Say why no tunable helps; sym is the symptom that was looked for, from
 * which a no-tunable finding's ticket id is made. */
void tw_verdict_none(struct tw_verdict *out, enum tw_symptom sym, const char *fmt, ...)
    TW_PRINTF(3, 4);

#endif
