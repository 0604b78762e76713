/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/collect/cgfiles.c on the real kernel: a cgroup's
 * file set is the cached and evicted pages of the regular files its
 * processes hold open for reading, its descendants' included, each file
 * once; a file open only for writing, a pipe and a directory are not
 * counted; a proc root that is not procfs measures nothing. The "cgroup"
 * is a directory of the test's own with a cgroup.procs, as a cgroup's
 * directory has: the collector reads nothing else of it. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collect/cgfiles.h"
#include "tw_check.h"
#include "util/error.h"

#define MIB (1024 * 1024)

static char dir[64];

/* A file of mib MiB in the test's directory, read whole (so cached),
 * opened as flags. */
static int
file_of(const char *name, int mib, int flags)
{
	char path[128], buf[65536];
	int fd, i;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < mib * 16; i++)
		ck_assert_int_eq(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	ck_assert_int_eq(fsync(fd), 0);
	close(fd);
	fd = open(path, flags | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	if ((flags & O_ACCMODE) != O_WRONLY)
		while (read(fd, buf, sizeof(buf)) > 0)
			continue;
	return fd;
}

static void
procs_file(const char *sub, pid_t pid)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s/cgroup.procs", dir, sub);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	if (pid > 0)
		fprintf(f, "%d\n", (int)pid);
	fclose(f);
}

/* A process that holds open only the n descriptors of keep (the test's
 * own, libcheck's among them, are closed) and waits to be killed; it is
 * returned once it has closed the rest. */
static pid_t
holder(const int *keep, size_t n)
{
	int ready[2], fd;
	pid_t pid;
	size_t i;
	char c;

	ck_assert_int_eq(pipe(ready), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid > 0) {
		close(ready[1]);
		ck_assert_int_eq(read(ready[0], &c, 1), 1);
		close(ready[0]);
		return pid;
	}
	for (fd = 0; fd < 1024; fd++) {
		for (i = 0; i < n && keep[i] != fd; i++)
			continue;
		if (i == n && fd != ready[1])
			close(fd);
	}
	c = 'r';
	if (write(ready[1], &c, 1) != 1)
		_exit(1);
	close(ready[1]);
	pause();
	_exit(0);
}

static int
have_cachestat(void)
{
	uint64_t range[2] = { 0, 0 }, cs[5];
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), ok;

	ok = fd >= 0 && (syscall(451, fd, range, cs, 0) == 0 || errno != ENOSYS);
	if (fd >= 0)
		close(fd);
	return ok;
}

START_TEST(test_file_set)
{
	struct tw_cg_fileset fs;
	struct tw_buf b;
	int proc, cg, pipefd[2], a, a2, w, d, child_fd, held[6];
	pid_t parent, child;
	char sub[160];

	if (!have_cachestat()) {
		printf("skip: this kernel has no cachestat(2) (Linux 6.5)\n");
		return;
	}
	snprintf(dir, sizeof(dir), "/var/tmp/tw-check-cgfiles-%d", (int)getpid());
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	snprintf(sub, sizeof(sub), "%s/child", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	/* One process's: 3 MiB read, the same file again (counted once), 5 MiB
	 * written only, a pipe and a directory. */
	a = file_of("read", 3, O_RDONLY);
	a2 = open("/dev/null", O_RDONLY);	/* a device: not a regular file */
	ck_assert_int_ge(a2, 0);
	close(a2);
	{
		char path[128];

		snprintf(path, sizeof(path), "%s/read", dir);
		a2 = open(path, O_RDONLY | O_CLOEXEC);
		ck_assert_int_ge(a2, 0);
	}
	w = file_of("written", 5, O_WRONLY);
	ck_assert_int_eq(pipe(pipefd), 0);
	d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(d, 0);
	held[0] = a, held[1] = a2, held[2] = w, held[3] = pipefd[0], held[4] = pipefd[1];
	held[5] = d;
	parent = holder(held, 6);
	/* A child in the child cgroup: 2 MiB, read and written. */
	child_fd = file_of("child-rw", 2, O_RDWR);
	child = holder(&child_fd, 1);
	close(child_fd);
	procs_file("", parent);
	procs_file("/child", child);

	tw_buf_init(&b);
	proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cg = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_eq(tw_cgroup_fileset(cg, proc, &b, &fs), TW_OK);
	ck_assert_uint_eq(fs.procs, 2);
	ck_assert_uint_eq(fs.files, 2);
	ck_assert_uint_eq(fs.bytes, 5 * MIB);
	ck_assert_int_eq(fs.cut, 0);

	/* The child cgroup alone: its own file. */
	{
		int c2 = open(sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		ck_assert_int_eq(tw_cgroup_fileset(c2, proc, &b, &fs), TW_OK);
		ck_assert_uint_eq(fs.procs, 1);
		ck_assert_uint_eq(fs.bytes, 2 * MIB);
		close(c2);
	}
	/* Through a proc root that is not procfs (a fixture's): nothing,
	 * whatever pids its cgroup names. */
	ck_assert_int_eq(tw_cgroup_fileset(cg, d, &b, &fs), TW_E_ABSENT);
	ck_assert_uint_eq(fs.bytes, 0);
	/* No process: nothing measured. */
	procs_file("", 0);
	procs_file("/child", 0);
	ck_assert_int_eq(tw_cgroup_fileset(cg, proc, &b, &fs), TW_E_ABSENT);

	kill(child, SIGKILL);
	kill(parent, SIGKILL);
	waitpid(child, NULL, 0);
	waitpid(parent, NULL, 0);
	close(a);
	close(a2);
	close(w);
	close(pipefd[0]);
	close(pipefd[1]);
	close(d);
	close(cg);
	close(proc);
	tw_buf_free(&b);
	{
		static const char *const names[] = { "read", "written", "child-rw",
		    "cgroup.procs", "child/cgroup.procs" };
		char path[160];
		size_t i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			unlink(path);
		}
	}
	rmdir(sub);
	rmdir(dir);
}
END_TEST

static Suite *
cgfiles_suite(void)
{
	Suite *s = suite_create("cgfiles");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_file_set);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(cgfiles_suite());
}
