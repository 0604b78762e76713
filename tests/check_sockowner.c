#include "config.h"

/* Unit tests for lib/collect/sockowner.c on proc roots made by the test
 * (tw_fakeproc.h).
 *
 * A budget of 1 ns makes a run stop at its first look at the clock, after
 * a fixed number of fds and processes (CLOCK_EVERY, 32: one a process and
 * one a fd), so where a run stops does not hang on the machine's speed.
 * The fixture's directories may list fds in any order (ext4 hashes the
 * names); where that matters the test reads the listing itself. */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/sockowner.h"
#include "tw_check.h"
#include "tw_fakeproc.h"
#include "util/error.h"

#define MANY 2000	/* about 50,000 bytes of entries: 4 buffers */
#define STOP_NOW 1	/* ns: stop at the first look at the clock */
#define CLOCK_EVERY 32	/* as sockowner.c */

static struct tw_owner_scan
run(struct tw_fakeproc *fp, struct tw_owner_cursor *c, struct tw_owner_want *w, size_t n,
    uint64_t budget_ns, unsigned max_procs)
{
	struct tw_owner_limits lim = { .budget_ns = budget_ns, .max_procs = max_procs };
	struct tw_owner_scan scan;

	ck_assert_int_eq(tw_sockowner_run(fp->fd, c, w, n, &lim, &scan), TW_OK);
	return scan;
}

/* Processes first..first+n-1, each with 9 fds linking to sockets
 * inode0 + 9 * i + 0..8. */
static void
processes(struct tw_fakeproc *fp, int first, int n, unsigned inode0)
{
	unsigned fds[9];
	int i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < 9; j++)
			fds[j] = inode0 + 9u * (unsigned)i + (unsigned)j;
		tw_fakeproc_process(fp, first + i, "worker", fds, 9);
	}
}

static void
remove_process(struct tw_fakeproc *fp, int pid)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/%d'", fp->dir, pid);
	ck_assert_int_eq(system(cmd), 0);
}

/* Without a budget one run is a whole search: sockets at the start, the
 * middle and the end of a long listing are all found, every fd is looked
 * at when one is absent, and a socket two processes hold goes to the
 * lower pid. */
START_TEST(test_whole_search)
{
	static const uint32_t want[4] = { 3000, 3000 + MANY / 2, 3000 + MANY - 1, 9999 };
	struct tw_owner_want w[4];
	struct tw_owner_cursor c = { 0 };
	struct tw_owner_scan scan;
	struct tw_fakeproc fp;
	unsigned *fds = calloc(MANY, sizeof(*fds));
	unsigned shared[1] = { 3000 + MANY / 2 };
	size_t i;

	ck_assert_ptr_nonnull(fds);
	for (i = 0; i < MANY; i++)
		fds[i] = 3000 + (unsigned)i;
	tw_fakeproc_open(&fp);
	tw_fakeproc_process(&fp, 20, "child", shared, 1);
	tw_fakeproc_process(&fp, 10, "busy", fds, MANY);
	for (i = 0; i < 4; i++)
		tw_sockowner_join(&c, want[i], &w[i]);
	scan = run(&fp, &c, w, 4, 0, 100);
	ck_assert_int_eq(w[0].state, TW_OWNER_FOUND);
	ck_assert_int_eq(w[0].owner.pid, 10);
	ck_assert_int_eq(w[1].owner.pid, 10);	/* pid 10 before 20 */
	ck_assert_int_eq(w[2].owner.pid, 10);
	ck_assert_str_eq(w[2].owner.comm, "busy");
	ck_assert_int_eq(w[3].state, TW_OWNER_NOT_FOUND);	/* no process holds 9999 */
	ck_assert_int_eq(w[3].owner.pid, 0);
	ck_assert_uint_eq(scan.listed, 2);
	ck_assert_uint_eq(scan.procs, 2);
	ck_assert_uint_eq(scan.fds, MANY + 1);	/* every fd, past the first buffer */
	ck_assert_int_eq(scan.stopped, 0);
	/* The search is over: the next starts at the lowest pid. */
	ck_assert_int_eq(c.pid, 0);
	ck_assert_int_eq(c.searching, 0);
	free(fds);
	tw_fakeproc_close(&fp);
}
END_TEST

/* A comm is whatever its process set with prctl(PR_SET_NAME): any 15
 * bytes but NUL. The owner's command is shown (util/escape.h), with the
 * newlines and blanks of its own; only the kernel's newline goes. */
