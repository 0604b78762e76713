/* tunewatchd.conf's tokens for findings and notifications.
 *
 *   findings                 yes|no   judge and publish findings (yes)
 *   findingRaiseAfter        N        samples with a symptom to raise it (3)
 *   findingClearAfter        N        samples without it to clear it (3)
 *   notificationsPerMinute   N        the limit of notifications (60; 0: the
 *                                     ceiling, 600)
 *   hitRatioWarning RANGE ... minOps N  the checks' thresholds (findconf.c)
 *
 * Thresholds are in the checks' range syntax, with the checks' defaults
 * when unset. A bad value is reported with its file and line through
 * Net-SNMP's config_perror, and the token is ignored. */
#ifndef TW_AGENT_FINDCONF_H
#define TW_AGENT_FINDCONF_H

#include "finding/judge.h"

#define TW_DEFAULT_NOTIFICATIONS_PER_MINUTE 60

struct tw_finding_options {
	int off;			/* findings no */
	unsigned raise_after, clear_after;
	unsigned per_minute;
	struct tw_judge_config judge;
};

/* Set the defaults and register the tokens; call before init_snmp(). */
void tw_findconf_register(struct tw_finding_options *o);

#endif
