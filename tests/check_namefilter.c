/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/util/namefilter.c: one name, and a disk's two (its
 * kernel name and its alias), as check_disklatency's --device and
 * --exclude-device match them. */
#include "tw_check.h"
#include "util/error.h"
#include "util/namefilter.h"

START_TEST(test_keep_either)
{
	struct tw_namefilter f;
	char err[128];

	ck_assert_int_eq(tw_namefilter_init(&f, "^vg0-", NULL, err, sizeof(err)), TW_OK);
	ck_assert(tw_namefilter_keep_either(&f, "dm-1", "vg0-root"));
	ck_assert(!tw_namefilter_keep_either(&f, "dm-0", "mpatha"));
	ck_assert(!tw_namefilter_keep_either(&f, "dm-2", NULL));
	ck_assert(!tw_namefilter_keep_either(&f, "dm-2", ""));
	ck_assert(!tw_namefilter_keep(&f, "dm-1"));
	tw_namefilter_free(&f);

	/* Kernel names match as before; either name excludes. */
	ck_assert_int_eq(tw_namefilter_init(&f, "^dm-", "^mpatha$", err, sizeof(err)), TW_OK);
	ck_assert(tw_namefilter_keep_either(&f, "dm-1", "vg0-root"));
	ck_assert(!tw_namefilter_keep_either(&f, "dm-0", "mpatha"));
	ck_assert(tw_namefilter_keep_either(&f, "dm-3", NULL));
	ck_assert(!tw_namefilter_keep_either(&f, "sda", NULL));
	tw_namefilter_free(&f);

	/* An exclusion that matches "" must not drop a disk with no alias. */
	ck_assert_int_eq(tw_namefilter_init(&f, NULL, "^$", err, sizeof(err)), TW_OK);
	ck_assert(tw_namefilter_keep_either(&f, "sda", ""));
	ck_assert(tw_namefilter_keep_either(&f, "sda", NULL));
	tw_namefilter_free(&f);

	/* No filter keeps everything. */
	ck_assert_int_eq(tw_namefilter_init(&f, NULL, NULL, err, sizeof(err)), TW_OK);
	ck_assert(tw_namefilter_keep_either(&f, "sda", "x"));
	tw_namefilter_free(&f);
}
END_TEST

static Suite *
namefilter_suite(void)
{
	Suite *s = suite_create("namefilter");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_keep_either);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(namefilter_suite());
}