START_TEST(test_forged_comm)
{
	static const struct {
		const char *comm, *shown;
	} cases[] = {
		{ "\n  apply: id;#", "\\x0a  apply: id;#" },
		{ "x\ntune: sysctl", "x\\x0atune: sysctl" },
		{ "ok\rBUFCACHE OK", "ok\\x0dBUFCACHE OK" },
		{ "\x1b[2J", "\\x1b[2J" },
		{ "a\xff\\x0a  ", "a\\xff\\x5cx0a  " },
		{ "ends\n", "ends\\x0a" },
	};
	struct tw_owner_want w[6];
	struct tw_owner_cursor c = { 0 };
	struct tw_fakeproc fp;
	size_t i;

	tw_fakeproc_open(&fp);
	for (i = 0; i < 6; i++) {
		unsigned inode = 7000 + (unsigned)i;

		tw_fakeproc_process(&fp, 10 + (int)i, cases[i].comm, &inode, 1);
		tw_sockowner_join(&c, inode, &w[i]);
	}
	run(&fp, &c, w, 6, 0, 100);
	for (i = 0; i < 6; i++) {
		ck_assert_int_eq(w[i].state, TW_OWNER_FOUND);
		ck_assert_str_eq(w[i].owner.comm, cases[i].shown);
	}
	tw_fakeproc_close(&fp);
}
END_TEST

/* A budget stops the run; the next resumes at the process it stopped in
 * and finds the socket there: found across two runs. */
START_TEST(test_budget_resumes)
{
	struct tw_owner_want w;
	struct tw_owner_cursor c = { 0 };
	struct tw_owner_scan scan;
	struct tw_fakeproc fp;

	tw_fakeproc_open(&fp);
	processes(&fp, 100, 6, 5000);	/* pid 104 holds 5036..5044 */
	tw_sockowner_join(&c, 5040, &w);
	/* 10 looks a process (itself and 9 fds): 100-102 whole, and 103
	 * opened, its first fd not read. */
	scan = run(&fp, &c, &w, 1, STOP_NOW, 100);
	ck_assert_int_eq(scan.stopped, 1);
	ck_assert_uint_eq(scan.procs, 4);
	ck_assert_uint_eq(scan.fds, 27);
	ck_assert_int_eq(w.state, TW_OWNER_SEARCHING);
	ck_assert_int_eq(c.pid, 103);
	ck_assert_int_eq(c.fd, 0);

	scan = run(&fp, &c, &w, 1, STOP_NOW, 100);
	ck_assert_int_eq(scan.stopped, 0);
	ck_assert_int_eq(w.state, TW_OWNER_FOUND);
	ck_assert_int_eq(w.owner.pid, 104);
	ck_assert_str_eq(w.owner.comm, "worker");
	ck_assert_uint_eq(scan.procs, 2);	/* 103 and 104 */
	ck_assert_uint_le(scan.fds, 18);
	ck_assert_int_eq(c.pid, 0);		/* over: back to the start */
	tw_fakeproc_close(&fp);
}
END_TEST

/* The fd numbers of a fixture process, in the directory's order. */
static size_t
listing(struct tw_fakeproc *fp, int pid, int32_t *out, size_t max)
{
	char path[128];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%d/fd", fp->dir, pid);
	ck_assert_ptr_nonnull(d = opendir(path));
	while ((de = readdir(d)) != NULL && n < max)
		if (de->d_name[0] != '.')
			out[n++] = (int32_t)strtol(de->d_name, NULL, 10);
	closedir(d);
	return n;
}

/* Stopped inside a process, the next run reads it from the lowest fd not
 * read yet, and only from there; a whole pass that finds nothing settles
 * the socket as not found, after every process was read once. */
START_TEST(test_resume_inside_process)
{
	struct tw_owner_want w;
	struct tw_owner_cursor c = { 0 };
	struct tw_owner_scan scan;
	struct tw_fakeproc fp;
	unsigned fds[40];
	int32_t order[40];
	int32_t lowest = 40;
	size_t i, n, rest = 0;

	for (i = 0; i < 40; i++)
		fds[i] = 7000 + (unsigned)i;
	tw_fakeproc_open(&fp);
	tw_fakeproc_process(&fp, 50, "big", fds, 40);
	processes(&fp, 60, 2, 8000);
	n = listing(&fp, 50, order, 40);
	ck_assert_uint_eq(n, 40);
	/* One look for the process, then CLOCK_EVERY - 2 fds read. */
	for (i = CLOCK_EVERY - 2; i < n; i++)
		lowest = order[i] < lowest ? order[i] : lowest;
	for (i = 0; i < n; i++)
		rest += order[i] >= lowest;

	tw_sockowner_join(&c, 1, &w);	/* held by none */
	scan = run(&fp, &c, &w, 1, STOP_NOW, 100);
	ck_assert_uint_eq(scan.fds, CLOCK_EVERY - 2);
	ck_assert_int_eq(c.pid, 50);
	ck_assert_int_eq(c.fd, lowest);
	ck_assert_int_eq(w.state, TW_OWNER_SEARCHING);

	scan = run(&fp, &c, &w, 1, 0, 100);	/* no budget: to the end */
	ck_assert_uint_eq(scan.fds, rest + 18);
	ck_assert_uint_eq(scan.procs, 3);
	ck_assert_int_eq(w.state, TW_OWNER_NOT_FOUND);
	ck_assert_uint_eq(c.reads - w.reads, 3);	/* each process once */
	tw_fakeproc_close(&fp);
}
END_TEST

