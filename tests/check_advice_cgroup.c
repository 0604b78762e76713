/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/advice/advice_cgroup.c: a service whose cache is bounded by
 * its own limit is told the systemd property with its current value and
 * one sized from its need (its memory besides the cache and the file set
 * it reads), the same at any window, and no command: the commands are its
 * ticket's, which agree with the line for every kind of unit, safe or
 * not; one that is not at its limit, or has none, or whose anonymous
 * memory squeezes a file set that fits, is told no tunable; the host's
 * memory caps the suggestion. */
#include "advice/advice_cgroup.h"
#include "finding/judge.h"
#include "tw_check.h"
#include "util/error.h"

#define MIB (1024.0 * 1024.0)

/* nginx.service on v2, at its 64 MiB memory.high, 55.4 MiB of it page
 * cache, reading a file set of 256 MiB; 24 GiB host: its record and the
 * evidence that reads it. */
struct nginx {
	struct tw_cgroup_record rec;
	struct tw_advice_cgroup_evidence e;
};

static void
nginx(struct nginx *n)
{
	tw_cgroup_record_init(&n->rec);
	n->rec.path = "/system.slice/nginx.service";
	n->rec.version = 2;
	n->rec.refaults_s = 42638;
	n->rec.memory_usage_bytes = 63.9 * MIB;
	n->rec.cache_bytes = 55.4 * MIB;
	n->rec.fileset_bytes = 256 * MIB;
	n->rec.memory_limit_bytes = 64 * MIB;
	n->rec.limit_name = "memory.high";
	tw_advice_cgroup_evidence_init(&n->e, &n->rec, 24576 * MIB, 60);
}

/* The same cgroup at path, and owned as that path says. */
static void
moved(struct nginx *n, const char *path)
{
	n->rec.path = path;
	tw_advice_cgroup_evidence_init(&n->e, &n->rec, n->e.mem_total_bytes, n->e.window_s);
}

static const char *
advise(const struct tw_advice_cgroup_evidence *e, int want_tune)
{
	static char line[1024];
	int tune = -1;

	ck_assert_int_eq(tw_advice_cgroup(e, &tune, line, sizeof(line)), TW_OK);
	ck_assert_int_eq(tune, want_tune);
	return line;
}

START_TEST(test_service_at_high)
{
	struct nginx f;

	nginx(&f);
	/* (8.5 + 256) * 1.25 = 330.6 MiB. */
	ck_assert_str_eq(advise(&f.e, 1),
	    "nginx.service MemoryHigh=64M -> 331M (42638 refaults/s while memory.current 63.9 MiB "
	    "sits at memory.high 64 MiB, in the last 60 s; it reads a file set of 256 MiB beside "
	    "8.5 MiB of other memory; systemd.resource-control(5), "
	    "Documentation/admin-guide/cgroup-v2.rst)");
}
END_TEST

/* The limit proposed is its memory besides the cache plus the file set
 * it reads, a quarter more, in whole MiB, between a quarter more than the
 * limit and 16 times it; the window's length changes nothing. Sets of 2,
 * 4 and 10 times the limit get 2.7, 5.2 and 12.7 times it: each a
 * quarter over what it holds and reads. */
START_TEST(test_sized_from_need)
{
	static const struct {
		double fileset_mib, cache_mib;
		const char *want;
	} cases[] = {
		{ 128, 55.4, "MemoryHigh=64M -> 171M (" },	/* (8.5 + 128) * 1.25 */
		{ 256, 55.4, "MemoryHigh=64M -> 331M (" },
		{ 640, 55.4, "MemoryHigh=64M -> 811M (" },	/* (8.5 + 640) * 1.25 */
		/* More cache charged than its open files hold, and those fit:
		 * they are not what it reads back (files read and closed),
		 * and what it read back in 10 s sizes it (42638 pages/s:
		 * past 16 times the limit). */
		{ 20, 55.4, "MemoryHigh=64M -> 1G (42638 refaults/s" },
		{ 20, 55.4, "s; sized from what it holds and read back in 10 s, 1729.4 MiB (the files "
		  "it holds open, 20 MiB, fit: an upper bound); systemd" },
		/* A set of twice the limit, but cached by another cgroup (read
		 * there first): the file set, not the cache, is the need. */
		{ 128, 10, "MemoryHigh=64M -> 228M (" },	/* (53.9 + 128) * 1.25 */
		/* A set past 16 times the limit: 16 times it. */
		{ 4096, 55.4, "MemoryHigh=64M -> 1G (" },
	};
	static const unsigned windows[] = { 10, 60, 300 };
	size_t i, w;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
			struct nginx f;
			const char *line;

			nginx(&f);
			f.rec.fileset_bytes = cases[i].fileset_mib * MIB;
			f.rec.cache_bytes = cases[i].cache_mib * MIB;
			f.e.window_s = windows[w];
			line = advise(&f.e, 1);
			ck_assert_msg(strstr(line, cases[i].want) != NULL, "%zu at %u s: want %s in %s",
			    i, windows[w], cases[i].want, line);
		}
	}
}
END_TEST

