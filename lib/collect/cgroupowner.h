/* SPDX-License-Identifier: ISC */
/* Who owns a cgroup, told by where it sits, never by what it is called.
 *
 * A delegated user may name a cgroup anything, "system.slice" or
 * "sshd.service" included, so a name that ends in ".service" says
 * nothing. What systemd says is its layout (systemd.slice(5),
 * systemd.unit(5), user@.service(5)): the root of the hierarchy is the
 * slice "-.slice"; a slice "a-b.slice" sits in "a.slice", and a slice
 * without a '-' ("system.slice", "user.slice", "machine.slice") at the
 * root; a unit with a cgroup (service, scope, socket, mount, swap)
 * sits directly in its slice. A path from the root that is such a chain
 * of slices ending in a unit (or a slice) is that unit's own cgroup, and
 * systemd, which made it, sets its limits.
 *
 * The user manager of user UID runs as the system unit user@UID.service
 * in user-UID.slice in user.slice (the two UIDs the same), and lays the
 * same tree out below its own cgroup, its own "-.slice": a chain there is
 * a unit of that user's manager.
 *
 * Anything else is a plain cgroup: made by whoever owns its parent (a
 * container runtime, the service or user it is delegated to, root by
 * hand), which also sets its limit. On cgroup v1 each controller's
 * hierarchy has the same layout; the path is the one below the
 * hierarchy's root.
 *
 * systemd does not promise this layout (docs/CGROUP_DELEGATION.md: the
 * mapping is no public API; D-Bus's GetUnitByControlGroup is), and
 * tunewatch speaks no D-Bus: where systemd lays a unit out otherwise, its
 * cgroup is taken for a plain one, whose ticket writes only its own file,
 * never a command for another unit. */
#ifndef TW_COLLECT_CGROUPOWNER_H
#define TW_COLLECT_CGROUPOWNER_H

#include <stddef.h>
#include <stdint.h>

/* The values of twCgroupOwnerKind. */
enum tw_cg_owner_kind {
	TW_CG_OWNER_NONE = 0,		/* only in tw_cg_owner.below_kind */
	TW_CG_OWNER_SYSTEM_UNIT = 1,	/* the system manager's unit */
	TW_CG_OWNER_USER_UNIT = 2,	/* a unit of user uid's manager */
	TW_CG_OWNER_CGROUP = 3,		/* no unit's own */
};

/* systemd's UNIT_NAME_MAX less its NUL: no unit name is longer. */
#define TW_CG_UNIT_NAME_MAX 255

struct tw_cg_owner {
	enum tw_cg_owner_kind kind;
	/* A unit's own cgroup: the unit, the path's last component (or
	 * "-.slice" for the root); NULL for a plain cgroup. */
	const char *unit;
	uint32_t uid;			/* USER_UNIT: the user's */
	/* A plain cgroup below a unit's own (a service's delegated tree, a
	 * container's scope): that unit's kind, name (in the path, below_len
	 * bytes, not NUL-terminated) and uid; TW_CG_OWNER_NONE when it is
	 * below none. */
	enum tw_cg_owner_kind below_kind;
	const char *below;
	size_t below_len;
	uint32_t below_uid;
};

/* Classify path ("/system.slice/nginx.service", below the hierarchy's
 * root; "/" is the root) into *o; the pointers in *o point into path (or
 * at a constant). A NULL or empty path, or one that does not start with
 * '/', is a plain cgroup below none. */
void tw_cgroup_owner(const char *path, struct tw_cg_owner *o);

/* The unit whose own cgroup path is, into unit (len bytes with its NUL);
 * "" for a plain cgroup, and for a name that does not fit: none rather
 * than half a name. */
void tw_cgroup_unit(const char *path, char *unit, size_t len);

/* The owner in words, as the ticket's "owner:" line says it:
 *   "system unit nginx.service"
 *   "unit web.service of user 1000's manager (user@1000.service)"
 *   "plain cgroup, no systemd unit's own: not where systemd puts a unit"
 *   "plain cgroup below system unit nginx.service, no systemd unit's own"
 * Cut to len (with its NUL) when longer. */
void tw_cgroup_owner_text(const struct tw_cg_owner *o, char *buf, size_t len);

/* The name a check prints for the cgroup and labels its perfdata with: a
 * system unit's name; "web.service of user 1000" for a user's unit (two
 * users' units of one name are two services); the path otherwise. */
void tw_cgroup_owner_name(const struct tw_cg_owner *o, const char *path, char *buf, size_t len);

#endif
