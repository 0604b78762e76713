/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/collect/cgroupowner.c: a cgroup is a unit's own only
 * where systemd would put that unit, as a delegated user who names their
 * cgroups would try it: system slices and units in them, nested slices in
 * the right and the wrong parent, the root's "-.slice", a user's manager
 * and its units with matching and mismatched UIDs, look-alikes below a
 * directory of the user's own, and the names the ticket prints. */
#include <stdint.h>

#include "collect/cgroupowner.h"
#include "tw_check.h"

#define SYSTEM TW_CG_OWNER_SYSTEM_UNIT
#define USER TW_CG_OWNER_USER_UNIT
#define PLAIN TW_CG_OWNER_CGROUP
#define NONE TW_CG_OWNER_NONE

struct owner_case {
	const char *path;
	enum tw_cg_owner_kind kind;
	const char *unit;		/* NULL for a plain cgroup */
	uint32_t uid;
	enum tw_cg_owner_kind below_kind;
	const char *below;		/* NULL for none */
};

static void
check_cases(const struct owner_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct owner_case *c = &cases[i];
		struct tw_cg_owner o;

		tw_cgroup_owner(c->path, &o);
		ck_assert_msg(o.kind == c->kind, "%s: kind %d, want %d", c->path, o.kind, c->kind);
		if (c->unit == NULL)
			ck_assert_msg(o.unit == NULL, "%s: unit %s", c->path, o.unit);
		else
			ck_assert_msg(o.unit != NULL && strcmp(o.unit, c->unit) == 0,
			    "%s: unit %s, want %s", c->path, o.unit != NULL ? o.unit : "(none)",
			    c->unit);
		ck_assert_msg(o.uid == c->uid, "%s: uid %u", c->path, (unsigned)o.uid);
		ck_assert_msg(o.below_kind == c->below_kind, "%s: below kind %d", c->path,
		    o.below_kind);
		if (c->below == NULL)
			ck_assert_msg(o.below == NULL && o.below_len == 0, "%s: below %.*s", c->path,
			    (int)o.below_len, o.below);
		else
			ck_assert_msg(o.below != NULL && o.below_len == strlen(c->below) &&
			    memcmp(o.below, c->below, o.below_len) == 0, "%s: below %.*s, want %s",
			    c->path, (int)o.below_len, o.below != NULL ? o.below : "", c->below);
	}
}

/* Where systemd puts system units: a chain of slices from the root, then
 * the unit; "a-b.slice" only inside "a.slice". */
START_TEST(test_system_slices)
{
	static const struct owner_case cases[] = {
		{ "/", SYSTEM, "-.slice", 0, NONE, NULL },
		{ "/system.slice", SYSTEM, "system.slice", 0, NONE, NULL },
		{ "/user.slice", SYSTEM, "user.slice", 0, NONE, NULL },
		{ "/machine.slice", SYSTEM, "machine.slice", 0, NONE, NULL },
		{ "/system.slice/nginx.service", SYSTEM, "nginx.service", 0, NONE, NULL },
		{ "/system.slice/getty@tty1.service", SYSTEM, "getty@tty1.service", 0, NONE, NULL },
		/* Paths are shown (util/escape.h): systemd's "\x2d" is "\x5cx2d". */
		{ "/system.slice/my\\x5cx2dapp.service", SYSTEM, "my\\x5cx2dapp.service", 0, NONE,
		  NULL },
		{ "/system.slice/systemd-journald.socket", SYSTEM, "systemd-journald.socket", 0,
		  NONE, NULL },
		{ "/system.slice/boot.mount", SYSTEM, "boot.mount", 0, NONE, NULL },
		{ "/system.slice/dev-vda2.swap", SYSTEM, "dev-vda2.swap", 0, NONE, NULL },
		{ "/init.scope", SYSTEM, "init.scope", 0, NONE, NULL },
		/* A service of Slice=-.slice sits at the root. */
		{ "/tw-cgtest-1.service", SYSTEM, "tw-cgtest-1.service", 0, NONE, NULL },
		{ "/machine.slice/machine-qemu\\x5cx2d1.scope", SYSTEM,
		  "machine-qemu\\x5cx2d1.scope", 0, NONE, NULL },
		/* Nested slices, each in the parent its name says. */
		{ "/a.slice/a-b.slice", SYSTEM, "a-b.slice", 0, NONE, NULL },
		{ "/a.slice/a-b.slice/a-b-c.slice/x.service", SYSTEM, "x.service", 0, NONE, NULL },
		{ "/system.slice/system-getty.slice/getty@tty1.service", SYSTEM, "getty@tty1.service",
		  0, NONE, NULL },
		{ "/user.slice/user-1000.slice", SYSTEM, "user-1000.slice", 0, NONE, NULL },
		{ "/user.slice/user-1000.slice/session-2.scope", SYSTEM, "session-2.scope", 0, NONE,
		  NULL },
		/* A unit with a '-' in its name is no slice: it sits in any. */
		{ "/system.slice/php7.4-fpm.service", SYSTEM, "php7.4-fpm.service", 0, NONE, NULL },
	};

	check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}