/* Without the file set (an agent that may not read the processes' files,
 * or an older one): what it holds plus what it read back in 10 s, the
 * same at any window. */
START_TEST(test_sized_without_file_set)
{
	static const struct {
		double usage_mib, refaults;
		const char *want;
	} cases[] = {
		/* The first note's story: 62.5 MiB held, 3481.6 pages/s is
		 * 136 MiB in 10 s: 198.5 * 1.25 = 248.1, 249M, where 208M
		 * fitted and the doubling's 128M bought nothing. */
		{ 62.5, 3481.6, "MemoryHigh=64M -> 249M (" },
		/* 100 pages/s is 3.9 MiB in 10 s: (63.9 + 3.9) * 1.25 = 84.8. */
		{ 63.9, 100, "MemoryHigh=64M -> 85M (" },
		/* Little read back: a quarter more than the limit, 80M. */
		{ 63.9, 1, "MemoryHigh=64M -> 80M (" },
		/* Read back many times its limit: 16 times it. */
		{ 63.9, 42638, "MemoryHigh=64M -> 1G (" },
		/* Without the usage, the limit stands for what it holds. */
		{ -1, 3481.6, "MemoryHigh=64M -> 250M (" },
	};
	static const unsigned windows[] = { 10, 60 };
	size_t i, w;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
			struct nginx f;
			const char *line;

			nginx(&f);
			f.rec.fileset_bytes = TW_FIG_NONE;
			f.rec.refaults_s = cases[i].refaults;
			f.e.window_s = windows[w];
			if (cases[i].usage_mib < 0)
				f.rec.memory_usage_bytes = TW_FIG_NONE, f.rec.limit_events_s = 1;
			else
				f.rec.memory_usage_bytes = cases[i].usage_mib * MIB;
			line = advise(&f.e, 1);
			ck_assert_msg(strstr(line, cases[i].want) != NULL, "%zu at %u s: want %s in %s",
			    i, windows[w], cases[i].want, line);
			ck_assert_ptr_nonnull(strstr(line, "(its file set unknown: an upper bound)"));
		}
	}
}
END_TEST

/* A leak: anonymous memory fills the limit and the files it reads fit
 * beside it. No bigger limit: it would be filled the same way. */
START_TEST(test_anonymous_squeeze)
{
	struct nginx f;
	struct tw_finding t;
	char name[64], cur[16], next[16];

	nginx(&f);
	f.rec.cache_bytes = 3.9 * MIB;
	f.rec.fileset_bytes = 2 * MIB;
	ck_assert_str_eq(advise(&f.e, 0), "nginx.service: 42638 refaults/s while memory.current "
	    "63.9 MiB sits at memory.high 64 MiB, in the last 60 s, with 60 MiB of it not page "
	    "cache, and the file set it reads (2 MiB) fits beside that within the limit: what it "
	    "allocates squeezes its cache, not its limit, and a larger limit would fill the same "
	    "way if that memory grows (find what does)");
	ck_assert_int_eq(tw_advice_cgroup_knob(&f.e, name, sizeof(name), cur, next, sizeof(cur),
	    NULL), TW_E_ABSENT);
	tw_judge_cgroup_finding(&f.e, &t);
	ck_assert_str_eq(t.tunable, "");
	ck_assert_str_eq(t.apply, "");
	/* A set that does not fit beside it: the limit is short. */
	f.rec.fileset_bytes = 30 * MIB;
	ck_assert_ptr_nonnull(strstr(advise(&f.e, 1), "MemoryHigh=64M -> 113M ("));
	/* Less than half the limit not cache: not squeezed; the open files
	 * do not explain what it reads back, which sizes it instead. */
	f.rec.fileset_bytes = 2 * MIB;
	f.rec.cache_bytes = 40 * MIB;
	ck_assert_ptr_nonnull(strstr(advise(&f.e, 1), "MemoryHigh=64M -> 1G ("));
	/* The file set unknown: nothing tells a leak, and the read-back
	 * sizes it. */
	f.rec.cache_bytes = 3.9 * MIB;
	f.rec.fileset_bytes = TW_FIG_NONE;
	ck_assert_ptr_nonnull(strstr(advise(&f.e, 1), "its file set unknown"));
}
END_TEST

