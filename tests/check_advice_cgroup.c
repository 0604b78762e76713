/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/advice/cgroup.c: a service whose cache is bounded by
 * its own limit is told the systemd property with its current value and
 * one sized from its working set, and no command: the commands are its ticket's, which agree with
 * the line for every kind of unit, safe or not; one that is not at
 * its limit, or has none, is told no tunable; the host's memory caps the
 * suggestion. */
#include "advice/cgroup.h"
#include "finding/judge.h"
#include "tw_check.h"
#include "util/error.h"

#define MIB (1024.0 * 1024.0)

/* nginx.service on v2, at its 64 MiB memory.high, 24 GiB host. */
static struct tw_cgroup_figures
nginx(void)
{
	struct tw_cgroup_figures f;

	memset(&f, 0, sizeof(f));
	f.path = "/system.slice/nginx.service";
	tw_cgroup_owner(f.path, &f.owner);
	f.version = 2;
	f.refaults = 42638;
	f.have_usage = 1;
	f.usage = 63.9 * MIB;
	f.have_limit = 1;
	f.limit = 64 * MIB;
	f.limit_name = "memory.high";
	f.mem_total = 24576 * MIB;
	f.window_s = 60;
	return f;
}

static const char *
advise(const struct tw_cgroup_figures *f, int want_tune)
{
	static char line[1024];
	int tune = -1;

	ck_assert_int_eq(tw_advice_cgroup(f, &tune, line, sizeof(line)), TW_OK);
	ck_assert_int_eq(tune, want_tune);
	return line;
}

START_TEST(test_service_at_high)
{
	struct tw_cgroup_figures f = nginx();

	ck_assert_str_eq(advise(&f, 1),
	    "nginx.service MemoryHigh=64M -> 1G (42638 refaults/s while memory.current 63.9 MiB "
	    "sits at memory.high 64 MiB, in the last 60 s; systemd.resource-control(5), "
	    "Documentation/admin-guide/cgroup-v2.rst)");
}
END_TEST

/* The limit proposed is what the cgroup holds plus what it read back in
 * the window, a quarter more, in whole MiB; between a quarter more than
 * the limit and 16 times it. */
