/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/collect/blockqueue.c. */
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/blockqueue.h"
#include "tw_check.h"
#include "util/error.h"

static int
open_dir(const char *rel)
{
	int fd = open(tw_fixture_path(rel), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	return fd;
}

static void
assert_queue(const struct tw_queue *q, const char *sched, int64_t nr, int64_t ra,
    int64_t wbt, int rot)
{
	ck_assert_str_eq(q->scheduler, sched);
	ck_assert_int_eq(q->nr_requests, nr);
	ck_assert_int_eq(q->read_ahead_kb, ra);
	ck_assert_int_eq(q->wbt_lat_usec, wbt);
	ck_assert_int_eq(q->rotational, rot);
}

static void
assert_sched(const char *text, int rc, const char *want)
{
	char out[TW_SCHED_LEN];

	memcpy(out, "junk", 5);
	ck_assert_msg(tw_queue_parse_scheduler(text, out, sizeof(out)) == rc,
	    "\"%s\": rc %d", text, tw_queue_parse_scheduler(text, out, sizeof(out)));
	ck_assert_str_eq(out, want);
}

START_TEST(test_parse_scheduler)
{
	char out[TW_SCHED_LEN];

	assert_sched("mq-deadline kyber [bfq] none", TW_OK, "bfq");
	assert_sched("[none] mq-deadline", TW_OK, "none");
	assert_sched("none", TW_OK, "none");
	assert_sched("none\n", TW_OK, "none");
	assert_sched("[none] mq-deadline kyber bfq \n", TW_OK, "none");
	assert_sched("\t[kyber]\tnone", TW_OK, "kyber");
	assert_sched("[mq-deadline]", TW_OK, "mq-deadline");
	assert_sched("mq-deadline kyber", TW_E_INVAL, "");
	assert_sched("", TW_E_INVAL, "");
	assert_sched("   \n", TW_E_INVAL, "");
	assert_sched("[] none", TW_E_INVAL, "");
	assert_sched("[bfq] [none]", TW_E_INVAL, "");
	assert_sched("[bfq none", TW_E_INVAL, "");
	assert_sched("none mq-deadline]", TW_E_INVAL, "");
	assert_sched("[bf]q] none", TW_E_INVAL, "");
	/* A backslash is no module's: the name is its own shown form. */
	assert_sched("[b\\x0aq] none", TW_E_INVAL, "");
	assert_sched("none\001", TW_E_INVAL, "");
	assert_sched("[0123456789012345678901234567890]", TW_OK,
	    "0123456789012345678901234567890");
	assert_sched("[01234567890123456789012345678901]", TW_E_TOOBIG, "");

	ck_assert_int_eq(tw_queue_parse_scheduler("[bfq]", out, 4), TW_OK);
	ck_assert_str_eq(out, "bfq");
	ck_assert_int_eq(tw_queue_parse_scheduler("[bfq]", out, 3), TW_E_TOOBIG);
	ck_assert_int_eq(tw_queue_parse_scheduler(NULL, out, sizeof(out)), TW_E_INVAL);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(tw_queue_parse_scheduler("none", out, 0), TW_E_INVAL);
}
END_TEST

START_TEST(test_read_handmade)
{
	struct tw_queue q;
	int fd = open_dir("collectors/blockqueue/sys");

	ck_assert_int_eq(tw_queue_read(fd, "sda", &q), TW_OK);
	assert_queue(&q, "bfq", 64, 4096, 0, 1);
	ck_assert_int_eq(tw_queue_read(fd, "nvme0n1", &q), TW_OK);
	assert_queue(&q, "none", 1023, 128, 2000, 0);
	/* Looked up as block/cciss!c0d0; read_ahead_kb is not a number, there is
	 * no wbt_lat_usec and rotational is neither 0 nor 1. */
	ck_assert_int_eq(tw_queue_read(fd, "cciss/c0d0", &q), TW_OK);
	assert_queue(&q, "none", 128, -1, -1, -1);
	/* Two names and no brackets, a negative size, a number beyond 64 bits,
	 * the kernel's own -1 and an empty attribute. */
	ck_assert_int_eq(tw_queue_read(fd, "weird", &q), TW_OK);
	assert_queue(&q, "", -1, -1, -1, -1);
	/* A queue directory without a scheduler is still a queue. */
	ck_assert_int_eq(tw_queue_read(fd, "zram0", &q), TW_OK);
	assert_queue(&q, "", -1, 128, -1, 0);
	close(fd);
}
END_TEST

START_TEST(test_read_absent_and_invalid)
{
	struct tw_queue q;
	char longname[300];
	int fd = open_dir("collectors/blockqueue/sys");

	ck_assert_int_eq(tw_queue_read(fd, "sda", &q), TW_OK);
	/* A device without a queue directory; q is reset to unknown. */
	ck_assert_int_eq(tw_queue_read(fd, "sdb", &q), TW_E_ABSENT);
	assert_queue(&q, "", -1, -1, -1, -1);
	ck_assert_int_eq(tw_queue_read(fd, "notadir", &q), TW_E_ABSENT);
	ck_assert_int_eq(tw_queue_read(fd, "nope", &q), TW_E_ABSENT);
	ck_assert_int_eq(tw_queue_read(-1, "sda", &q), TW_E_ABSENT);
	ck_assert_int_eq(tw_queue_read(fd, "", &q), TW_E_INVAL);
	ck_assert_int_eq(tw_queue_read(fd, "..", &q), TW_E_INVAL);
	ck_assert_int_eq(tw_queue_read(fd, ".", &q), TW_E_INVAL);
	ck_assert_int_eq(tw_queue_read(fd, NULL, &q), TW_E_INVAL);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	ck_assert_int_eq(tw_queue_read(fd, longname, &q), TW_E_INVAL);
	assert_queue(&q, "", -1, -1, -1, -1);
	close(fd);
}
END_TEST

START_TEST(test_read_debian12_vm)
{
	struct tw_queue q;
	int fd = open_dir("debian12-vm/sys");

	ck_assert_int_eq(tw_queue_read(fd, "vda", &q), TW_OK);
	assert_queue(&q, "mq-deadline", 256, 8192, 75000, 1);
	ck_assert_int_eq(tw_queue_read(fd, "loop3", &q), TW_OK);
	assert_queue(&q, "none", 128, 128, 2000, 0);
	ck_assert_int_eq(tw_queue_read(fd, "zram0", &q), TW_OK);
	assert_queue(&q, "", -1, 128, -1, 0);
	ck_assert_int_eq(tw_queue_read(fd, "vda1", &q), TW_E_ABSENT);
	close(fd);
}
END_TEST

/* In a real sysfs, block/<dev> is a symbolic link into devices/. */
START_TEST(test_read_through_symlink)
{
	char dir[] = "/tmp/tw_check_blockqueue.XXXXXX";
	struct tw_queue q;
	int dfd, fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(dfd, 0);
	ck_assert_int_eq(mkdirat(dfd, "devices", 0755), 0);
	ck_assert_int_eq(mkdirat(dfd, "devices/vdb", 0755), 0);
	ck_assert_int_eq(mkdirat(dfd, "devices/vdb/queue", 0755), 0);
	ck_assert_int_eq(mkdirat(dfd, "block", 0755), 0);
	ck_assert_int_eq(symlinkat("../devices/vdb", dfd, "block/vdb"), 0);
	fd = openat(dfd, "devices/vdb/queue/nr_requests", O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "32\n", 3), 3);
	close(fd);

	ck_assert_int_eq(tw_queue_read(dfd, "vdb", &q), TW_OK);
	assert_queue(&q, "", 32, -1, -1, -1);

	unlinkat(dfd, "devices/vdb/queue/nr_requests", 0);
	unlinkat(dfd, "block/vdb", 0);
	unlinkat(dfd, "block", AT_REMOVEDIR);
	unlinkat(dfd, "devices/vdb/queue", AT_REMOVEDIR);
	unlinkat(dfd, "devices/vdb", AT_REMOVEDIR);
	unlinkat(dfd, "devices", AT_REMOVEDIR);
	close(dfd);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A tunable's name: a queue attribute's after "queue/", else none. */
START_TEST(test_queue_attr)
{
	ck_assert_str_eq(tw_queue_attr("queue/nr_requests"), "nr_requests");
	ck_assert_str_eq(tw_queue_attr("queue/"), "");
	ck_assert_ptr_null(tw_queue_attr("queue"));
	ck_assert_ptr_null(tw_queue_attr("vm.dirty_ratio"));
	ck_assert_ptr_null(tw_queue_attr("net.core.somaxconn"));
	ck_assert_ptr_null(tw_queue_attr("MemoryHigh"));
	ck_assert_ptr_null(tw_queue_attr(""));
}
END_TEST

static Suite *
blockqueue_suite(void)
{
	Suite *s = suite_create("blockqueue");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_scheduler);
	tcase_add_test(tc, test_read_handmade);
	tcase_add_test(tc, test_read_absent_and_invalid);
	tcase_add_test(tc, test_read_debian12_vm);
	tcase_add_test(tc, test_read_through_symlink);
	tcase_add_test(tc, test_queue_attr);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(blockqueue_suite());
}
