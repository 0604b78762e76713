/* SPDX-License-Identifier: ISC */
/* A cgroup's finding. tunewatchd publishes it and
 * check_bufcache --cgroup prints it, so both take symptom, subject,
 * owner, tunable and lines from here and give one id.
 *
 * The lines follow who owns the cgroup, told by where it sits and never
 * by its name (collect/cgroupowner.h): a delegated user may call a
 * cgroup of theirs "system.slice", and a systemctl line for it would set
 * the real system.slice to a value that user chose. A unit's manager
 * sets its unit's limit, so the line is the manager's command; a plain
 * cgroup's limit is its file, which lasts as long as the cgroup. */
#include "config.h"

#include "finding/judge.h"

#include <stdio.h>
#include <string.h>

#include "collect/cgroupread.h"
#include "util/error.h"
#include "util/escape.h"

#define UNSAFE "none: the unit, property or value holds characters unsafe in a command"
#define UNSAFE_PATH "none: the cgroup's path holds characters unsafe in a command (only " \
	"letters, digits and /._-:@+ are written into one)"
#define NO_FILE "none: a scope is made at run time and has no unit file to add to"
#define USER_V1 "none: on cgroup v1 systemd gives a user's manager no memory controller " \
	"(only its own name=systemd hierarchy), so a property set there never reaches " \
	"memory.limit_in_bytes; whoever set this limit by hand raises it"
#define NOTHING_PERSISTS "none: nothing keeps a plain cgroup's limit; it lives as long as " \
	"the cgroup, and whoever made the cgroup (a container runtime, the service or user " \
	"it is delegated to) sets it again when they make it"

/* The unit's name as systemd knows it: the view has it shown
 * (util/escape.h), where systemd's own "\x2d" reads "\x5cx2d". A name
 * that does not read back whole is refused like any unsafe one. */
static int
raw_unit(char *buf, size_t cap, const char *shown)
{
	size_t n;
	int err = tw_unescape(buf, cap, shown, &n);

	if (err == TW_OK && n != strlen(buf))
		err = TW_E_INVAL;	/* a NUL would cut the name short */
	return err;
}

/* The record's cgroup version, 0 where it is neither 1 nor 2. */
static int
version(const struct tw_advice_cgroup_evidence *e)
{
	return e->rec->version == 1 || e->rec->version == 2 ? (int)e->rec->version : 0;
}

static void
system_unit_lines(const struct tw_advice_cgroup_evidence *e, struct tw_finding *t)
{
	char unit[TW_CG_UNIT_LEN];
	int err = raw_unit(unit, sizeof(unit), e->owner.unit);

	if (err == TW_OK)
		err = tw_ticket_apply_unit(t->apply, sizeof(t->apply), unit, t->tunable,
		    t->suggested);
	if (err != TW_OK) {
		t->no_apply = UNSAFE;
		return;
	}
	err = tw_ticket_persist_unit(t->persist, sizeof(t->persist), unit, t->tunable,
	    t->suggested);
	if (err == TW_E_ABSENT)
		t->no_persist = NO_FILE;
	else if (err != TW_OK)
		t->no_persist = UNSAFE;
}

static void
user_unit_lines(const struct tw_advice_cgroup_evidence *e, struct tw_finding *t)
{
	char unit[TW_CG_UNIT_LEN];
	int err;

	if (e->rec->version == 1) {
		t->no_apply = t->no_persist = USER_V1;
		return;
	}
	err = raw_unit(unit, sizeof(unit), e->owner.unit);
	if (err == TW_OK)
		err = tw_ticket_apply_user_unit(t->apply, sizeof(t->apply), e->owner.uid, unit,
		    t->tunable, t->suggested);
	if (err != TW_OK) {
		t->no_apply = UNSAFE;
		return;
	}
	err = tw_ticket_persist_user_unit(t->persist, sizeof(t->persist), e->owner.uid,
	    unit, t->tunable, t->suggested);
	if (err == TW_E_ABSENT)
		t->no_persist = NO_FILE;
	else if (err != TW_OK)
		t->no_persist = UNSAFE;
}

static void
plain_cgroup_lines(const struct tw_advice_cgroup_evidence *e, struct tw_finding *t,
    uint64_t bytes)
{
	t->no_persist = NOTHING_PERSISTS;
	if (tw_ticket_apply_cgroup_file(t->apply, sizeof(t->apply), version(e), e->rec->path,
	    e->rec->limit_name, bytes) != TW_OK)
		t->no_apply = UNSAFE_PATH;
}

/* The manual a limit of e's cgroup is set by. */
static const char *
documentation(const struct tw_advice_cgroup_evidence *e)
{
	if (tw_judge_cgroup_unit(e->rec->path) != NULL)
		return "systemd.resource-control(5)";
	return e->rec->version == 1 ? "Documentation/admin-guide/cgroup-v1/memory.rst" :
	    "Documentation/admin-guide/cgroup-v2.rst";
}

void
tw_judge_cgroup_finding(const struct tw_advice_cgroup_evidence *e, struct tw_finding *t)
{
	uint64_t bytes = 0;

	memset(t, 0, sizeof(*t));
	/* Always fits: a path is at most 255 bytes (TW_CG_PATH_LEN). */
	(void)tw_ticket_subject_cgroup(t->subject, sizeof(t->subject), version(e), e->rec->path);
	tw_cgroup_owner_text(&e->owner, t->owner, sizeof(t->owner));
	t->sym = tw_advice_cgroup_bounded(e) ? TW_SYM_CGROUP_CACHE_BOUNDED :
	    TW_SYM_LOW_HIT_REFAULTS;
	if (tw_advice_cgroup_knob(e, t->tunable, sizeof(t->tunable), t->current, t->suggested,
	    sizeof(t->current), &bytes) != TW_OK) {
		t->tunable[0] = t->current[0] = t->suggested[0] = '\0';
	}
	tw_ticket_id(t->id, t->sym, t->subject, t->tunable);
	if (t->tunable[0] != '\0')
		snprintf(t->documentation, sizeof(t->documentation), "%s", documentation(e));
	if (t->suggested[0] == '\0')
		return;
	t->actionable = 1;
	if (e->owner.kind == TW_CG_OWNER_SYSTEM_UNIT)
		system_unit_lines(e, t);
	else if (e->owner.kind == TW_CG_OWNER_USER_UNIT)
		user_unit_lines(e, t);
	else
		plain_cgroup_lines(e, t, bytes);
}
