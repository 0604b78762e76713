#include "config.h"

/* Unit tests for lib/collect/sockowner.c on proc roots made by the test
 * (tw_fakeproc.h): fd directories too long for one getdents64 buffer,
 * since the search takes a short listing for the whole directory. */
#include <stdint.h>
#include <stdlib.h>

#include "collect/sockowner.h"
#include "tw_check.h"
#include "tw_fakeproc.h"
#include "util/error.h"

#define MANY 2000	/* about 50,000 bytes of entries: 4 buffers */

/* Sockets at the start, the middle and the end of a long listing are all
 * found, every fd is looked at when one is absent, and a socket two
 * processes hold goes to the first in /proc's order. */
START_TEST(test_long_fd_directory)
{
	uint32_t want[4] = { 3000, 3000 + MANY / 2, 3000 + MANY - 1, 9999 };
	struct tw_sock_owner owners[4];
	struct tw_owner_scan scan;
	struct tw_fakeproc fp;
	unsigned *fds = calloc(MANY, sizeof(*fds));
	unsigned shared[1] = { 3000 + MANY / 2 };
	size_t i;

	ck_assert_ptr_nonnull(fds);
	for (i = 0; i < MANY; i++)
		fds[i] = 3000 + (unsigned)i;
	tw_fakeproc_open(&fp);
	tw_fakeproc_process(&fp, 10, "busy", fds, MANY);
	ck_assert_int_eq(tw_sockowner_find(fp.fd, want, 4, 100, owners, &scan), TW_OK);
	ck_assert_int_eq(owners[0].pid, 10);
	ck_assert_int_eq(owners[1].pid, 10);
	ck_assert_int_eq(owners[2].pid, 10);
	ck_assert_int_eq(owners[3].pid, 0);	/* 9999: no process holds it */
	ck_assert_str_eq(owners[2].comm, "busy");
	ck_assert_uint_eq(scan.procs, 1);
	ck_assert_uint_eq(scan.fds, MANY);	/* every fd, past the first buffer */
	ck_assert_int_eq(scan.cut, 0);

	/* A second holder of the middle socket: the owner stays the first
	 * in /proc's order, whichever order the fixture's listing has. */
	tw_fakeproc_process(&fp, 20, "child", shared, 1);
	ck_assert_int_eq(tw_sockowner_find(fp.fd, &want[1], 1, 100, owners, &scan), TW_OK);
	ck_assert(owners[0].pid == 10 || owners[0].pid == 20);
	ck_assert_uint_eq(scan.procs, 1);	/* stopped at the first holder */
	free(fds);
	tw_fakeproc_close(&fp);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sockowner");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_long_fd_directory);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
