#include "config.h"

/* Unit tests for lib/collect/procio.c.
 *
 * Linked with -Wl,--wrap=read (tests/collectors.mk) so that a read can
 * fail the way /proc fails it: EACCES for another user's io file, ESRCH
 * for a process that exited after its file was opened. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/procio.h"
#include "util/readfile.h"
#include "util/scan.h"
#include "tw_check.h"
#include "util/error.h"

/* A string literal and its length, NULs included. */
#define TXT(s) (s), sizeof(s) - 1
/* Fields 3 to 21 of a stat line, after the command name. */
#define F3_21 "S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0"
#define STAT_START(s) tw_procio_parse_stat(TXT(s), &pp, &st)

ssize_t __real_read(int fd, void *buf, size_t n);
ssize_t __wrap_read(int fd, void *buf, size_t n);

/* Reads of the file with inode fail_ino fail with fail_errno; first, when
 * vanish_from is set, that path is renamed away, as if the process had
 * been reaped. */
static ino_t fail_ino;
static int fail_errno;
static char vanish_from[4096], vanish_to[4096];

ssize_t
__wrap_read(int fd, void *buf, size_t n)
{
	struct stat st;

	if (fail_errno != 0 && fstat(fd, &st) == 0 && st.st_ino == fail_ino) {
		if (vanish_from[0] != '\0')
			ck_assert_int_eq(rename(vanish_from, vanish_to), 0);
		errno = fail_errno;
		return -1;
	}
	return __real_read(fd, buf, n);
}

/* A scratch /proc with the given processes, each with a stat and an io. */
struct tmpproc {
	char dir[64];
	int fd;
};