/* The process the last run stopped in has gone: the next run begins at
 * the next pid, and reads all of it. */
START_TEST(test_process_vanished)
{
	struct tw_owner_want w;
	struct tw_owner_cursor c = { 0 };
	struct tw_owner_scan scan;
	struct tw_fakeproc fp;

	tw_fakeproc_open(&fp);
	processes(&fp, 100, 5, 5000);	/* 5000: pid 100's fd with the lowest inode */
	tw_sockowner_join(&c, 5000 + 9 * 4, &w);	/* pid 104 */
	scan = run(&fp, &c, &w, 1, STOP_NOW, 100);
	ck_assert_int_eq(c.pid, 103);
	remove_process(&fp, 103);
	/* As if it had stopped deep inside 103: fd 5 is not 104's to skip. */
	c.fd = 5;
	scan = run(&fp, &c, &w, 1, 0, 100);
	ck_assert_int_eq(w.state, TW_OWNER_FOUND);
	ck_assert_int_eq(w.owner.pid, 104);
	ck_assert_uint_eq(scan.procs, 1);
	ck_assert_uint_eq(scan.listed, 4);
	tw_fakeproc_close(&fp);
}
END_TEST

/* Process pid called comm with 40 fds, each a socket no one looks for,
 * made so that a run stopped by STOP_NOW inside it stops above its lowest
 * fd, whatever order the directory lists them in: of the fds such a run
 * does not reach (one look for the process, then CLOCK_EVERY - 2 fds),
 * those below the lowest it reads are removed. The fds left, in *left;
 * the fd the run stops at, the lowest it did not read, is returned. */
static int32_t
process_stopped_inside(struct tw_fakeproc *fp, int pid, const char *comm, size_t *left)
{
	unsigned fds[40];
	int32_t order[40], lowest_read = INT32_MAX, stop = INT32_MAX;
	char path[64];
	size_t i, n;

	for (i = 0; i < 40; i++)
		fds[i] = 7000 + (unsigned)i;
	tw_fakeproc_process(fp, pid, comm, fds, 40);
	n = listing(fp, pid, order, 40);
	ck_assert_uint_eq(n, 40);
	for (i = 0; i < CLOCK_EVERY - 2; i++)
		lowest_read = order[i] < lowest_read ? order[i] : lowest_read;
	*left = n;
	for (i = CLOCK_EVERY - 2; i < n; i++) {
		if (order[i] > lowest_read) {
			stop = order[i] < stop ? order[i] : stop;
			continue;
		}
		snprintf(path, sizeof(path), "%d/fd/%d", pid, (int)order[i]);
		ck_assert_int_eq(unlinkat(fp->fd, path, 0), 0);
		(*left)--;
	}
	/* Nothing is left above only if the run read none of fds 0-9: one
	 * order in C(40, 10), 847,660,528. */
	ck_assert_int_ne(stop, INT32_MAX);
	return stop;
}

/* The process the last run stopped in exited and its pid went to another
 * process before the next run: that one is read from its first fd, where
 * it holds the socket, not from the fd the old one was left at. */
START_TEST(test_pid_reused)
{
	static const unsigned fresh[1] = { 9000 };
	struct tw_owner_want w;
	struct tw_owner_cursor c = { 0 };
	struct tw_owner_scan scan;
	struct tw_fakeproc fp;
	size_t left;
	int32_t stop;

	tw_fakeproc_open(&fp);
	stop = process_stopped_inside(&fp, 50, "old", &left);
	processes(&fp, 60, 2, 8000);
	tw_sockowner_join(&c, 9000, &w);
	run(&fp, &c, &w, 1, STOP_NOW, 100);
	ck_assert_int_eq(c.pid, 50);
	ck_assert_int_eq(c.fd, stop);
	ck_assert_int_eq(w.state, TW_OWNER_SEARCHING);

	remove_process(&fp, 50);
	tw_fakeproc_process(&fp, 50, "new", fresh, 1);	/* fd 0, a later start time */
	scan = run(&fp, &c, &w, 1, 0, 100);
	ck_assert_int_eq(w.state, TW_OWNER_FOUND);
	ck_assert_int_eq(w.owner.pid, 50);
	ck_assert_str_eq(w.owner.comm, "new");
	ck_assert_uint_eq(scan.procs, 1);
	ck_assert_uint_eq(scan.fds, 1);
	tw_fakeproc_close(&fp);
}
END_TEST

