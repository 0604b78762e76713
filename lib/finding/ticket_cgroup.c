/* A cgroup's finding as a ticket. tunewatchd publishes it and
 * check_bufcache --cgroup prints it, so both take symptom, subject,
 * tunable and lines from here and give one id.
 *
 * Only a unit's own cgroup gets apply and persist lines: systemd owns its
 * limit and keeps a drop-in. A cgroup below a unit's, or a container's,
 * is owned by whatever made it; a write to its limit file would last as
 * long as the cgroup, and the next start of the container undoes it. */
#include "config.h"

#include "finding/judge.h"

#include <string.h>

#include "collect/cgroup.h"
#include "util/error.h"
#include "util/escape.h"

#define NOT_A_UNIT "none: not a systemd unit's own cgroup; what made it (a container " \
	"runtime, the service it is delegated to) sets its limit, and a write to the file " \
	"lasts only until that runs again"
#define UNSAFE "none: the unit, property or value holds characters unsafe in a command"
#define NO_FILE "none: a scope is made at run time and has no unit file to add to"

void
tw_judge_cgroup_ticket(const struct tw_cgroup_figures *f, struct tw_cgroup_ticket *t)
{
	const char *unit = f->unit != NULL && f->unit[0] != '\0' ? f->unit : NULL;
	char raw_unit[TW_CG_UNIT_LEN];
	size_t raw_len;
	int err;

	memset(t, 0, sizeof(*t));
	t->subject = unit != NULL ? unit : f->path;
	t->sym = tw_advice_cgroup_bounded(f) ? TW_SYM_CGROUP_CACHE_BOUNDED :
	    TW_SYM_LOW_HIT_REFAULTS;
	if (tw_advice_cgroup_knob(f, t->tunable, sizeof(t->tunable), t->current, t->suggested,
	    sizeof(t->current)) != TW_OK) {
		t->tunable[0] = t->current[0] = t->suggested[0] = '\0';
	}
	tw_ticket_id(t->id, t->sym, t->subject, t->tunable);
	if (t->suggested[0] == '\0')
		return;
	if (unit == NULL) {
		t->no_apply = NOT_A_UNIT;
		return;
	}
	/* The unit's name as systemd knows it: the view has it shown
	 * (util/escape.h), where systemd's own "\x2d" reads "\x5cx2d". A name
	 * that does not read back is refused like any unsafe one. */
	err = tw_unescape(raw_unit, sizeof(raw_unit), unit, &raw_len);
	if (err == TW_OK && raw_len != strlen(raw_unit))
		err = TW_E_INVAL;	/* a NUL would cut the name short */
	if (err == TW_OK)
		err = tw_ticket_apply_unit(t->apply, sizeof(t->apply), raw_unit, t->tunable,
		    t->suggested);
	if (err != TW_OK) {
		t->no_apply = UNSAFE;
		return;
	}
	err = tw_ticket_persist_unit(t->persist, sizeof(t->persist), raw_unit, t->tunable,
	    t->suggested);
	if (err == TW_E_ABSENT)
		t->no_persist = NO_FILE;
	else if (err != TW_OK)
		t->no_persist = UNSAFE;
}
