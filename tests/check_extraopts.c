/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/checkio/extraopts.c: argv expansion, with the fixtures in
 * tests/fixtures/extraopts/. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkio/extraopts.h"
#include "tw_check.h"
#include "util/error.h"

/* No environment and no standard location: only what a test names. */
static const char *const no_paths[] = { NULL };
static const struct tw_extraopts_env empty_env = { NULL, NULL, no_paths };

static char *
fixture(const char *name)
{
	char rel[256];
	char *p;

	snprintf(rel, sizeof(rel), "extraopts/%s", name);
	p = strdup(tw_fixture_path(rel));
	ck_assert_ptr_nonnull(p);
	return p;
}

/* Expand and compare with want (NULL-terminated); returns nothing. */
static void
expect_args(int argc, char **argv, const char *plugin, const struct tw_extraopts_env *env,
    const char *const *want)
{
	char **out = NULL, err[256];
	int outc = -1, i;

	ck_assert_msg(tw_extraopts_expand(argc, argv, plugin, env, &outc, &out, err,
	    sizeof(err)) == TW_OK, "expand failed: %s", err);
	ck_assert_str_eq(err, "");
	for (i = 0; want[i] != NULL; i++) {
		ck_assert_msg(i < outc, "only %d arguments", outc);
		ck_assert_str_eq(out[i], want[i]);
	}
	ck_assert_int_eq(outc, i);
	ck_assert_ptr_null(out[outc]);
	tw_extraopts_free(out);
}

static int
expect_error(int argc, char **argv, const char *plugin, const struct tw_extraopts_env *env,
    char *err, size_t errlen)
{
	char **out = (char **)1;
	int outc = -1, rc;

	rc = tw_extraopts_expand(argc, argv, plugin, env, &outc, &out, err, errlen);
	ck_assert_int_ne(rc, TW_OK);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(outc, 0);
	if (err != NULL)
		ck_assert_ptr_null(strchr(err, '\n'));
	return rc;
}

START_TEST(test_basic_file)
{
	char *f = fixture("basic.ini"), loc[4096];
	char *argv[] = { "/usr/lib/nagios/plugins/check_bufcache", loc, "-H", "cmdline", NULL };
	const char *const want[] = {
		"/usr/lib/nagios/plugins/check_bufcache",
		"--hostname=db1.example", "--community=public", "--verbose", "--timeout",
		"-w80", "--authpassword=s3cr#t;x = y", "--port=1161",
		"-H", "cmdline", NULL,
	};

	/* Default section: the last component of argv[0]. */
	snprintf(loc, sizeof(loc), "--extra-opts=@%s", f);
	expect_args(4, argv, NULL, &empty_env, want);
	/* The plugin can name it too. */
	expect_args(4, argv, "check_bufcache", &empty_env, want);
	free(f);
}
END_TEST

START_TEST(test_section_and_forms)
{
	char *f = fixture("basic.ini"), loc[4096], loc2[4096];
	const struct tw_extraopts_env env = { f, NULL, no_paths };

	/* An explicit section; "[ other ]" is trimmed. */
	snprintf(loc, sizeof(loc), "--extra-opts=other@%s", f);
	{
		char *argv[] = { "check_x", "-v", loc, NULL };
		const char *const want[] = { "check_x", "--hostname=other", "-v", NULL };

		expect_args(3, argv, NULL, &empty_env, want);
	}
	/* Two words: the next argument is the value when it has no '-'. */
	snprintf(loc, sizeof(loc), "other@%s", f);
	{
		char *argv[] = { "check_x", "--extra-opts", loc, "-v", NULL };
		const char *const want[] = { "check_x", "--hostname=other", "-v", NULL };

		expect_args(4, argv, NULL, &empty_env, want);
	}
	/* Bare, followed by an option: default section in the default file
	 * ($MP_CONFIG_FILE here). */
	{
		char *argv[] = { "check_dblock", "--extra-opts", "-H", "h", NULL };
		const char *const want[] = {
			"check_dblock", "--hostname=db1.example", "--community=public",
			"--verbose", "--timeout", "-w80", "--authpassword=s3cr#t;x = y",
			"--port=1161", "-H", "h", NULL,
		};

		expect_args(4, argv, "check_bufcache", &env, want);
	}
	/* "--extra-opts=" is the bare form too; "section" alone uses the
	 * default file. */
	{
		char *argv[] = { "check_bufcache", "--extra-opts=", "--extra-opts=other", NULL };
		const char *const want[] = {
			"check_bufcache", "--hostname=db1.example", "--community=public",
			"--verbose", "--timeout", "-w80", "--authpassword=s3cr#t;x = y",
			"--port=1161", "--hostname=other", NULL,
		};

		expect_args(3, argv, NULL, &env, want);
	}
	/* Several files, in the order given, before the rest of the line. */
	free(f);
	f = fixture("crlf.ini");
	snprintf(loc, sizeof(loc), "--extra-opts=@%s", f);
	free(f);
	f = fixture("basic.ini");
	snprintf(loc2, sizeof(loc2), "--extra-opts=other@%s", f);
	{
		char *argv[] = { "check_disklatency", "-c", "50", loc, loc2, "-w", "20", NULL };
		const char *const want[] = {
			"check_disklatency", "--hostname=sda-host", "--port=1161",
			"--hostname=other", "-c", "50", "-w", "20", NULL,
		};

		expect_args(7, argv, NULL, &empty_env, want);
	}
	free(f);
}
END_TEST

