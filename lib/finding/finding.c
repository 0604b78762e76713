/* SPDX-License-Identifier: ISC */
/* A finding built from a rule's suggestion, or from a verdict that names
 * no tunable, the same for tunewatchd and the checks. Its strings are cut
 * to a DisplayString at a character's boundary (tw_escape_copy): the
 * subject is cut before the id is made of it, as tunewatchd has always
 * published it. */
#include "config.h"

#include "finding/finding.h"

#include <stdio.h>
#include <string.h>

#include "collect/blockqueue.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/uid.h"

/* Why a proposal has no apply line: its command was refused (err), or
 * the tunable is read only at boot. */
static const char *
no_apply_reason(enum tw_os os, int err)
{
	if (err == TW_E_INVAL)
		return "none: the tunable, device or value holds characters unsafe in a command";
	if (os == TW_OS_SVR4)
		return "none: takes effect only after a kernel relink and a reboot (see persist)";
	return "none: a loader tunable, read at boot (see persist)";
}

void
tw_finding_tune(struct tw_finding *f, enum tw_os os, enum tw_symptom sym,
    enum tw_state severity, const char *subject, const struct tw_view_disk *device,
    const char *evidence, const struct tw_suggestion *s)
{
	const char *dev = device != NULL ? device->name : NULL;
	int per_device = dev != NULL && tw_queue_attr(s->name) != NULL;
	int err;

	/* Every field is written, so the sample's many findings are not
	 * cleared byte by byte first. */
	f->sym = sym;
	f->severity = severity;
	tw_escape_copy(f->subject, TW_FINDING_STR, tw_ticket_subject(subject, device, s->name));
	tw_escape_copy(f->evidence, sizeof(f->evidence), evidence);
	if (!tw_ticket_queue_path(f->tunable, sizeof(f->tunable), dev, s->name))
		tw_escape_copy(f->tunable, sizeof(f->tunable), s->name);
	tw_escape_copy(f->current, sizeof(f->current), s->current);
	tw_escape_copy(f->suggested, sizeof(f->suggested), s->proposed);
	tw_escape_copy(f->documentation, sizeof(f->documentation), s->source);
	tw_ticket_id(f->id, sym, f->subject, s->name);
	f->apply[0] = f->persist[0] = f->owner[0] = '\0';
	tw_finding_owned(f, -1);
	f->no_apply = f->no_persist = NULL;
	/* At a limit, already satisfied, or no value known: nothing to run.
	 * Nor for a queue tunable without its disk, or NBLKnnnn, whose nnnn
	 * a person fills in. */
	f->actionable = s->proposed[0] != '\0' && !(s->flags & (TW_SUG_AT_LIMIT |
	    TW_SUG_NO_CHANGE | TW_SUG_PER_CLASS)) && (dev != NULL ||
	    tw_queue_attr(s->name) == NULL);
	if (s->proposed[0] == '\0')
		return;
	err = tw_ticket_apply(f->apply, sizeof(f->apply), os, s->name, dev, s->proposed);
	if (err != TW_OK)
		f->apply[0] = '\0';
	if (f->actionable && (err == TW_E_ABSENT || err == TW_E_INVAL))
		f->no_apply = no_apply_reason(os, err);
	if ((per_device ? tw_ticket_persist_disk(f->persist, sizeof(f->persist), os, s->name,
	    device, s->proposed) : tw_ticket_persist(f->persist, sizeof(f->persist), os, s->name,
	    dev, s->proposed)) != TW_OK)
		f->persist[0] = '\0';
}

void
tw_finding_no_tunable(struct tw_finding *f, enum tw_symptom sym, enum tw_state severity,
    const char *subject, const struct tw_view_disk *device, const char *evidence,
    const char *no_apply)
{
	memset(f, 0, sizeof(*f));
	f->sym = sym;
	f->severity = severity;
	tw_escape_copy(f->subject, TW_FINDING_STR, tw_ticket_subject(subject, device, NULL));
	/* Cut to a DisplayString, as every evidence is. */
	tw_escape_copy(f->evidence, sizeof(f->evidence), evidence);
	f->no_apply = no_apply;
	tw_ticket_id(f->id, sym, f->subject, "");
	tw_finding_owned(f, -1);
}

void
tw_finding_owned(struct tw_finding *f, int64_t uid)
{
	f->owner_uid = uid;
	f->cls = uid < 0 ? TW_FINDING_CLASS_HOST : tw_uid_is_user(uid) ? TW_FINDING_CLASS_USER :
	    TW_FINDING_CLASS_SERVICE;
}