END_TEST

/* Slices in the wrong place, slice names systemd never makes, and units
 * systemd would not put where they are. */
START_TEST(test_slices_wrong)
{
	static const struct owner_case cases[] = {
		/* a-b.slice belongs in a.slice, not at the root or in another. */
		{ "/a-b.slice", PLAIN, NULL, 0, NONE, NULL },
		/* A shown escape other than the backslash's is a byte no
		 * unit's name holds (a control byte, 0xff), or no shown form
		 * at all ("\x2d" is never written for a '-'). */
		{ "/system.slice/a\\x01b.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/a\\xffb.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/my\\x2dapp.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/my\\napp.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/a\\x5.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/b.slice/a-b.slice", PLAIN, NULL, 0, NONE, NULL },
		{ "/a.slice/a-b-c.slice", PLAIN, NULL, 0, NONE, NULL },
		{ "/a.slice/b.slice", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/system.slice", PLAIN, NULL, 0, NONE, NULL },
		{ "/a.slice/a-b.slice/a-c.slice", PLAIN, NULL, 0, NONE, NULL },
		/* The root slice has no directory; dashes lead, trail or double. */
		{ "/-.slice", PLAIN, NULL, 0, NONE, NULL },
		{ "/-.slice/nginx.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/-a.slice", PLAIN, NULL, 0, NONE, NULL },
		{ "/a-.slice", PLAIN, NULL, 0, NONE, NULL },
		{ "/a.slice/a--b.slice", PLAIN, NULL, 0, NONE, NULL },
		{ "/.slice", PLAIN, NULL, 0, NONE, NULL },
		{ "/web@1.slice", PLAIN, NULL, 0, NONE, NULL },
		/* Not a unit's name at all, or a type without a cgroup. */
		{ "/system.slice/nginx", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/getty@.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/@tty1.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/a@b@c.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/multi-user.target", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/my app.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/a;reboot.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/x.service\n", PLAIN, NULL, 0, NONE, NULL },
		{ "/docker/0123abcd", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice//nginx.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/", PLAIN, NULL, 0, NONE, NULL },
		{ "system.slice/nginx.service", PLAIN, NULL, 0, NONE, NULL },
		{ "", PLAIN, NULL, 0, NONE, NULL },
		/* Below a unit's own: made by what the unit runs. */
		{ "/system.slice/nginx.service/workers", PLAIN, NULL, 0, SYSTEM, "nginx.service" },
		{ "/system.slice/nginx.service/system.slice", PLAIN, NULL, 0, SYSTEM,
		  "nginx.service" },
		{ "/system.slice/docker-4f1c.scope/app", PLAIN, NULL, 0, SYSTEM, "docker-4f1c.scope" },
		{ "/system.slice/nginx.service/a/sshd.service", PLAIN, NULL, 0, SYSTEM,
		  "nginx.service" },
	};
	char too_long[300];

	check_cases(cases, sizeof(cases) / sizeof(cases[0]));
	{
		struct tw_cg_owner o;

		/* A NULL path is a plain cgroup below none. */
		tw_cgroup_owner(NULL, &o);
		ck_assert_int_eq(o.kind, PLAIN);
		/* A unit's name is at most 255 bytes. */
		memset(too_long, 'a', sizeof(too_long));
		memcpy(too_long, "/system.slice/", 14);
		strcpy(too_long + 14 + 250, ".service");
		tw_cgroup_owner(too_long, &o);
		ck_assert_int_eq(o.kind, PLAIN);
		strcpy(too_long + 14 + 240, ".service");
		tw_cgroup_owner(too_long, &o);
		ck_assert_int_eq(o.kind, SYSTEM);
	}
}
END_TEST

/* A user's manager runs as user@UID.service in user-UID.slice, and its
 * units are that user's; any other UID pairing is no one's. */
START_TEST(test_user_manager)
{
	static const struct owner_case cases[] = {
		{ "/user.slice/user-1000.slice/user@1000.service", SYSTEM, "user@1000.service", 0,
		  NONE, NULL },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice", USER, "app.slice",
		  1000, NONE, NULL },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/web.service", USER,
		  "web.service", 1000, NONE, NULL },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/sshd.service", USER,
		  "sshd.service", 1000, NONE, NULL },
		{ "/user.slice/user-1000.slice/user@1000.service/init.scope", USER, "init.scope",
		  1000, NONE, NULL },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome.slice/x.scope",
		  USER, "x.scope", 1000, NONE, NULL },
		{ "/user.slice/user-0.slice/user@0.service/app.slice/x.service", USER, "x.service",
		  0, NONE, NULL },
		{ "/user.slice/user-4294967294.slice/user@4294967294.service/x.service", USER,
		  "x.service", 4294967294u, NONE, NULL },
		/* The user's tree has slices of its own, in their parents. */
		{ "/user.slice/user-1000.slice/user@1000.service/app-b.slice", PLAIN, NULL, 0, SYSTEM,
		  "user@1000.service" },
		{ "/user.slice/user-1000.slice/user@1000.service/junk/x.service", PLAIN, NULL, 0,
		  SYSTEM, "user@1000.service" },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/web.service/x", PLAIN, NULL,
		  0, USER, "web.service" },
		/* The two UIDs disagree, or are not as systemd writes them. */
		{ "/user.slice/user-1000.slice/user@1001.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/user.slice/user-1000.slice/user@1001.service/app.slice/sshd.service", PLAIN,
		  NULL, 0, NONE, NULL },
		{ "/user.slice/user-1000.slice/user@01000.service/x.service", PLAIN, NULL, 0, NONE,
		  NULL },
		{ "/user.slice/user-01000.slice/user@1000.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/user.slice/user-4294967295.slice/user@4294967295.service", PLAIN, NULL, 0, NONE,
		  NULL },
		{ "/user.slice/user-x.slice/user@x.service", PLAIN, NULL, 0, NONE, NULL },
		/* A user's manager anywhere but its own user slice. */
		{ "/system.slice/user@1000.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/user.slice/user@1000.service/app.slice/x.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/user@1000.service", PLAIN, NULL, 0, NONE, NULL },
		/* user-N.slice belongs in user.slice. */
		{ "/user-1000.slice/user@1000.service/x.service", PLAIN, NULL, 0, NONE, NULL },
	};

	check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}