START_TEST(test_sized_from_working_set)
{
	static const struct {
		double usage_mib, refaults;
		unsigned window_s;
		const char *want;
	} cases[] = {
		/* The first note's story: 62.5 MiB held, 136 MiB read back in a
		 * 10 s window (3481.6 pages/s): 198.5 * 1.25 = 248.1, 249M,
		 * where 256M fitted and the doubling's 128M bought nothing. */
		{ 62.5, 3481.6, 10, "MemoryHigh=64M -> 249M (" },
		/* 100 pages/s over 60 s is 23.44 MiB: (63.9 + 23.44) * 1.25 =
		 * 109.2, 110M. */
		{ 63.9, 100, 60, "MemoryHigh=64M -> 110M (" },
		/* Little read back: a quarter more than the limit, 80M. */
		{ 63.9, 1, 10, "MemoryHigh=64M -> 80M (" },
		/* Read back many times its limit: 16 times it. */
		{ 63.9, 42638, 60, "MemoryHigh=64M -> 1G (" },
		/* Without the usage, the limit stands for what it holds. */
		{ -1, 3481.6, 10, "MemoryHigh=64M -> 250M (" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tw_cgroup_figures f = nginx();
		const char *line;

		f.refaults = cases[i].refaults;
		f.window_s = cases[i].window_s;
		if (cases[i].usage_mib < 0)
			f.have_usage = 0, f.have_events = 1, f.events = 1;
		else
			f.usage = cases[i].usage_mib * MIB;
		line = advise(&f, 1);
		ck_assert_msg(strstr(line, cases[i].want) != NULL, "%zu: want %s in %s", i,
		    cases[i].want, line);
	}
}
END_TEST

START_TEST(test_property_follows_the_file)
{
	struct tw_cgroup_figures f = nginx();

	/* memory.max bounds it: MemoryMax=. */
	f.limit_name = "memory.max";
	f.path = "/batch.slice";
	tw_cgroup_owner(f.path, &f.owner);
	f.limit = 1536 * MIB;
	f.usage = 1500 * MIB;
	/* (1500 MiB + 42638 * 60 * 4 KiB) * 1.25 = 14366.9 MiB. */
	ck_assert_ptr_nonnull(strstr(advise(&f, 1), "batch.slice MemoryMax=1536M -> 14367M ("));

	/* v1: MemoryLimit= and the v1 document. */
	f = nginx();
	f.version = 1;
	f.limit_name = "memory.limit_in_bytes";
	ck_assert_ptr_nonnull(strstr(advise(&f, 1), "nginx.service MemoryLimit=64M -> 1G ("
	    "42638 refaults/s while memory.usage_in_bytes 63.9 MiB sits at "
	    "memory.limit_in_bytes 64 MiB"));
	ck_assert_ptr_nonnull(strstr(advise(&f, 1), "Documentation/admin-guide/cgroup-v1/memory.rst"));
}
END_TEST

START_TEST(test_no_unit_names_the_file)
{
	struct tw_cgroup_figures f = nginx();

	f.path = "/tw-test";
	tw_cgroup_owner(f.path, &f.owner);
	f.version = 1;
	f.limit_name = "memory.limit_in_bytes";
	ck_assert_str_eq(advise(&f, 1), "/tw-test memory.limit_in_bytes 64M -> 1G (42638 "
	    "refaults/s while memory.usage_in_bytes 63.9 MiB sits at memory.limit_in_bytes 64 MiB, "
	    "in the last 60 s; Documentation/admin-guide/cgroup-v1/memory.rst)");
}
END_TEST

/* The tune line and the ticket's apply line for the same cgroup: the line
 * names the knob and values the ticket proposes and no command of its own,
 * so an unsafe name reaches no shell through either. Who owns the cgroup
 * decides the command; a name that only looks like a unit's is none. */
START_TEST(test_tune_line_agrees_with_ticket)
{
	static const struct {
		const char *path, *name, *apply;
	} cases[] = {
		{ "/system.slice/nginx.service", "nginx.service",
		  "systemctl set-property --runtime nginx.service MemoryHigh=1G" },
		{ "/batch.slice", "batch.slice",
		  "systemctl set-property --runtime batch.slice MemoryHigh=1G" },
		{ "/system.slice/docker-0123.scope", "docker-0123.scope",
		  "systemctl set-property --runtime docker-0123.scope MemoryHigh=1G" },
		/* Paths come shown (util/escape.h): systemd's own "\x2d" is
		 * "\x5cx2d", and the command names the unit systemd knows. */
		{ "/system.slice/my\\x5cx2dapp.service", "my\\x5cx2dapp.service",
		  "systemctl set-property --runtime 'my\\x2dapp.service' MemoryHigh=1G" },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/web.service",
		  "web.service of user 1000",
		  "systemctl --user -M 1000@ set-property --runtime web.service MemoryHigh=1G" },
		{ "/tw-test", NULL, "echo 1073741824 > /sys/fs/cgroup/tw-test/memory.high" },
		{ "/twhostile/system.slice", NULL,
		  "echo 1073741824 > /sys/fs/cgroup/twhostile/system.slice/memory.high" },
		/* A unit's name systemd allows but a shell would not take whole. */
		{ "/system.slice/my\\x5cnapp.service", "my\\x5cnapp.service", NULL },
		/* No unit's name, and paths a shell would not take: raw control
		 * bytes, a NUL, and what is not a shown string. */
		{ "/system.slice/x\\x0areboot.service", NULL, NULL },
		{ "/system.slice/web.service\\x00.service", NULL, NULL },
		{ "/system.slice/my\\napp.service", NULL, NULL },
		/* No unit's name: plain cgroups whose paths are unsafe. */
		{ "/system.slice/evil;reboot.service", NULL, NULL },
		{ "/system.slice/$(reboot).service", NULL, NULL },
		{ "/system.slice/a b.service", NULL, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tw_cgroup_figures f = nginx();
		struct tw_finding t;
		const char *line;
		char knob[1024];

		f.path = cases[i].path;
		tw_cgroup_owner(f.path, &f.owner);
		line = advise(&f, 1);
		tw_judge_cgroup_finding(&f, &t);
		if (cases[i].name != NULL)
			snprintf(knob, sizeof(knob), "%s %s=%s -> %s (", cases[i].name, t.tunable,
			    t.current, t.suggested);
		else
			snprintf(knob, sizeof(knob), "%s %s %s -> %s (", f.path, t.tunable, t.current,
			    t.suggested);
		ck_assert_msg(strncmp(line, knob, strlen(knob)) == 0, "%s: %s", knob, line);
		ck_assert_msg(strstr(line, "systemctl") == NULL && strstr(line, "echo ") == NULL &&
		    strstr(line, "drop-in") == NULL, "a command in: %s", line);
		if (cases[i].apply != NULL) {
			ck_assert_str_eq(t.apply, cases[i].apply);
		} else {
			ck_assert_str_eq(t.apply, "");
			ck_assert_ptr_nonnull(t.no_apply);
			ck_assert_ptr_nonnull(strstr(t.no_apply, "unsafe"));
		}
	}
}
END_TEST

START_TEST(test_not_bounded)
{
	struct tw_cgroup_figures f = nginx();

	/* Well below its limit, no limit events: not the limit's doing. */
	f.usage = 20 * MIB;
	ck_assert_str_eq(advise(&f, 0), "nginx.service: 42638 refaults/s while memory.current 20 "
	    "MiB well below memory.high 64 MiB, in the last 60 s, so its own limit does not bound "
	    "its cache, the host's memory does (see the host's figures)");
	/* Limit events in the window say it is, whatever usage reads now. */
	f.have_events = 1;
	f.events = 3;
	ck_assert_ptr_nonnull(strstr(advise(&f, 1), "3 limit events/s"));

	f = nginx();
	f.have_limit = 0;
	ck_assert_str_eq(advise(&f, 0), "nginx.service refaults 42638 pages/s and has no memory "
	    "limit of its own: its cache is bounded by the host's memory, not by a setting of "
	    "the service (see the host's figures)");
}
END_TEST

START_TEST(test_host_memory_caps)
{
	struct tw_cgroup_figures f = nginx();

	/* Doubling 16 GiB on a 24 GiB host stops at 24 GiB... */
	f.limit = 16384 * MIB;
	f.usage = 16000 * MIB;
	ck_assert_ptr_nonnull(strstr(advise(&f, 1), "MemoryHigh=16G -> 24G ("));
	/* ...and a limit already there has nowhere to go. */
	f.limit = 24576 * MIB;
	f.usage = 24000 * MIB;
	ck_assert_ptr_nonnull(strstr(advise(&f, 0), "the limit is already the host's memory"));
}
END_TEST

START_TEST(test_sizes_and_bad_input)
{
	struct tw_cgroup_figures f = nginx();
	char buf[32], small[40];
	int tune = 1;

	tw_advice_systemd_size(128 * MIB, buf, sizeof(buf));
	ck_assert_str_eq(buf, "128M");
	tw_advice_systemd_size(2048 * MIB, buf, sizeof(buf));
	ck_assert_str_eq(buf, "2G");
	tw_advice_systemd_size(1536 * 1024.0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1536K");
	tw_advice_systemd_size(1000, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1000");
	/* Never half a line. */
	ck_assert_int_eq(tw_advice_cgroup(&f, &tune, small, sizeof(small)), TW_E_TOOBIG);
	ck_assert_str_eq(small, "");
	ck_assert_int_eq(tune, 0);
	f.path = NULL;
	ck_assert_int_eq(tw_advice_cgroup(&f, &tune, small, sizeof(small)), TW_E_INVAL);
}
END_TEST

static Suite *
advice_cgroup_suite(void)
{
	Suite *s = suite_create("advice_cgroup");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_service_at_high);
	tcase_add_test(tc, test_sized_from_working_set);
	tcase_add_test(tc, test_property_follows_the_file);
	tcase_add_test(tc, test_no_unit_names_the_file);
	tcase_add_test(tc, test_tune_line_agrees_with_ticket);
	tcase_add_test(tc, test_not_bounded);
	tcase_add_test(tc, test_host_memory_caps);
	tcase_add_test(tc, test_sizes_and_bad_input);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(advice_cgroup_suite());
}