/* What the stat of the process at the cursor says decides whether the
 * next run goes on inside it: the same start time behind a command name
 * with spaces and ')' (fields are counted from the last ')') goes on
 * where the run stopped; a stat that is cut, garbled or gone cannot show
 * it is the same process, so it is read again from its first fd. */
START_TEST(test_cursor_identity)
{
	/* Each stat is head, then the process's start time, then tail; a
	 * NULL tail: head alone; a NULL head: the file removed. */
	static const struct {
		const char *head, *tail;
		int same;
	} cases[] = {
		/* The same start time, ')' and spaces in the command. */
		{ "50 (a) b ) (c) S 1 50 50 0 -1 4194560 112 0 0 0 3 1 0 0 20 0 1 0 ",
		  " 8482816 896 0 0 0 0\n", 1 },
		/* Cut after the start time, or before it. */
		{ "50 (old) S 1 50 50 0 -1 4194560 112 0 0 0 3 1 0 0 20 0 1 0 ", "", 0 },
		{ "50 (old) S 1 50 50 0 -1 4194560 112 0 0 0 3 1 0 0 20 0 1 0\n", NULL, 0 },
		/* No ')'; a start time that is not a number; empty; gone. */
		{ "50 (old S 1 50 50 0 -1 4194560 112 0 0 0 3 1 0 0 20 0 1 0 ", " 0\n", 0 },
		{ "50 (old) S 1 50 50 0 -1 4194560 112 0 0 0 3 1 0 0 20 0 1 0 x", " 0\n", 0 },
		{ "", NULL, 0 },
		{ NULL, NULL, 0 },
	};
	struct tw_owner_want w;
	struct tw_owner_cursor c;
	struct tw_owner_scan scan;
	struct tw_fakeproc fp;
	unsigned long long start;
	int32_t order[40], stop;
	size_t i, n, left, rest = 0;
	char text[256];

	tw_fakeproc_open(&fp);
	stop = process_stopped_inside(&fp, 50, "old", &left);
	start = fp.start_time;
	processes(&fp, 60, 2, 8000);
	n = listing(&fp, 50, order, 40);
	ck_assert_uint_eq(n, left);
	for (i = 0; i < n; i++)
		rest += order[i] >= stop;
	ck_assert_uint_lt(rest, n);	/* resumed reads fewer than all */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&c, 0, sizeof(c));
		tw_fakeproc_stat(&fp, 50, "old", start);
		tw_sockowner_join(&c, 1, &w);	/* held by none */
		run(&fp, &c, &w, 1, STOP_NOW, 100);
		ck_assert_int_eq(c.pid, 50);
		ck_assert_int_eq(c.fd, stop);
		if (cases[i].head == NULL) {
			ck_assert_int_eq(unlinkat(fp.fd, "50/stat", 0), 0);
		} else if (cases[i].tail == NULL) {
			tw_fakeproc_file(&fp, "50/stat", cases[i].head);
		} else {
			snprintf(text, sizeof(text), "%s%llu%s", cases[i].head, start, cases[i].tail);
			tw_fakeproc_file(&fp, "50/stat", text);
		}
		scan = run(&fp, &c, &w, 1, 0, 100);
		ck_assert_msg(scan.fds == (cases[i].same ? rest : n) + 18,
		    "case %zu: %llu fds read, want %zu", i, (unsigned long long)scan.fds,
		    (cases[i].same ? rest : n) + 18);
		ck_assert_int_eq(w.state, TW_OWNER_NOT_FOUND);
	}
	tw_fakeproc_close(&fp);
}
END_TEST

/* A stat that cannot be read when a run stops inside a process: nothing
 * would show the next run that the pid is still that process, so the
 * cursor is left at its first fd. */