/* A leak that rises: no bigger limit, whatever the file set says; a
 * heap that rose less than an eighth of the limit is sized as before. */
START_TEST(test_leak_grows)
{
	struct nginx f;
	char name[64], cur[16], next[16];

	nginx(&f);
	f.rec.cache_bytes = 20 * MIB;
	f.rec.fileset_bytes = 24 * MIB;
	f.rec.anon_growth_kib = 10 * 1024;	/* 10 MiB */
	ck_assert_str_eq(advise(&f.e, 0), "nginx.service: 42638 refaults/s while memory.current "
	    "63.9 MiB sits at memory.high 64 MiB, in the last 60 s, while its memory besides the page "
	    "cache rose by 10 MiB and fell by 0 MiB in that time (now 43.9 MiB): what it "
	    "allocates squeezes its cache, and a larger limit would fill the same way (find what "
	    "grows)");
	ck_assert_int_eq(tw_advice_cgroup_knob(&f.e, name, sizeof(name), cur, next, sizeof(cur),
	    NULL), TW_E_ABSENT);
	/* The same with the file set unknown. */
	f.rec.fileset_bytes = TW_FIG_NONE;
	ck_assert_ptr_nonnull(strstr(advise(&f.e, 0), "rose by 10 MiB"));
	/* Grown 7.9 MiB, under an eighth of 64: sized from the need,
	 * (43.9 + 24) * 1.25 = 84.9. */
	f.rec.fileset_bytes = 24 * MIB;
	f.rec.anon_growth_kib = 7.9 * 1024;
	ck_assert_ptr_nonnull(strstr(advise(&f.e, 1), "MemoryHigh=64M -> 85M ("));
	/* Steady: not a leak. */
	f.rec.anon_growth_kib = 0;
	ck_assert_ptr_nonnull(strstr(advise(&f.e, 1), "MemoryHigh=64M -> 85M ("));
	/* Fallen by 40 MiB (a process that grew and ended): the window's
	 * refaults were no steady working set's. */
	f.rec.anon_fall_kib = 40 * 1024;
	ck_assert_ptr_nonnull(strstr(advise(&f.e, 0), "rose by 0 MiB and fell by 40 MiB"));
}
END_TEST

START_TEST(test_property_follows_the_file)
{
	struct nginx f;

	nginx(&f);
	/* memory.max bounds it: MemoryMax=. */
	f.rec.limit_name = "memory.max";
	moved(&f, "/batch.slice");
	f.rec.memory_limit_bytes = 1536 * MIB;
	f.rec.memory_usage_bytes = 1500 * MIB;
	f.rec.cache_bytes = 1200 * MIB;
	f.rec.fileset_bytes = 3000 * MIB;
	/* (300 MiB not cache + 3000 MiB read) * 1.25 = 4125 MiB. */
	ck_assert_ptr_nonnull(strstr(advise(&f.e, 1), "batch.slice MemoryMax=1536M -> 4125M ("));

	/* v1: MemoryLimit= and the v1 document. */
	nginx(&f);
	f.rec.version = 1;
	f.rec.limit_name = "memory.limit_in_bytes";
	ck_assert_ptr_nonnull(strstr(advise(&f.e, 1), "nginx.service MemoryLimit=64M -> 331M ("
	    "42638 refaults/s while memory.usage_in_bytes 63.9 MiB sits at "
	    "memory.limit_in_bytes 64 MiB"));
	ck_assert_ptr_nonnull(strstr(advise(&f.e, 1), "Documentation/admin-guide/cgroup-v1/memory.rst"));
}
END_TEST