START_TEST(test_not_extra_opts)
{
	char *f = fixture("basic.ini"), loc[4096];

	snprintf(loc, sizeof(loc), "--extra-opts=@%s", f);
	/* No --extra-opts: a copy of argv. */
	{
		char *argv[] = { "check_x", "-H", "h", NULL };
		const char *const want[] = { "check_x", "-H", "h", NULL };

		expect_args(3, argv, NULL, &empty_env, want);
	}
	{
		char *argv[] = { "check_x", NULL };
		const char *const want[] = { "check_x", NULL };

		expect_args(1, argv, NULL, &empty_env, want);
	}
	/* After "--" nothing is an option; near-misses are left alone. */
	{
		char *argv[] = { "check_x", "--extra-optsX", "--extra", "--", loc, NULL };
		const char *const want[] = {
			"check_x", "--extra-optsX", "--extra", "--", loc, NULL,
		};

		expect_args(5, argv, NULL, &empty_env, want);
	}
	free(f);
}
END_TEST

START_TEST(test_crlf_and_empty_section)
{
	char *f = fixture("crlf.ini"), *g = fixture("empty-section.ini"), loc[4096];
	char *argv[] = { "check_disklatency", loc, NULL };

	snprintf(loc, sizeof(loc), "--extra-opts=@%s", f);
	{
		const char *const want[] = {
			"check_disklatency", "--hostname=sda-host", "--port=1161", NULL,
		};

		expect_args(2, argv, NULL, &empty_env, want);
	}
	/* A section that is there but empty adds nothing, and is no error. */
	snprintf(loc, sizeof(loc), "--extra-opts=check_dblock@%s", g);
	{
		const char *const want[] = { "check_disklatency", NULL };

		expect_args(2, argv, NULL, &empty_env, want);
	}
	free(f);
	free(g);
}
END_TEST

