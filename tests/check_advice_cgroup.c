#include "config.h"

/* Unit tests for lib/advice/cgroup.c: a service whose cache is bounded by
 * its own limit is told the systemd property with current and doubled
 * values, and no command: the commands are its ticket's, which agree with
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
	f.unit = "nginx.service";
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
	    "nginx.service MemoryHigh=64M -> 128M (42638 refaults/s while memory.current 63.9 MiB "
	    "sits at memory.high 64 MiB, in the last 60 s; systemd.resource-control(5), "
	    "Documentation/admin-guide/cgroup-v2.rst)");
}
END_TEST

START_TEST(test_property_follows_the_file)
{
	struct tw_cgroup_figures f = nginx();

	/* memory.max bounds it: MemoryMax=. */
	f.limit_name = "memory.max";
	f.unit = "batch.slice";
	f.path = "/batch.slice";
	f.limit = 1536 * MIB;
	f.usage = 1500 * MIB;
	ck_assert_ptr_nonnull(strstr(advise(&f, 1), "batch.slice MemoryMax=1536M -> 3G ("));

	/* v1: MemoryLimit= and the v1 document. */
	f = nginx();
	f.version = 1;
	f.limit_name = "memory.limit_in_bytes";
	ck_assert_ptr_nonnull(strstr(advise(&f, 1), "nginx.service MemoryLimit=64M -> 128M ("
	    "42638 refaults/s while memory.usage_in_bytes 63.9 MiB sits at "
	    "memory.limit_in_bytes 64 MiB"));
	ck_assert_ptr_nonnull(strstr(advise(&f, 1), "Documentation/admin-guide/cgroup-v1/memory.rst"));
}
END_TEST

START_TEST(test_no_unit_names_the_file)
{
	struct tw_cgroup_figures f = nginx();

	f.unit = "";
	f.path = "/tw-test";
	f.version = 1;
	f.limit_name = "memory.limit_in_bytes";
	ck_assert_str_eq(advise(&f, 1), "/tw-test memory.limit_in_bytes 64M -> 128M (42638 "
	    "refaults/s while memory.usage_in_bytes 63.9 MiB sits at memory.limit_in_bytes 64 MiB, "
	    "in the last 60 s; Documentation/admin-guide/cgroup-v1/memory.rst)");
}
END_TEST

/* The tune line and the ticket's apply line for the same cgroup: the line
 * names the knob and values the ticket proposes and no command of its own,
 * so an unsafe unit name reaches no shell through either. */
START_TEST(test_tune_line_agrees_with_ticket)
{
	static const struct {
		const char *unit, *apply;
	} cases[] = {
		{ "nginx.service", "systemctl set-property --runtime nginx.service MemoryHigh=128M" },
		{ "batch.slice", "systemctl set-property --runtime batch.slice MemoryHigh=128M" },
		{ "docker-0123.scope",
		  "systemctl set-property --runtime docker-0123.scope MemoryHigh=128M" },
		/* Units come shown (util/escape.h): systemd's own "\x2d" is
		 * "\x5cx2d", and the command names the unit systemd knows. */
		{ "my\\x5cx2dapp.service",
		  "systemctl set-property --runtime 'my\\x2dapp.service' MemoryHigh=128M" },
		/* A shown "\x2d" is a raw '-', which needs no quoting. */
		{ "my\\x2dapp.service", "systemctl set-property --runtime my-app.service MemoryHigh=128M" },
		/* Raw control bytes, NUL, and what is not a shown string. */
		{ "x\\x0areboot.service", NULL },
		{ "web.service\\x00.service", NULL },
		{ "a\\q.service", NULL },
		{ "evil;reboot.service", NULL },
		{ "$(reboot).service", NULL },
		{ "a b.service", NULL },
		{ "", NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tw_cgroup_figures f = nginx();
		struct tw_cgroup_ticket t;
		const char *line;
		char knob[64];

		f.unit = cases[i].unit;
		line = advise(&f, 1);
		tw_judge_cgroup_ticket(&f, &t);
		snprintf(knob, sizeof(knob), f.unit[0] != '\0' ? "%s=%s -> %s (" : "%s %s -> %s (",
		    t.tunable, t.current, t.suggested);
		ck_assert_msg(strstr(line, knob) != NULL, "%s: %s", knob, line);
		ck_assert_msg(strstr(line, "systemctl") == NULL && strstr(line, "echo ") == NULL &&
		    strstr(line, "drop-in") == NULL, "a command in: %s", line);
		if (cases[i].apply != NULL) {
			ck_assert_str_eq(t.apply, cases[i].apply);
		} else {
			ck_assert_str_eq(t.apply, "");
			ck_assert_ptr_nonnull(t.no_apply);
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