START_TEST(test_no_unit_names_the_file)
{
	struct nginx f;

	nginx(&f);
	moved(&f, "/tw-test");
	f.rec.version = 1;
	f.rec.limit_name = "memory.limit_in_bytes";
	ck_assert_str_eq(advise(&f.e, 1), "/tw-test memory.limit_in_bytes 64M -> 331M (42638 "
	    "refaults/s while memory.usage_in_bytes 63.9 MiB sits at memory.limit_in_bytes 64 MiB, "
	    "in the last 60 s; it reads a file set of 256 MiB beside 8.5 MiB of other memory; "
	    "Documentation/admin-guide/cgroup-v1/memory.rst)");
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
		  "systemctl set-property --runtime nginx.service MemoryHigh=331M" },
		{ "/batch.slice", "batch.slice",
		  "systemctl set-property --runtime batch.slice MemoryHigh=331M" },
		{ "/system.slice/docker-0123.scope", "docker-0123.scope",
		  "systemctl set-property --runtime docker-0123.scope MemoryHigh=331M" },
		/* Paths come shown (util/escape.h): systemd's own "\x2d" is
		 * "\x5cx2d", and the command names the unit systemd knows. */
		{ "/system.slice/my\\x5cx2dapp.service", "my\\x5cx2dapp.service",
		  "systemctl set-property --runtime 'my\\x2dapp.service' MemoryHigh=331M" },
		{ "/user.slice/user-1000.slice/user@1000.service/app.slice/web.service",
		  "web.service of user 1000",
		  "systemctl --user -M 1000@ set-property --runtime web.service MemoryHigh=331M" },
		{ "/tw-test", NULL, "echo 347078656 > /sys/fs/cgroup/tw-test/memory.high" },
		{ "/twhostile/system.slice", NULL,
		  "echo 347078656 > /sys/fs/cgroup/twhostile/system.slice/memory.high" },
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
		struct nginx f;
		struct tw_finding t;
		const char *line;
		char knob[1024];

		nginx(&f);
		moved(&f, cases[i].path);
		line = advise(&f.e, 1);
		tw_judge_cgroup_finding(&f.e, &t);
		if (cases[i].name != NULL)
			snprintf(knob, sizeof(knob), "%s %s=%s -> %s (", cases[i].name, t.tunable,
			    t.current, t.suggested);
		else
			snprintf(knob, sizeof(knob), "%s %s %s -> %s (", f.rec.path, t.tunable, t.current,
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
	struct nginx f;

	nginx(&f);
	/* Well below its limit, no limit events: not the limit's doing. */
	f.rec.memory_usage_bytes = 20 * MIB;
	ck_assert_str_eq(advise(&f.e, 0), "nginx.service: 42638 refaults/s while memory.current 20 "
	    "MiB well below memory.high 64 MiB, in the last 60 s, so its own limit does not bound "
	    "its cache, the host's memory does (see the host's figures)");
	/* Limit events in the window say it is, whatever usage reads now. */
	f.rec.limit_events_s = 3;
	ck_assert_ptr_nonnull(strstr(advise(&f.e, 1), "3 limit events/s"));

	nginx(&f);
	f.rec.memory_limit_bytes = TW_FIG_NONE;
	ck_assert_str_eq(advise(&f.e, 0), "nginx.service refaults 42638 pages/s and has no memory "
	    "limit of its own: its cache is bounded by the host's memory, not by a setting of "
	    "the service (see the host's figures)");
}
END_TEST

START_TEST(test_host_memory_caps)
{
	struct nginx f;

	nginx(&f);
	/* Raising 16 GiB on a 24 GiB host stops at 24 GiB... */
	f.rec.memory_limit_bytes = 16384 * MIB;
	f.rec.memory_usage_bytes = 16000 * MIB;
	f.rec.cache_bytes = 15000 * MIB;
	f.rec.fileset_bytes = 30000 * MIB;
	ck_assert_ptr_nonnull(strstr(advise(&f.e, 1), "MemoryHigh=16G -> 24G ("));
	/* ...and a limit already there has nowhere to go. */
	f.rec.memory_limit_bytes = 24576 * MIB;
	f.rec.memory_usage_bytes = 24000 * MIB;
	ck_assert_ptr_nonnull(strstr(advise(&f.e, 0), "the limit is already the host's memory"));
}
END_TEST

START_TEST(test_sizes_and_bad_input)
{
	struct nginx f;
	char buf[32], small[40];
	int tune = 1;

	nginx(&f);
	tw_advice_systemd_size(128 * MIB, buf, sizeof(buf));
	ck_assert_str_eq(buf, "128M");
	tw_advice_systemd_size(2048 * MIB, buf, sizeof(buf));
	ck_assert_str_eq(buf, "2G");
	tw_advice_systemd_size(1536 * 1024.0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1536K");
	tw_advice_systemd_size(1000, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1000");
	/* Never half a line. */
	ck_assert_int_eq(tw_advice_cgroup(&f.e, &tune, small, sizeof(small)), TW_E_TOOBIG);
	ck_assert_str_eq(small, "");
	ck_assert_int_eq(tune, 0);
	f.rec.path = NULL;
	ck_assert_int_eq(tw_advice_cgroup(&f.e, &tune, small, sizeof(small)), TW_E_INVAL);
}
END_TEST

static Suite *
advice_cgroup_suite(void)
{
	Suite *s = suite_create("advice_cgroup");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_service_at_high);
	tcase_add_test(tc, test_sized_from_need);
	tcase_add_test(tc, test_sized_without_file_set);
	tcase_add_test(tc, test_anonymous_squeeze);
	tcase_add_test(tc, test_leak_grows);
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