START_TEST(test_cursor_without_stat)
{
	struct tw_owner_want w;
	struct tw_owner_cursor c = { 0 };
	struct tw_fakeproc fp;
	size_t left;

	tw_fakeproc_open(&fp);
	process_stopped_inside(&fp, 50, "old", &left);
	ck_assert_int_eq(unlinkat(fp.fd, "50/stat", 0), 0);
	tw_sockowner_join(&c, 1, &w);
	run(&fp, &c, &w, 1, STOP_NOW, 100);
	ck_assert_int_eq(c.pid, 50);
	ck_assert_int_eq(c.fd, 0);
	ck_assert_int_eq(w.state, TW_OWNER_SEARCHING);
	tw_fakeproc_close(&fp);
}
END_TEST

/* A socket that joins a pass under way is looked for from there round
 * past the end of /proc to where it joined: found in a process before
 * that point after the wrap, or not found once it is back there; the
 * first socket's pass ends at the wrap. */
START_TEST(test_join_midpass_and_wrap)
{
	struct tw_owner_want w[3];
	struct tw_owner_cursor c = { 0 };
	struct tw_owner_scan scan;
	struct tw_fakeproc fp;
	uint64_t reads;

	tw_fakeproc_open(&fp);
	processes(&fp, 100, 5, 5000);
	tw_sockowner_join(&c, 1, &w[0]);		/* held by none */
	scan = run(&fp, &c, w, 1, STOP_NOW, 100);	/* stops in 103 */
	ck_assert_int_eq(c.pid, 103);
	reads = c.reads;
	tw_sockowner_join(&c, 2, &w[1]);		/* held by none */
	tw_sockowner_join(&c, 5000 + 9 * 1 + 4, &w[2]);	/* pid 101's */
	scan = run(&fp, &c, w, 3, 0, 100);
	ck_assert_int_eq(scan.stopped, 0);
	ck_assert_int_eq(w[0].state, TW_OWNER_NOT_FOUND);
	ck_assert_int_eq(w[2].state, TW_OWNER_FOUND);
	ck_assert_int_eq(w[2].owner.pid, 101);
	ck_assert_int_eq(w[1].state, TW_OWNER_NOT_FOUND);
	/* 103, 104, wrap, 100, 101, 102: each process once for socket 2. */
	ck_assert_uint_eq(c.reads - reads, 5);
	ck_assert_uint_eq(scan.procs, 5);
	ck_assert_uint_eq(c.lap, 1);
	tw_fakeproc_close(&fp);
}
END_TEST

/* Past max_procs processes a socket's pass is cut; the next search for
 * it goes on from there rather than from the lowest pid. */
START_TEST(test_cut_goes_on)
{
	struct tw_owner_want w;
	struct tw_owner_cursor c = { 0 };
	struct tw_owner_scan scan;
	struct tw_fakeproc fp;

	tw_fakeproc_open(&fp);
	processes(&fp, 100, 5, 5000);
	tw_sockowner_join(&c, 5000 + 9 * 3, &w);	/* pid 103's */
	scan = run(&fp, &c, &w, 1, 0, 2);
	ck_assert_int_eq(w.state, TW_OWNER_CUT);
	ck_assert_uint_eq(scan.procs, 2);
	ck_assert_int_eq(c.pid, 102);
	ck_assert_int_eq(c.searching, 0);
	tw_sockowner_join(&c, 5000 + 9 * 3, &w);
	scan = run(&fp, &c, &w, 1, 0, 2);
	ck_assert_int_eq(w.state, TW_OWNER_FOUND);
	ck_assert_int_eq(w.owner.pid, 103);
	ck_assert_uint_eq(scan.procs, 2);		/* 102 and 103 */
	tw_fakeproc_close(&fp);
}
END_TEST

START_TEST(test_parse_link)
{
	uint32_t inode = 0;

	ck_assert_int_eq(tw_sockowner_parse_link("socket:[12345]", 14, &inode), TW_OK);
	ck_assert_uint_eq(inode, 12345);
	ck_assert_int_eq(tw_sockowner_parse_link("socket:[]", 9, &inode), TW_E_INVAL);
	ck_assert_int_eq(tw_sockowner_parse_link("pipe:[12345]", 12, &inode), TW_E_INVAL);
	ck_assert_int_eq(tw_sockowner_parse_link("socket:[4294967296]", 19, &inode),
	    TW_E_INVAL);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sockowner");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_whole_search);
	tcase_add_test(tc, test_forged_comm);
	tcase_add_test(tc, test_budget_resumes);
	tcase_add_test(tc, test_resume_inside_process);
	tcase_add_test(tc, test_process_vanished);
	tcase_add_test(tc, test_pid_reused);
	tcase_add_test(tc, test_cursor_identity);
	tcase_add_test(tc, test_cursor_without_stat);
	tcase_add_test(tc, test_join_midpass_and_wrap);
	tcase_add_test(tc, test_cut_goes_on);
	tcase_add_test(tc, test_parse_link);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
