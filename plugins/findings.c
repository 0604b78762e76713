/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "findings.h"

#include "advice/proof.h"
#include "advice/ticket.h"
#include "plugin.h"

const char *
tw_finding_subject(const struct tw_finding_about *a, const char *tunable)
{
	return tw_ticket_subject(a->subject, a->disk, tunable);
}

void
tw_finding_print(struct tw_out *out, const struct tw_finding *f)
{
	char proof[400];

	tw_out_line(out, "  finding: %s", f->id);
	/* Which kind of owner, before any command: what the commands are
	 * follows from it. */
	if (f->owner[0] != '\0')
		tw_out_line(out, "  owner: %s", f->owner);
	if (f->actionable && f->apply[0] != '\0')
		tw_out_line(out, "  apply: %s", f->apply);
	else if (f->no_apply != NULL)
		tw_out_line(out, "  apply: %s", f->no_apply);
	if (f->actionable) {
		if (f->persist[0] != '\0')
			tw_out_line(out, "  persist: %s", f->persist);
		else if (f->no_persist != NULL)
			tw_out_line(out, "  persist: %s", f->no_persist);
	}
	/* How the knob is known to help: a lab scenario's measured effect,
	 * or not yet shown (lib/advice/proof.h). */
	if (f->tunable[0] != '\0') {
		tw_proof_text(f->sym, f->tunable, proof, sizeof(proof));
		tw_out_line(out, "  proof: %s", proof);
	}
}

void
tw_finding_lines(const struct tw_plugin *p, struct tw_out *out, enum tw_symptom sym,
    const struct tw_finding_about *a, const struct tw_suggestion *s)
{
	struct tw_finding f;

	tw_finding_tune(&f, p->os, sym, TW_STATE_OK, a->subject, a->disk, "", s);
	tw_finding_print(out, &f);
}

void
tw_finding_no_tunable_lines(struct tw_out *out, enum tw_symptom sym,
    const struct tw_finding_about *a, const char *no_apply)
{
	struct tw_finding f;

	tw_finding_no_tunable(&f, sym, TW_STATE_OK, a->subject, a->disk, "", no_apply);
	tw_finding_print(out, &f);
}
