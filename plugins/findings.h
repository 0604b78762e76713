/* SPDX-License-Identifier: ISC */
/* The ticket beside each piece of advice: the finding's id and the lines
 * that apply and keep its suggestion (lib/advice/ticket.h), printed
 * indented under the "tune:" or "no tunable:" line they belong to:
 *
 *   tune: vm.swappiness 60 -> 120 (...)
 *     finding: tw-8f494446bcee
 *     apply: sysctl -w vm.swappiness=120
 *     persist: /etc/sysctl.d/90-tunewatch.conf: vm.swappiness = 120
 *     proof: not yet shown on a kernel
 */
#ifndef TW_PLUGIN_FINDINGS_H
#define TW_PLUGIN_FINDINGS_H

#include "advice/advice.h"
#include "finding/finding.h"
#include "checkio/output.h"
#include "view/view.h"

struct tw_plugin;

/* Whose finding it is: subject ("cache", a pool class; NULL: the disk's),
 * and disk, the device a queue tunable is on (or NULL). */
struct tw_finding_about {
	const char *subject;
	const struct tw_view_disk *disk;
};

/* The subject of a finding on tunable (NULL or "": none). */
const char *tw_finding_subject(const struct tw_finding_about *a, const char *tunable);

/* "  finding:", and for a proposed value "  apply:" and "  persist:", for
 * suggestion s of symptom sym (tw_finding_tune). */
void tw_finding_lines(const struct tw_plugin *p, struct tw_out *out, enum tw_symptom sym,
    const struct tw_finding_about *a, const struct tw_suggestion *s);

/* "  finding:" for a finding without a tunable, and "  apply:" with why
 * nothing runs when no_apply is given. */
void tw_finding_no_tunable_lines(struct tw_out *out, enum tw_symptom sym,
    const struct tw_finding_about *a, const char *no_apply);

/* The lines of finding f: "  finding:", "  owner:" for a cgroup's (a
 * system unit, a user's unit or a plain cgroup), then for an actionable
 * one "  apply:" and "  persist:", each either the line or "none: " and
 * why, and for one that names a knob "  proof:", how the knob is known to
 * help (lib/advice/proof.h). */
void tw_finding_print(struct tw_out *out, const struct tw_finding *f);

#endif
