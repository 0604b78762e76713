/* SPDX-License-Identifier: ISC */
/* How each tune line is proven: the lab scenario that showed its knob
 * helping on a real kernel, with the effect it measured, or that it has
 * not been shown yet.
 *
 * The claim is data, held to the committed lab results: tests/proof_lab.py
 * fails when a row here names a scenario that did not pass in doc/LAB.json
 * (the whole run that doc/LAB.md was written from), or whose measured
 * effect is not the one written here. A knob with no row is "not yet shown
 * on a kernel": its rule stands on documentation alone (ADVICE-REFERENCE.md
 * says which). */
#ifndef TW_ADVICE_PROOF_H
#define TW_ADVICE_PROOF_H

#include <stddef.h>

#include "advice/advice.h"

struct tw_proof {
	enum tw_symptom sym;
	/* The knob as the rule names it ("net.core.somaxconn",
	 * "queue/read_ahead_kb": a device's attribute, whatever the device),
	 * or "limit" for a cgroup's memory limit, whichever file or property
	 * sets it. */
	const char *knob;
	const char *scenario;	/* its META name in tests/lab, doc/LAB.json's */
	const char *figure;	/* what the workload's figure is, in words */
	const char *effect;	/* new over old, "1.46 (1.46-1.46)": doc/LAB.json's
				 * effect.text, the 95 % interval in brackets */
};

/* A knob tried on a kernel (the guest lab, doc/LAB-GUEST.json) and not
 * shown to help, with what was measured: said under its tune line beside
 * "not yet shown", so that no one takes it for untried. */
struct tw_proof_tried {
	enum tw_symptom sym;
	const char *knob;	/* as struct tw_proof's */
	const char *scenario;	/* its META name in tests/guest */
	const char *effect;	/* doc/LAB-GUEST.json's effect.text, or "" when
				 * no advice came to apply */
	const char *why;	/* what the run shows, in words */
};

/* Every row. */
size_t tw_proofs(const struct tw_proof **rows);
size_t tw_proofs_tried(const struct tw_proof_tried **rows);

/* The row for a finding's symptom and tunable as a ticket names it (a
 * sysctl, "/sys/block/sda/queue/read_ahead_kb", "MemoryHigh"), or NULL. */
const struct tw_proof *tw_proof_find(enum tw_symptom sym, const char *tunable);

/* The tried row for a finding's symptom and tunable, or NULL. */
const struct tw_proof_tried *tw_proof_tried_find(enum tw_symptom sym, const char *tunable);

/* What follows "proof: " under a tune line: "lab scenario net-listen: ...
 * (doc/LAB.md)", or "not yet shown on a kernel", followed for a tried
 * knob by "; tried in the guest lab's SCENARIO: what was measured
 * (doc/LAB-GUEST.md)". */
void tw_proof_text(enum tw_symptom sym, const char *tunable, char *buf, size_t len);

#endif
