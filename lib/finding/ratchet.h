/* SPDX-License-Identifier: ISC */
/* No ratchet: a host-wide knob that tunewatch's advice already raised is
 * not raised again without new evidence.
 *
 * A knob raised by a doubling, applied, and the symptom still there is
 * doubled again, and again: automation that runs apply lines ratchets the
 * host's limits (a user's socket that asks for rmem_max each time gets
 * rmem_max doubled after each apply). The change history (twChangeTable)
 * says what the last change did: when its window after has not closed,
 * nothing is known yet; when it has and the watched figure did not get
 * better, the raise did not help, and the next one would not either. In
 * both cases the suggestion is held back: the finding stays the same (its
 * id, its ticket, its tunable and current value) with no suggested value
 * and no apply line, its evidence saying why; a raise that helped, even
 * in part, is evidence for the next, and so is a tcp_mem raise after which
 * TCP still holds its new first value: it leaves memory pressure only
 * below that, so its time in pressure could not fall (ratchet.c). Only
 * host sysctls are held: a disk's queue and a cgroup's limit are their
 * subject's, and their tickets say so. tunewatchd and the
 * checks both ask here, with the view's changes, so they agree. */
#ifndef TW_FINDING_RATCHET_H
#define TW_FINDING_RATCHET_H

#include <stddef.h>

#include "advice/advice.h"
#include "figures/change_record.h"
#include "view/view.h"

/* Whether v's change history holds back suggestion s (one that proposes
 * to raise it from s->current): why gets the reason, one line. */
int tw_ratchet_held(const struct tw_view *v, const struct tw_suggestion *s, char *why,
    size_t len);

/* Whether the newest change of host sysctl tunable in v's change history
 * has not had its window after yet (1, *c filled from it; its strings
 * point into v), else 0. A figure counted over the window then holds the
 * old value's time as well as the new one's. */
int tw_ratchet_pending(const struct tw_view *v, const char *tunable,
    struct tw_change_record *c);

/* The apply line's word for a suggestion held back. */
#define TW_RATCHET_NO_APPLY "none: tunewatch's own advice raised this knob already and the " \
	"change history shows no gain yet (see the evidence); raise it again only on new evidence"

#endif
