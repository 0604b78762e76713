#include "config.h"

#include "collect/cgroupowner.h"

#include <stdio.h>
#include <string.h>

#define ROOT_SLICE "-.slice"
#define SLICE ".slice"
#define SLICE_LEN 6

/* The unit types that have a cgroup of their own, slices aside
 * (systemd.resource-control(5)). */
static const char *const cgroup_types[] = { ".service", ".scope", ".socket", ".mount", ".swap" };

enum component {
	COMPONENT_OTHER,	/* no unit's name: a plain cgroup */
	COMPONENT_SLICE,
	COMPONENT_UNIT,		/* a unit of another type with a cgroup */
};

/* systemd.unit(5): a unit's name holds letters, digits and ":-_.\"; the
 * backslash, which begins systemd's own escapes ("\x2d"), is "\x5c" in
 * the shown paths read here (valid_prefix). */
static int
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    (c != '\0' && strchr(":-_.", c) != NULL);
}

/* A name's part before its type suffix, n bytes: name characters, and
 * with instance, one '@' between a template's name and an instance, both
 * there ("getty@tty1"; "getty@" is a template, which runs nothing). */
static int
valid_prefix(const char *s, size_t n, int instance)
{
	size_t i, at = n;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] == '@') {
			if (!instance || at != n)
				return 0;
			at = i;
		} else if (s[i] == '\\') {
			/* Paths come shown (util/escape.h): a backslash of the
			 * name is "\x5c"; any other escape stands for a byte
			 * no unit's name holds. */
			if (n - i < 4 || memcmp(s + i, "\\x5c", 4) != 0)
				return 0;
			i += 3;
		} else if (!name_char(s[i])) {
			return 0;
		}
	}
	return at == n || (at > 0 && at + 1 < n);
}

/* A slice's name before ".slice": its '-' separate its parents' names,
 * so none leads, trails or follows another ("-.slice" is the root's, and
 * no directory has it). */
static int
valid_slice(const char *s, size_t n)
{
	size_t i;

	if (!valid_prefix(s, n, 0) || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (i = 1; i < n; i++)
		if (s[i] == '-' && s[i - 1] == '-')
			return 0;
	return 1;
}

static int
ends_with(const char *s, size_t n, const char *suffix, size_t k)
{
	return n > k && memcmp(s + n - k, suffix, k) == 0;
}

static enum component
component(const char *s, size_t n)
{
	size_t i, k;

	if (n > TW_CG_UNIT_NAME_MAX)
		return COMPONENT_OTHER;
	if (ends_with(s, n, SLICE, SLICE_LEN))
		return valid_slice(s, n - SLICE_LEN) ? COMPONENT_SLICE : COMPONENT_OTHER;
	for (i = 0; i < sizeof(cgroup_types) / sizeof(cgroup_types[0]); i++) {
		k = strlen(cgroup_types[i]);
		if (ends_with(s, n, cgroup_types[i], k))
			return valid_prefix(s, n - k, 1) ? COMPONENT_UNIT : COMPONENT_OTHER;
	}
	return COMPONENT_OTHER;
}

/* Whether slice s (n bytes, ".slice" included) is where systemd puts it:
 * "a-b-c.slice" in "a-b.slice", "a.slice" in the root (plen 0). */
static int
in_parent(const char *s, size_t n, const char *parent, size_t plen)
{
	size_t dash = n - SLICE_LEN;

	while (dash > 0 && s[dash - 1] != '-')
		dash--;
	if (dash == 0)
		return plen == 0;
	dash--;
	return plen == dash + SLICE_LEN && memcmp(parent, s, dash) == 0 &&
	    memcmp(parent + dash, SLICE, SLICE_LEN) == 0;
}

/* A UID as systemd writes it into user-UID.slice and user@UID.service:
 * decimal, no leading zero, below (uid_t)-1, which is no user. */
static int
parse_uid(const char *s, size_t n, uint32_t *uid)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0 || n > 10 || (s[0] == '0' && n > 1))
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v >= UINT32_MAX)
		return 0;
	*uid = (uint32_t)v;
	return 1;
}

/* "user@...service": a user's manager, as user@.service(5) names it,
 * whose instance must then be a UID. */
static int
user_manager(const char *s, size_t n)
{
	return n > 13 && memcmp(s, "user@", 5) == 0 && ends_with(s, n, ".service", 8);
}

/* Whether the slice parent (plen bytes) is user-UID.slice of this uid:
 * user@.service has Slice=user-%i.slice, and nowhere else runs it. */