START_TEST(test_errors)
{
	char *f = fixture("basic.ini"), *dir = fixture(""), loc[4096], err[512], want[4200];
	char *argv[] = { "check_bufcache", loc, NULL };

	snprintf(loc, sizeof(loc), "--extra-opts=@/nonexistent/tunewatch.ini");
	ck_assert_int_eq(expect_error(2, argv, NULL, &empty_env, err, sizeof(err)),
	    TW_E_ABSENT);
	ck_assert_str_eq(err, "extra-opts: cannot read /nonexistent/tunewatch.ini: no such file");

	snprintf(loc, sizeof(loc), "--extra-opts=nosuch@%s", f);
	ck_assert_int_eq(expect_error(2, argv, NULL, &empty_env, err, sizeof(err)),
	    TW_E_ABSENT);
	snprintf(want, sizeof(want), "extra-opts: section [nosuch] not found in %s", f);
	ck_assert_str_eq(err, want);

	/* Sections are case-sensitive, as in monitoring-plugins. */
	snprintf(loc, sizeof(loc), "--extra-opts=OTHER@%s", f);
	ck_assert_int_eq(expect_error(2, argv, NULL, &empty_env, err, sizeof(err)),
	    TW_E_ABSENT);

	snprintf(loc, sizeof(loc), "--extra-opts=other@");
	ck_assert_int_eq(expect_error(2, argv, NULL, &empty_env, err, sizeof(err)),
	    TW_E_INVAL);
	ck_assert_str_eq(err, "extra-opts: empty file name after '@'");

	/* No default file anywhere. */
	snprintf(loc, sizeof(loc), "--extra-opts");
	ck_assert_int_eq(expect_error(2, argv, NULL, &empty_env, err, sizeof(err)),
	    TW_E_ABSENT);
	ck_assert_str_eq(err, "extra-opts: no config file found in the standard locations "
	    "(set MP_CONFIG_FILE or use --extra-opts=[section]@file)");

	/* A directory cannot be read as a file. */
	snprintf(loc, sizeof(loc), "--extra-opts=@%s", dir);
	ck_assert_int_eq(expect_error(2, argv, NULL, &empty_env, err, sizeof(err)), TW_E_IO);
	snprintf(want, sizeof(want), "extra-opts: cannot read %s: read error", dir);
	ck_assert_str_eq(err, want);

	/* A control character in a name cannot break the message's line. */
	snprintf(loc, sizeof(loc), "--extra-opts=@/nonexistent/a\nb.ini");
	ck_assert_int_eq(expect_error(2, argv, NULL, &empty_env, err, sizeof(err)),
	    TW_E_ABSENT);
	ck_assert_str_eq(err, "extra-opts: cannot read /nonexistent/a?b.ini: no such file");

	/* A tiny buffer gets a cut message, still terminated. */
	snprintf(loc, sizeof(loc), "--extra-opts=@/nonexistent/tunewatch.ini");
	ck_assert_int_eq(expect_error(2, argv, NULL, &empty_env, err, 12), TW_E_ABSENT);
	ck_assert_str_eq(err, "extra-opts:");
	ck_assert_int_eq(expect_error(2, argv, NULL, &empty_env, NULL, 0), TW_E_ABSENT);

	ck_assert_int_eq(expect_error(0, argv, NULL, &empty_env, err, sizeof(err)), TW_E_INVAL);
	free(f);
	free(dir);
}
END_TEST

/* Malformed lines: the message names the line, never its contents. */
START_TEST(test_errors_keep_secrets)
{
	static const struct {
		const char *file, *section;
		int line;
		const char *what;
	} cases[] = {
		{ "bad-line.ini", "check_dblock", 4,
		    "not a [section], comment or key[=value] line" },
		{ "before-section.ini", "check_dblock", 2, "option before any [section]" },
		{ "bad-header.ini", "check_dblock", 3,
		    "not a [section], comment or key[=value] line" },
		{ "no-key.ini", "check_dblock", 2,
		    "not a [section], comment or key[=value] line" },
	};
	char loc[4096], err[512], want[4200];
	char *argv[] = { "check_x", loc, NULL };
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *f = fixture(cases[i].file);

		snprintf(loc, sizeof(loc), "--extra-opts=%s@%s", cases[i].section, f);
		ck_assert_int_eq(expect_error(2, argv, NULL, &empty_env, err, sizeof(err)),
		    TW_E_INVAL);
		snprintf(want, sizeof(want), "extra-opts: %s line %d: %s", f, cases[i].line,
		    cases[i].what);
		ck_assert_str_eq(err, want);
		ck_assert_ptr_null(strstr(err, "hunter2"));
		free(f);
	}
}
END_TEST

/* The default file: $MP_CONFIG_FILE, then $NAGIOS_CONFIG_PATH, then the
 * list of standard locations, each only when set. */
