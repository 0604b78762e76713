/* Observations: what the judgement of one view shows, one per symptom on
 * one subject, each with the tunable to turn and a concrete suggestion.
 *
 * This is what check_* print as "tune:" lines, in the form tunewatchd
 * keeps as findings: the same judgement (judge.h), the same verdicts and
 * the same rule chosen for each symptom (tw_observe_pick: the first rule
 * with something to change on the system, else the first that applies
 * at all). A verdict that names no tunable ("no tunable: ...") is an
 * observation too, with the symptom looked for and no tunable: a ticket
 * for a person (advice/ticket.h). */
#ifndef TW_FINDING_OBSERVE_H
#define TW_FINDING_OBSERVE_H

#include <stddef.h>

#include "advice/advice.h"
#include "advice/ticket.h"
#include "finding/judge.h"
#include "view/view.h"

/* Longest text of one observation's fields: a DisplayString holds 255. */
#define TW_OBS_STR 256

struct tw_observation {
	enum tw_symptom sym;
	enum tw_state severity;		/* WARNING or CRITICAL */
	char subject[TW_OBS_STR];	/* disk stable id or name, pool, "cache",
					 * a socket, a cgroup's directory */
	char evidence[TW_OBS_STR];	/* the figures, threshold and window */
	char tunable[TW_OBS_STR];	/* as applied: sysctl name or /sys path */
	char current[TW_ADVICE_VALUE_LEN];	/* "" when unknown */
	char suggested[TW_ADVICE_VALUE_LEN];	/* "" when nothing is proposed */
	char apply[TW_OBS_STR];		/* the command that applies it now */
	char persist[TW_OBS_STR];	/* the line that makes it last */
	char documentation[TW_OBS_STR];
	char id[TW_TICKET_ID_LEN];	/* the ticket id (advice/ticket.h) */
	char owner[TW_OBS_STR];		/* a cgroup's owner in words; "" otherwise */
};

/* Called for each observation; a non-zero return stops the evaluation and
 * is returned. */
typedef int (*tw_observe_fn)(void *ctx, const struct tw_observation *o);

/* Judge v against c and report every symptom shown, on os's tunables. */
int tw_observe(const struct tw_judge_config *c, const struct tw_view *v, unsigned window_s,
    enum tw_os os, tw_observe_fn fn, void *ctx);

/* The cgroups of v whose refaults or pressure pass cfg's cgroup
 * thresholds (tw_observe calls it; observe_cgroup.c). */
int tw_observe_cgroups(const struct tw_judge_config *cfg, const struct tw_view *v,
    unsigned window_s, tw_observe_fn fn, void *ctx);

/* The rule of sym to advise on os, with lookup's values: the first with
 * something to change, else the first that names a tunable there. Returns
 * TW_OK with *s filled, or TW_E_ABSENT. */
int tw_observe_pick(enum tw_symptom sym, enum tw_os os, tw_advice_lookup_fn lookup, void *ctx,
    struct tw_suggestion *s);

#endif