static void
write_at(int dfd, const char *rel, const char *text)
{
	int fd = openat(dfd, rel, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t len = strlen(text);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
}

static void
tmpproc_add(struct tmpproc *t, int pid, uint64_t start, uint64_t rchar, uint64_t rb)
{
	char rel[64], text[512];

	snprintf(rel, sizeof(rel), "%d", pid);
	ck_assert_int_eq(mkdirat(t->fd, rel, 0755), 0);
	snprintf(rel, sizeof(rel), "%d/stat", pid);
	snprintf(text, sizeof(text), "%d (p%d) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 %ju 0 0\n",
	    pid, pid, (uintmax_t)start);
	write_at(t->fd, rel, text);
	snprintf(rel, sizeof(rel), "%d/io", pid);
	snprintf(text, sizeof(text), "rchar: %ju\nwchar: 0\nsyscr: 1\nsyscw: 0\n"
	    "read_bytes: %ju\nwrite_bytes: 0\ncancelled_write_bytes: 0\n",
	    (uintmax_t)rchar, (uintmax_t)rb);
	write_at(t->fd, rel, text);
}

static void
tmpproc_init(struct tmpproc *t)
{
	snprintf(t->dir, sizeof(t->dir), "/tmp/tw_check_procio.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->dir));
	t->fd = open(t->dir, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(t->fd, 0);
}

static void
tmpproc_free(struct tmpproc *t)
{
	char cmd[128];

	close(t->fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	ck_assert_int_eq(system(cmd), 0);
}

static ino_t
inode_at(int dfd, const char *rel)
{
	struct stat st;

	ck_assert_int_eq(fstatat(dfd, rel, &st, 0), 0);
	return st.st_ino;
}

static void
assert_proc(const struct tw_proc_io *p, int32_t pid, uint64_t start, uint64_t rchar,
    uint64_t rb)
{
	ck_assert_int_eq(p->pid, pid);
	ck_assert(p->start_time == start);
	ck_assert(p->rchar == rchar);
	ck_assert(p->read_bytes == rb);
}

START_TEST(test_parse_io)
{
	static const char good[] = "rchar: 178737\nwchar: 207420\nsyscr: 116\nsyscw: 119\n"
	    "read_bytes: 40960\nwrite_bytes: 208896\ncancelled_write_bytes: 225280\n";
	static const char nul[] = "rchar: 5\0\nread_bytes: 6\n";
	uint64_t rc = 0, rb = 0;

	ck_assert_int_eq(tw_procio_parse_io(good, sizeof(good) - 1, &rc, &rb), TW_OK);
	ck_assert_uint_eq(rc, 178737);
	ck_assert_uint_eq(rb, 40960);
	/* Lines we do not need may have any shape. */
	ck_assert_int_eq(tw_procio_parse_io(TXT("junk\n\nread_bytes: 2\nrchar: 1\n"), &rc, &rb),
	    TW_OK);
	ck_assert_uint_eq(rc, 1);
	ck_assert_uint_eq(rb, 2);
	ck_assert_int_eq(tw_procio_parse_io(TXT("rchar: 1\nwchar: 2\n"), &rc, &rb), TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_io(TXT("rchar: x\nread_bytes: 2\n"), &rc, &rb),
	    TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_io(TXT("rchar: 1 2\nread_bytes: 2\n"), &rc, &rb),
	    TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_io(TXT("rchar: 1\nrchar: 1\nread_bytes: 2\n"), &rc, &rb),
	    TW_E_INVAL);
	/* Cut before the newline: "2" might have been "2048". */
	ck_assert_int_eq(tw_procio_parse_io(TXT("rchar: 1\nread_bytes: 2"), &rc, &rb), TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_io(TXT("rchar: 18446744073709551616\nread_bytes: 2\n"),
	    &rc, &rb), TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_io(nul, sizeof(nul) - 1, &rc, &rb), TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_io(TXT(""), &rc, &rb), TW_E_INVAL);
}
END_TEST

START_TEST(test_parse_stat)
{
	static const char real[] = "4242 (bash) S 1 10026 0 0 -1 4194560 1109 0 0 0 0 3 0 0 20 "
	    "0 3 0 59560 5677056 269 18446744073709551615 0\n";
	/* The name holds ") 1 2 3 (", a newline and spaces. */
	static const char tricky[] = "5 (x) 9 9 9\n9 () S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 "
	    "777 0\n";
	static const char at22[] = "5 (a) " F3_21 " 888";
	uint64_t st = 0;
	int32_t pp = 0;

	ck_assert_int_eq(tw_procio_parse_stat(real, sizeof(real) - 1, &pp, &st), TW_OK);
	ck_assert_uint_eq(st, 59560);
	ck_assert_int_eq(pp, 1);
	ck_assert_int_eq(tw_procio_parse_stat(tricky, sizeof(tricky) - 1, &pp, &st), TW_OK);
	ck_assert_uint_eq(st, 777);
	ck_assert_int_eq(pp, 1);
	ck_assert_int_eq(STAT_START("5 (a) S 4321 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 9 0\n"),
	    TW_OK);
	ck_assert_int_eq(pp, 4321);
	ck_assert_uint_eq(st, 9);
	/* A parent pid that is no pid. */
	ck_assert_int_eq(STAT_START("5 (a) S x 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 9 0\n"),
	    TW_E_INVAL);
	ck_assert_int_eq(STAT_START("5 (a) S 2147483648 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 9 0\n"),
	    TW_E_INVAL);
	/* Ending at field 22 is a cut read; a newline or a blank after it is
	 * not. */
	ck_assert_int_eq(tw_procio_parse_stat(at22, sizeof(at22) - 1, &pp, &st), TW_E_INVAL);
	ck_assert_int_eq(STAT_START("5 (a) " F3_21 " 888\n"), TW_OK);
	ck_assert_uint_eq(st, 888);
	ck_assert_int_eq(STAT_START("5 (a) " F3_21 " 889 "), TW_OK);
	ck_assert_uint_eq(st, 889);
	ck_assert_int_eq(STAT_START("5 (a) " F3_21 "\n"), TW_E_INVAL);
	ck_assert_int_eq(STAT_START("5 (a) " F3_21 " x 0\n"), TW_E_INVAL);
	ck_assert_int_eq(STAT_START("5 (a) " F3_21 " 18446744073709551616 0\n"), TW_E_INVAL);
	ck_assert_int_eq(STAT_START("5 a " F3_21 " 5 0\n"), TW_E_INVAL);
	ck_assert_int_eq(STAT_START(""), TW_E_INVAL);
	ck_assert_int_eq(STAT_START(")"), TW_E_INVAL);
	ck_assert_uint_eq(st, 889);
}
END_TEST

START_TEST(test_read_debian12_vm)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_proc_io_set s;
	struct tw_buf b;
	int fd = open(tw_fixture_path("debian12-vm/proc"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_proc_io_set_init(&s);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_procio_read_all(fd, -1, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(s.count, 3);
	ck_assert_uint_eq(s.unreadable, 0);
	ck_assert_uint_eq(ps.lines, 3);
	ck_assert_uint_eq(ps.malformed, 0);
	assert_proc(&s.procs[0], 2, 24, 0, 0);
	assert_proc(&s.procs[1], 11, 24, 0, 0);
	assert_proc(&s.procs[2], 4242, 59560, 178737, 40960);
	tw_buf_free(&b);
	tw_proc_io_set_free(&s);
	ck_assert_ptr_null(s.procs);
	close(fd);
}
END_TEST

START_TEST(test_read_handmade)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_proc_io_set s;
	struct tw_buf b;
	int fd = open(tw_fixture_path("collectors/procio/proc"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_proc_io_set_init(&s);
	tw_buf_init(&b);
	/* 300 has no io and 600 no files (both gone), 400's stat is cut
	 * short, 500's io lacks read_bytes; 0123, 99999999999 and self are
	 * not processes. */
	ck_assert_int_eq(tw_procio_read_all(fd, -1, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(s.count, 3);
	ck_assert_uint_eq(s.unreadable, 0);
	ck_assert_uint_eq(ps.lines, 5);
	ck_assert_uint_eq(ps.malformed, 2);
	assert_proc(&s.procs[0], 7, 24, 0, 0);
	assert_proc(&s.procs[1], 100, 5000, 123456, 4096);
	assert_proc(&s.procs[2], 200, 987654321, UINT64_MAX, UINT64_MAX);

	/* Ourselves excluded; the set and unreadable are cleared first. */
	s.unreadable = 9;
	ck_assert_int_eq(tw_procio_read_all(fd, 100, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(s.count, 2);
	ck_assert_uint_eq(s.unreadable, 0);
	ck_assert_int_eq(s.procs[0].pid, 7);
	ck_assert_int_eq(s.procs[1].pid, 200);
	ck_assert_uint_eq(ps.lines, 9);
	ck_assert_uint_eq(ps.malformed, 4);

	ck_assert_int_eq(tw_procio_read_all(-1, -1, &b, &s, &ps), TW_E_ABSENT);
	ck_assert_uint_eq(s.count, 0);
	tw_buf_free(&b);
	tw_proc_io_set_free(&s);
	close(fd);
}
END_TEST

START_TEST(test_unreadable_and_gone)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_proc_io_set s;
	struct tw_buf b;
	struct tmpproc t;

	tmpproc_init(&t);
	tmpproc_add(&t, 10, 100, 1000, 10);
	tmpproc_add(&t, 11, 110, 1100, 11);
	tmpproc_add(&t, 12, 120, 1200, 12);
	tw_proc_io_set_init(&s);
	tw_buf_init(&b);

	/* Another user's process: its io read fails with EACCES. */
	fail_ino = inode_at(t.fd, "11/io");
	fail_errno = EACCES;
	ck_assert_int_eq(tw_procio_read_all(t.fd, -1, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(s.count, 2);
	ck_assert_uint_eq(s.unreadable, 1);
	assert_proc(&s.procs[0], 10, 100, 1000, 10);
	assert_proc(&s.procs[1], 12, 120, 1200, 12);
	ck_assert_uint_eq(ps.malformed, 0);

	/* ESRCH while the process is still listed: counted as unreadable. */
	fail_ino = inode_at(t.fd, "12/stat");
	fail_errno = ESRCH;
	ck_assert_int_eq(tw_procio_read_all(t.fd, -1, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(s.count, 2);
	ck_assert_uint_eq(s.unreadable, 1);
	ck_assert_int_eq(s.procs[1].pid, 11);

	/* ESRCH because it was reaped meanwhile: skipped without a trace. */
	fail_ino = inode_at(t.fd, "10/io");
	snprintf(vanish_from, sizeof(vanish_from), "%s/10", t.dir);
	snprintf(vanish_to, sizeof(vanish_to), "%s/reaped", t.dir);
	ck_assert_int_eq(tw_procio_read_all(t.fd, -1, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(s.count, 2);
	ck_assert_uint_eq(s.unreadable, 0);
	ck_assert_int_eq(s.procs[0].pid, 11);
	ck_assert_int_eq(s.procs[1].pid, 12);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(ps.lines, 6);
	vanish_from[0] = '\0';
	fail_errno = 0;

	tw_buf_free(&b);
	tw_proc_io_set_free(&s);
	tmpproc_free(&t);
}
END_TEST

START_TEST(test_many_sorted)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_proc_io_set s;
	struct tw_buf b;
	struct tmpproc t;
	size_t i;
	int pid;

	tmpproc_init(&t);
	/* Created out of order, listed in whatever order the file system
	 * keeps, returned sorted; 150 is past the first allocation. */
	for (pid = 150; pid >= 1; pid--)
		tmpproc_add(&t, (pid * 7919) % 1000 + 1, (uint64_t)pid, (uint64_t)pid * 2,
		    (uint64_t)pid);
	tw_proc_io_set_init(&s);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_procio_read_all(t.fd, -1, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(s.count, 150);
	ck_assert_uint_eq(ps.lines, 150);
	for (i = 1; i < s.count; i++)
		ck_assert_int_lt(s.procs[i - 1].pid, s.procs[i].pid);
	for (i = 0; i < s.count; i++) {
		ck_assert_int_eq((int)((s.procs[i].start_time * 7919) % 1000 + 1), s.procs[i].pid);
		ck_assert_uint_eq(s.procs[i].rchar, 2 * s.procs[i].start_time);
	}
	tw_buf_free(&b);
	tw_proc_io_set_free(&s);
	tmpproc_free(&t);
}
END_TEST

/* /proc/uptime in clock ticks, rounded down; anything cut or odd is
 * refused. */
START_TEST(test_parse_uptime)
{
	uint64_t t = 7;

	ck_assert_int_eq(tw_procio_parse_uptime(TXT("5155.73 9918.42\n"), 100, &t), TW_OK);
	ck_assert_uint_eq(t, 515573);
	ck_assert_int_eq(tw_procio_parse_uptime(TXT("5155.73 9918.42\n"), 1000, &t), TW_OK);
	ck_assert_uint_eq(t, 5155730);
	/* 0.07 s at 32 Hz is 2.24 ticks: 2. */
	ck_assert_int_eq(tw_procio_parse_uptime(TXT("0.07 0.00\n"), 32, &t), TW_OK);
	ck_assert_uint_eq(t, 2);
	ck_assert_int_eq(tw_procio_parse_uptime(TXT("12 3\n"), 100, &t), TW_OK);
	ck_assert_uint_eq(t, 1200);
	t = 7;
	ck_assert_int_eq(tw_procio_parse_uptime(TXT("5155.73 9918.42"), 100, &t), TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_uptime(TXT("5155.73\n"), 100, &t), TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_uptime(TXT("5155.73 1 2\n"), 100, &t), TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_uptime(TXT("5155.734 1\n"), 100, &t), TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_uptime(TXT("-5.00 1\n"), 100, &t), TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_uptime(TXT("x 1\n"), 100, &t), TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_uptime(TXT("\n"), 100, &t), TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_uptime(TXT(""), 100, &t), TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_uptime(TXT("5.00 1\n"), 0, &t), TW_E_INVAL);
	ck_assert_int_eq(tw_procio_parse_uptime(TXT("184467440737095516.15 1\n"), 100, &t),
	    TW_E_INVAL);
	ck_assert_uint_eq(t, 7);
}
END_TEST

/* A scan reads /proc/uptime first: one more line, and malformed when it
 * does not parse; without it the start of the scan is unknown. */
START_TEST(test_read_uptime)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_proc_io_set s;
	struct tw_buf b;
	struct tmpproc t;
	uint64_t hz = (uint64_t)sysconf(_SC_CLK_TCK);

	tmpproc_init(&t);
	tmpproc_add(&t, 10, 100, 1000, 10);
	tw_proc_io_set_init(&s);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_procio_read_all(t.fd, -1, &b, &s, &ps), TW_OK);
	ck_assert_int_eq(s.have_uptime, 0);
	ck_assert_uint_eq(ps.lines, 1);

	write_at(t.fd, "uptime", "42.50 80.00\n");
	ck_assert_int_eq(tw_procio_read_all(t.fd, -1, &b, &s, &ps), TW_OK);
	ck_assert_int_eq(s.have_uptime, 1);
	ck_assert_uint_eq(s.uptime_ticks, 4250 * hz / 100);
	ck_assert_uint_eq(s.count, 1);
	ck_assert_uint_eq(ps.lines, 3);
	ck_assert_uint_eq(ps.malformed, 0);

	write_at(t.fd, "uptime", "42.50");
	ck_assert_int_eq(tw_procio_read_all(t.fd, -1, &b, &s, &ps), TW_OK);
	ck_assert_int_eq(s.have_uptime, 0);
	ck_assert_uint_eq(s.uptime_ticks, 0);
	ck_assert_uint_eq(s.count, 1);
	ck_assert_uint_eq(ps.lines, 5);
	ck_assert_uint_eq(ps.malformed, 1);
	tw_buf_free(&b);
	tw_proc_io_set_free(&s);
	tmpproc_free(&t);
}
END_TEST

static Suite *
procio_suite(void)
{
	Suite *s = suite_create("procio");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_io);
	tcase_add_test(tc, test_parse_stat);
	tcase_add_test(tc, test_read_debian12_vm);
	tcase_add_test(tc, test_read_handmade);
	tcase_add_test(tc, test_unreadable_and_gone);
	tcase_add_test(tc, test_many_sorted);
	tcase_add_test(tc, test_parse_uptime);
	tcase_add_test(tc, test_read_uptime);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(procio_suite());
}
