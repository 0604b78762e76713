/* SPDX-License-Identifier: ISC */
/* Shared helpers for the libcheck unit tests. */
#ifndef TW_CHECK_H
#define TW_CHECK_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The fixture tree, from the test environment (tests/local.mk sets it). */
static inline const char *
tw_fixtures(void)
{
	const char *d = getenv("TW_FIXTURES");

	return d != NULL ? d : "tests/fixtures";
}

/* Build "<fixtures>/<rel>" into a static buffer. */
static inline const char *
tw_fixture_path(const char *rel)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", tw_fixtures(), rel);
	return path;
}

/* A new private folder /tmp/tw-NAME-XXXXXX, its path in root (at least 64
 * bytes), for a test's files; tw_tmp_remove takes it away. */
static inline void
tw_tmp_dir(char *root, size_t len, const char *name)
{
	ck_assert_int_lt(snprintf(root, len, "/tmp/tw-%s-XXXXXX", name), (int)len);
	ck_assert_ptr_nonnull(mkdtemp(root));
}

/* Copy the fixture rel (a file or a folder, e.g. "agent/proc") to root/to,
 * writable: a test changes its copy, never the fixture (which distcheck
 * keeps read-only). */
static inline void
tw_fixture_copy(const char *root, const char *rel, const char *to)
{
	char cmd[8400];

	/* One fixture path a command: tw_fixture_path's buffer is one. */
	snprintf(cmd, sizeof(cmd), "cp -R '%s' '%s/%s' && chmod -R u+w '%s/%s'",
	    tw_fixture_path(rel), root, to, root, to);
	ck_assert_int_eq(system(cmd), 0);
}

/* Remove root, made by tw_tmp_dir, and everything under it. */
static inline void
tw_tmp_remove(const char *root)
{
	char cmd[128];

	ck_assert_int_lt(snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root), (int)sizeof(cmd));
	ck_assert_int_eq(system(cmd), 0);
}

/* Write text as the whole of root/rel, making the folders of rel that are
 * missing. */
static inline void
tw_write_file(const char *root, const char *rel, const char *text)
{
	char path[512];
	char *slash;
	FILE *fh;

	ck_assert_int_lt(snprintf(path, sizeof(path), "%s/%s", root, rel), (int)sizeof(path));
	for (slash = path + strlen(root) + 1; (slash = strchr(slash, '/')) != NULL; slash++) {
		*slash = '\0';
		(void)mkdir(path, 0755);	/* EEXIST mostly; fopen says the rest */
		*slash = '/';
	}
	fh = fopen(path, "w");
	ck_assert_ptr_nonnull(fh);
	ck_assert_int_ge(fputs(text, fh), 0);
	ck_assert_int_eq(fclose(fh), 0);
}

/* A fixture row's cell is its has bit and its MIB number, set together in one
 * line; TW_VIEW_BIT is from view/view.h, which a test using this includes. */
#define TW_PUT_CELL(row, c, value) \
	do { \
		(row).has |= TW_VIEW_BIT(c); \
		(row).col[c] = (value); \
	} while (0)

/* Run one suite and return the process exit status for automake. */
static inline int
tw_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