END_TEST

/* What an attacker tries: a delegated directory of the user's own
 * (/twhostile) with systemd's names inside it. On cgroup v1 the path is
 * the one below the controller's mount, so one rule serves v1 and v2. */
START_TEST(test_hostile_look_alikes)
{
	static const struct owner_case cases[] = {
		{ "/twhostile/system.slice", PLAIN, NULL, 0, NONE, NULL },
		{ "/twhostile/web.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/twvictim/web.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/twhostile/user@1000.service/app.slice/sshd.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/twhostile/user.slice/user-0.slice/user@0.service/x.service", PLAIN, NULL, 0, NONE,
		  NULL },
		{ "/twhostile/-.slice", PLAIN, NULL, 0, NONE, NULL },
		{ "/twhostile.service/system.slice", PLAIN, NULL, 0, SYSTEM, "twhostile.service" },
		{ "/system.slice/twhostile/sshd.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice.d/sshd.service", PLAIN, NULL, 0, NONE, NULL },
		{ "/system.slice/sshd.service.d", PLAIN, NULL, 0, NONE, NULL },
	};
	struct tw_cg_owner o;

	check_cases(cases, sizeof(cases) / sizeof(cases[0]));
	/* The unit the ticket would name for the real one is the same as for
	 * a cgroup of the path below it: none. */
	tw_cgroup_owner("/twhostile/system.slice", &o);
	ck_assert_ptr_null(o.unit);
}
END_TEST

