/* SPDX-License-Identifier: ISC */
/* Shared helpers for the libcheck unit tests. */
#ifndef TW_CHECK_H
#define TW_CHECK_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