static int
users_slice(const char *parent, size_t plen, uint32_t uid)
{
	uint32_t got;

	return plen > 11 && memcmp(parent, "user-", 5) == 0 &&
	    parse_uid(parent + 5, plen - 11, &got) && got == uid;
}

static void
below(struct tw_cg_owner *o, enum tw_cg_owner_kind kind, const char *name, size_t n,
    uint32_t uid)
{
	o->below_kind = kind;
	o->below = name;
	o->below_len = n;
	o->below_uid = uid;
}

void
tw_cgroup_owner(const char *path, struct tw_cg_owner *o)
{
	enum tw_cg_owner_kind tree = TW_CG_OWNER_SYSTEM_UNIT;
	const char *p, *end, *parent = NULL;
	size_t n, plen = 0;
	uint32_t uid = 0, manager;

	memset(o, 0, sizeof(*o));
	o->kind = TW_CG_OWNER_CGROUP;
	if (path == NULL || path[0] != '/')
		return;
	if (path[1] == '\0') {
		o->kind = TW_CG_OWNER_SYSTEM_UNIT;
		o->unit = ROOT_SLICE;
		return;
	}
	/* Down the path, one component a step, each where systemd would put
	 * it: slices in their parents, then the unit. The first that is not
	 * makes the cgroup a plain one. */
	for (p = path + 1;; p = end + 1) {
		enum component c;

		end = strchr(p, '/');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		c = component(p, n);
		if (c == COMPONENT_OTHER)
			return;
		if (c == COMPONENT_SLICE) {
			if (!in_parent(p, n, parent, plen))
				return;
			parent = p;
			plen = n;
		} else if (tree == TW_CG_OWNER_SYSTEM_UNIT && user_manager(p, n)) {
			if (!parse_uid(p + 5, n - 13, &manager) || !users_slice(parent, plen, manager))
				return;
			if (end != NULL) {
				/* The user's manager's own tree, its "-.slice". */
				below(o, TW_CG_OWNER_SYSTEM_UNIT, p, n, 0);
				tree = TW_CG_OWNER_USER_UNIT;
				uid = manager;
				parent = NULL;
				plen = 0;
				continue;
			}
		} else if (end != NULL) {
			/* Below a unit's own cgroup: what the unit made. */
			below(o, tree, p, n, uid);
			return;
		}
		if (end == NULL)
			break;
	}
	o->kind = tree;
	o->unit = p;
	o->uid = uid;
	below(o, TW_CG_OWNER_NONE, NULL, 0, 0);
}

void
tw_cgroup_unit(const char *path, char *unit, size_t len)
{
	struct tw_cg_owner o;

	if (len == 0)
		return;
	unit[0] = '\0';
	tw_cgroup_owner(path, &o);
	if (o.unit != NULL && strlen(o.unit) < len)
		memcpy(unit, o.unit, strlen(o.unit) + 1);
}

void
tw_cgroup_owner_text(const struct tw_cg_owner *o, char *buf, size_t len)
{
	int n = (int)(o->below_len < TW_CG_UNIT_NAME_MAX ? o->below_len : TW_CG_UNIT_NAME_MAX);

	if (len == 0)
		return;
	if (o->kind == TW_CG_OWNER_SYSTEM_UNIT)
		snprintf(buf, len, "system unit %s", o->unit);
	else if (o->kind == TW_CG_OWNER_USER_UNIT)
		snprintf(buf, len, "unit %s of user %u's manager (user@%u.service)", o->unit,
		    (unsigned)o->uid, (unsigned)o->uid);
	else if (o->below_kind == TW_CG_OWNER_SYSTEM_UNIT)
		snprintf(buf, len, "plain cgroup below system unit %.*s, no systemd unit's own",
		    n, o->below);
	else if (o->below_kind == TW_CG_OWNER_USER_UNIT)
		snprintf(buf, len, "plain cgroup below unit %.*s of user %u's manager, no systemd "
		    "unit's own", n, o->below, (unsigned)o->below_uid);
	else
		snprintf(buf, len, "plain cgroup, no systemd unit's own: not where systemd puts a "
		    "unit");
}

void
tw_cgroup_owner_name(const struct tw_cg_owner *o, const char *path, char *buf, size_t len)
{
	if (len == 0)
		return;
	if (o->kind == TW_CG_OWNER_SYSTEM_UNIT)
		snprintf(buf, len, "%s", o->unit);
	else if (o->kind == TW_CG_OWNER_USER_UNIT)
		snprintf(buf, len, "%s of user %u", o->unit, (unsigned)o->uid);
	else
		snprintf(buf, len, "%s", path != NULL ? path : "");
}
