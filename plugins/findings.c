#include "config.h"

#include "findings.h"

#include <string.h>

#include "advice/ticket.h"
#include "plugin.h"
#include "util/error.h"

const char *
tw_finding_subject(const struct tw_finding_about *a, const char *tunable)
{
	return tw_ticket_subject(a->subject, a->disk, tunable);
}

/* Why there is no apply line though a value is proposed. */
static const char *
no_apply_reason(const struct tw_plugin *p, int err)
{
	if (err == TW_E_INVAL)
		return "none: the tunable, device or value holds characters unsafe in a command";
	if (p->os == TW_OS_SVR4)
		return "none: takes effect only after a kernel relink and a reboot (see persist)";
	return "none: a loader tunable, read at boot (see persist)";
}

void
tw_finding_lines(const struct tw_plugin *p, struct tw_out *out, enum tw_symptom sym,
    const struct tw_finding_about *a, const struct tw_suggestion *s)
{
	char id[TW_TICKET_ID_LEN], line[TW_TICKET_LINE_LEN];
	const char *dev = a->disk != NULL ? a->disk->name : NULL;
	int err;

	tw_ticket_id(id, sym, tw_finding_subject(a, s->name), s->name);
	tw_out_line(out, "  finding: %s", id);
	/* At a limit, already satisfied, or no value known: nothing to run.
	 * Nor for a queue tunable without its disk, or NBLKnnnn, whose
	 * nnnn a person fills in. */
	if (s->proposed[0] == '\0' || (s->flags & (TW_SUG_AT_LIMIT | TW_SUG_NO_CHANGE |
	    TW_SUG_PER_CLASS)) || (dev == NULL && strncmp(s->name, "queue/", 6) == 0))
		return;
	err = tw_ticket_apply(line, sizeof(line), p->os, s->name, dev, s->proposed);
	if (err == TW_OK)
		tw_out_line(out, "  apply: %s", line);
	else if (err == TW_E_ABSENT || err == TW_E_INVAL)
		tw_out_line(out, "  apply: %s", no_apply_reason(p, err));
	if (a->disk != NULL)
		err = tw_ticket_persist_disk(line, sizeof(line), p->os, s->name, a->disk,
		    s->proposed);
	else
		err = tw_ticket_persist(line, sizeof(line), p->os, s->name, dev, s->proposed);
	if (err == TW_OK)
		tw_out_line(out, "  persist: %s", line);
}

void
tw_finding_no_tunable(struct tw_out *out, enum tw_symptom sym,
    const struct tw_finding_about *a)
{
	char id[TW_TICKET_ID_LEN];

	tw_ticket_id(id, sym, tw_finding_subject(a, NULL), "");
	tw_out_line(out, "  finding: %s", id);
}

void
tw_finding_cgroup_lines(struct tw_out *out, const struct tw_cgroup_ticket *t)
{
	tw_out_line(out, "  finding: %s", t->id);
	/* Which kind of owner, before any command: what the commands are
	 * follows from it. */
	tw_out_line(out, "  owner: %s", t->owner);
	if (t->suggested[0] == '\0')
		return;
	tw_out_line(out, "  apply: %s", t->apply[0] != '\0' ? t->apply : t->no_apply);
	if (t->persist[0] != '\0' || t->no_persist != NULL)
		tw_out_line(out, "  persist: %s", t->persist[0] != '\0' ? t->persist :
		    t->no_persist);
}