START_TEST(test_unit_copy)
{
	char unit[TW_CG_UNIT_NAME_MAX + 1], tiny[8];

	tw_cgroup_unit("/system.slice/nginx.service", unit, sizeof(unit));
	ck_assert_str_eq(unit, "nginx.service");
	tw_cgroup_unit("/", unit, sizeof(unit));
	ck_assert_str_eq(unit, "-.slice");
	tw_cgroup_unit("/system.slice/nginx.service/workers", unit, sizeof(unit));
	ck_assert_str_eq(unit, "");
	tw_cgroup_unit("/twhostile/system.slice", unit, sizeof(unit));
	ck_assert_str_eq(unit, "");
	tw_cgroup_unit("/user.slice/user-1000.slice/user@1000.service/app.slice/web.service", unit,
	    sizeof(unit));
	ck_assert_str_eq(unit, "web.service");
	/* Too long for the buffer: none rather than half a name. */
	tw_cgroup_unit("/system.slice/nginx.service", tiny, sizeof(tiny));
	ck_assert_str_eq(tiny, "");
}
END_TEST

/* The owner line and the name, for each kind. */
START_TEST(test_words)
{
	static const struct {
		const char *path, *text, *name;
	} cases[] = {
		{ "/system.slice/nginx.service", "system unit nginx.service", "nginx.service" },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/web.service",
		  "unit web.service of user 1000's manager (user@1000.service)",
		  "web.service of user 1000" },
		{ "/twhostile/web.service",
		  "plain cgroup, no systemd unit's own: not where systemd puts a unit",
		  "/twhostile/web.service" },
		{ "/system.slice/nginx.service/workers",
		  "plain cgroup below system unit nginx.service, no systemd unit's own",
		  "/system.slice/nginx.service/workers" },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/web.service/x",
		  "plain cgroup below unit web.service of user 1000's manager, no systemd unit's own",
		  "/user.slice/user-1000.slice/user@1000.service/app.slice/web.service/x" },
	};
	char buf[256], small[12];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tw_cg_owner o;

		tw_cgroup_owner(cases[i].path, &o);
		tw_cgroup_owner_text(&o, buf, sizeof(buf));
		ck_assert_str_eq(buf, cases[i].text);
		tw_cgroup_owner_name(&o, cases[i].path, buf, sizeof(buf));
		ck_assert_str_eq(buf, cases[i].name);
	}
	{
		struct tw_cg_owner o;

		tw_cgroup_owner("/system.slice/nginx.service", &o);
		tw_cgroup_owner_text(&o, small, sizeof(small));
		ck_assert_uint_eq(strlen(small), sizeof(small) - 1);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cgroup_owner");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_system_slices);
	tcase_add_test(tc, test_slices_wrong);
	tcase_add_test(tc, test_user_manager);
	tcase_add_test(tc, test_hostile_look_alikes);
	tcase_add_test(tc, test_unit_copy);
	tcase_add_test(tc, test_words);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