START_TEST(test_default_file_search)
{
	char dir[] = "/tmp/tw_check_extraopts.XXXXXX", ini[128], *basic = fixture("basic.ini");
	char path[256];
	const char *paths[] = { "/nonexistent/one.ini", NULL, NULL };
	struct tw_extraopts_env env = { NULL, NULL, paths };
	char *argv[] = { "check_dblock", "--extra-opts", NULL };
	char err[512];
	FILE *fp;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(ini, sizeof(ini), "%s/plugins.ini", dir);
	fp = fopen(ini, "w");
	ck_assert_ptr_nonnull(fp);
	fputs("[check_dblock]\nhostname=from-path\n", fp);
	fclose(fp);

	/* Nothing found yet. */
	ck_assert_int_eq(expect_error(2, argv, NULL, &env, err, sizeof(err)), TW_E_ABSENT);
	/* The list of locations, first existing one. */
	paths[1] = ini;
	{
		const char *const want[] = { "check_dblock", "--hostname=from-path", NULL };

		expect_args(2, argv, NULL, &env, want);
	}
	/* NAGIOS_CONFIG_PATH comes before the list; empty parts and
	 * missing directories are skipped. */
	paths[1] = NULL;
	snprintf(path, sizeof(path), "::/nonexistent:%s", dir);
	env.nagios_config_path = path;
	{
		const char *const want[] = { "check_dblock", "--hostname=from-path", NULL };

		expect_args(2, argv, NULL, &env, want);
	}
	/* MP_CONFIG_FILE beats both, and must exist when set. */
	env.mp_config_file = basic;
	{
		char *argv2[] = { "check_bufcache", "--extra-opts=other", NULL };
		const char *const want[] = { "check_bufcache", "--hostname=other", NULL };

		expect_args(2, argv2, NULL, &env, want);
	}
	env.mp_config_file = "/nonexistent/mp.ini";
	ck_assert_int_eq(expect_error(2, argv, NULL, &env, err, sizeof(err)), TW_E_ABSENT);
	ck_assert_str_eq(err, "extra-opts: cannot read /nonexistent/mp.ini: no such file");
	/* An empty MP_CONFIG_FILE counts as unset. */
	env.mp_config_file = "";
	{
		const char *const want[] = { "check_dblock", "--hostname=from-path", NULL };

		expect_args(2, argv, NULL, &env, want);
	}

	unlink(ini);
	rmdir(dir);
	free(basic);
	/* The documented list is the monitoring-plugins one, newest first. */
	ck_assert_str_eq(tw_extraopts_default_paths[0],
	    "/usr/local/etc/monitoring-plugins/monitoring-plugins.ini");
	ck_assert_str_eq(tw_extraopts_default_paths[2],
	    "/etc/monitoring-plugins/monitoring-plugins.ini");
	ck_assert_str_eq(tw_extraopts_default_paths[4], "/etc/nagios/plugins.ini");
	ck_assert_str_eq(tw_extraopts_default_paths[10], "/etc/opt/nagios-plugins.ini");
	ck_assert_ptr_null(tw_extraopts_default_paths[11]);
}
END_TEST

START_TEST(test_unreadable_and_big)
{
	char dir[] = "/tmp/tw_check_extraopts.XXXXXX", path[128], loc[256], err[512];
	char *argv[] = { "check_x", loc, NULL };
	char block[4096];
	FILE *fp;
	int i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/big.ini", dir);
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs("[check_x]\n", fp);
	memset(block, '#', sizeof(block) - 1);
	block[sizeof(block) - 1] = '\n';
	for (i = 0; i < 257; i++)	/* just over 1 MiB */
		ck_assert_uint_eq(fwrite(block, 1, sizeof(block), fp), sizeof(block));
	fclose(fp);
	snprintf(loc, sizeof(loc), "--extra-opts=@%s", path);
	ck_assert_int_eq(expect_error(2, argv, NULL, &empty_env, err, sizeof(err)),
	    TW_E_TOOBIG);
	ck_assert_ptr_nonnull(strstr(err, "larger than 1 MiB"));

	/* Permissions mean nothing to root. */
	if (geteuid() != 0) {
		chmod(path, 0);
		ck_assert_int_eq(expect_error(2, argv, NULL, &empty_env, err, sizeof(err)),
		    TW_E_ACCESS);
		ck_assert_ptr_nonnull(strstr(err, "permission denied"));
	}
	unlink(path);
	rmdir(dir);
}
END_TEST

static Suite *
extraopts_suite(void)
{
	Suite *s = suite_create("extraopts");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_basic_file);
	tcase_add_test(tc, test_section_and_forms);
	tcase_add_test(tc, test_not_extra_opts);
	tcase_add_test(tc, test_crlf_and_empty_section);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_errors_keep_secrets);
	tcase_add_test(tc, test_default_file_search);
	tcase_add_test(tc, test_unreadable_and_big);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(extraopts_suite());
}
