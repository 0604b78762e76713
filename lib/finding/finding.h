/* SPDX-License-Identifier: ISC */
/* A finding: one symptom on one subject, what to turn and how, as one
 * value. lib/finding builds it once (finding.c for a rule's suggestion or
 * a verdict without a tunable, ticket_cgroup.c for a cgroup), tunewatchd's
 * tracker keeps it as a twFindingTable row, and the checks print it as
 * the lines under a "tune:" line (plugins/findings.c), so that the two
 * cannot tell one finding apart in two ways. */
#ifndef TW_FINDING_FINDING_H
#define TW_FINDING_FINDING_H

#include "advice/advice.h"
#include "advice/ticket.h"
#include "threshold/state.h"
#include "view/view.h"

/* Longest text the MIB publishes of one field: a DisplayString holds 255. */
#define TW_FINDING_STR 256

struct tw_finding {
	enum tw_symptom sym;
	enum tw_state severity;		/* WARNING or CRITICAL; OK in a check */
	char subject[TW_TICKET_SUBJECT_CGROUP_LEN];	/* disk stable id or name, pool,
					 * "cache", a socket, a cgroup's directory */
	char evidence[TW_FINDING_STR];	/* the figures, threshold and window */
	char tunable[TW_FINDING_STR];	/* as applied: sysctl name or /sys path */
	char current[TW_ADVICE_VALUE_LEN];	/* "" when unknown */
	char suggested[TW_ADVICE_VALUE_LEN];	/* "" when nothing is proposed */
	/* A value is proposed for a tunable named whole (not a class's
	 * NBLKnnnn, not a queue without its disk): the checks print an apply
	 * and a persist line, each the command or why there is none. */
	int actionable;
	char apply[TW_TICKET_LINE_LEN];	/* the command that applies it now */
	char persist[TW_TICKET_LINE_LEN];	/* the line that makes it last */
	const char *no_apply;		/* why apply is ""; or NULL */
	const char *no_persist;		/* why persist is ""; or NULL */
	char documentation[TW_FINDING_STR];
	char id[TW_TICKET_ID_LEN];	/* the ticket id (advice/ticket.h) */
	char owner[TW_TICKET_LINE_LEN];	/* a cgroup's owner in words; "" otherwise */
	/* What it threatens (TW_FINDING_CLASS_*: the host's, a service's, a
	 * user's) and whose it is (a uid; -1 for the host's): the tracker
	 * gives room and notifications by them (tracker.h). */
	int cls;
	int64_t owner_uid;
};

/* Set f's class and owner for a subject of uid's (-1: the host's): a
 * user's (util/uid.h), or a service's (root's, a service account's). */
void tw_finding_owned(struct tw_finding *f, int64_t uid);

/* The finding of suggestion s of symptom sym on subject (NULL: the
 * disk's), on os; device is the disk a queue tunable is on, or NULL. */
void tw_finding_tune(struct tw_finding *f, enum tw_os os, enum tw_symptom sym,
    enum tw_state severity, const char *subject, const struct tw_view_disk *device,
    const char *evidence, const struct tw_suggestion *s);

/* The finding of a symptom that names no tunable, a ticket for a person:
 * tunable "", evidence what was found instead, no_apply why nothing runs
 * (NULL: say nothing). */
void tw_finding_no_tunable(struct tw_finding *f, enum tw_symptom sym, enum tw_state severity,
    const char *subject, const struct tw_view_disk *device, const char *evidence,
    const char *no_apply);

#endif
