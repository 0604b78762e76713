/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "advice/verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "threshold/perfdata.h"
#include "util/error.h"

void
tw_verdict_found(struct tw_verdict *out, enum tw_symptom sym, const char *fmt, ...)
{
	struct tw_shown *f;
	va_list ap;

	if (out->nfound == TW_EVIDENCE_MAX)
		return;
	f = &out->found[out->nfound++];
	f->sym = sym;
	va_start(ap, fmt);
	vsnprintf(f->evidence, sizeof(f->evidence), fmt, ap);
	va_end(ap);
}

void
tw_verdict_none(struct tw_verdict *out, enum tw_symptom sym, const char *fmt, ...)
{
	va_list ap;

	out->no_tunable_sym = sym;
	va_start(ap, fmt);
	vsnprintf(out->no_tunable, sizeof(out->no_tunable), fmt, ap);
	va_end(ap);
}

const char *
tw_verdict_num(struct tw_verdict_nums *n, double v, unsigned precision)
{
	char *buf = n->b[n->next++ % 6];

	if (tw_perf_number(v, precision, buf, sizeof(n->b[0])) != TW_OK)
		snprintf(buf, sizeof(n->b[0]), "unknown");
	return buf;
}

void
tw_verdict_init(struct tw_verdict *out)
{
	memset(out, 0, sizeof(*out));
}
