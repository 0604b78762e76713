/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/sockowner.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect/dents.h"

#include "collect/procio.h"
#include "util/array.h"
#include "util/error.h"
#include "util/readfile.h"
#include "util/scan.h"
#include "util/sorted.h"

/* The thread's CPU clock is read every this many fds and processes, not
 * each: a reading is a system call (about as dear as a readlinkat), so a
 * run overshoots its budget by at most this many fds' work. */
#define CLOCK_EVERY 32

int
tw_sockowner_parse_link(const char *link, size_t len, uint32_t *inode)
{
	static const char prefix[] = "socket:[";
	size_t plen = sizeof(prefix) - 1;
	uint64_t v;

	if (len < plen + 2 || memcmp(link, prefix, plen) != 0 || link[len - 1] != ']' ||
	    tw_parse_u64(link + plen, len - plen - 1, &v) != TW_OK || v > UINT32_MAX)
		return TW_E_INVAL;
	*inode = (uint32_t)v;
	return TW_OK;
}

static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One run: what it looks for and how far it may go. */
struct run {
	int proc_fd;
	struct tw_owner_cursor *c;
	struct tw_owner_want *wants;
	size_t n;
	size_t active;		/* wants still SEARCHING */
	const struct tw_owner_limits *lim;
	struct tw_owner_scan *scan;
	struct tw_dents *d;
	uint64_t t0;
	unsigned units;		/* fds and processes since the clock was read */
	/* Below these nothing can settle, so settle() is not called for
	 * every process: the lowest pid at which a wrapped want's pass ends,
	 * and the reads at which the first want is cut. */
	int32_t stop_pid_min;
	uint64_t reads_min;
};

static int
over_budget(struct run *r)
{
	if (r->lim->budget_ns == 0 || ++r->units < CLOCK_EVERY)
		return 0;
	r->units = 0;
	return thread_cpu_ns() - r->t0 >= r->lim->budget_ns;
}

/* Settle the wants whose pass is over before the process pid is read
 * (pid -1: at a wrap), and work out the thresholds again. */
static void
settle(struct run *r, int32_t pid)
{
	const struct tw_owner_cursor *c = r->c;
	size_t i;

	r->stop_pid_min = INT32_MAX;
	r->reads_min = UINT64_MAX;
	for (i = 0; i < r->n; i++) {
		struct tw_owner_want *w = &r->wants[i];

		if (w->state != TW_OWNER_SEARCHING)
			continue;
		/* A whole pass: round to where it began. */
		if (c->lap >= w->lap + 2 || (c->lap == w->lap + 1 && pid >= w->stop_pid)) {
			w->state = TW_OWNER_NOT_FOUND;
		} else if (c->reads - w->reads >= r->lim->max_procs) {
			w->state = TW_OWNER_CUT;
			r->c->cut = 1;
		} else {
			if (c->lap == w->lap + 1 && w->stop_pid < r->stop_pid_min)
				r->stop_pid_min = w->stop_pid;
			if (w->reads + r->lim->max_procs < r->reads_min)
				r->reads_min = w->reads + r->lim->max_procs;
			continue;
		}
		r->active--;
	}
}

/* The want for inode, or NULL. */
static uint64_t
inode_key(const void *wants, size_t i)
{
	return ((const struct tw_owner_want *)wants)[i].inode;
}

static struct tw_owner_want *
find_want(struct tw_owner_want *wants, size_t n, uint32_t inode)
{
	size_t i = tw_sorted_find(wants, n, inode_key, inode);

	return i < n ? &wants[i] : NULL;
}

/* The budget ran out at fd in a process: the next run reads it from the
 * lowest fd not read yet. procfs lists fds in increasing order, so that is
 * fd itself, and the rest of the listing is most often in the buffer
 * already; other file systems (a fixture's) may list them in any order. */
static int32_t
lowest_unread(int dfd, struct tw_dents *d, int32_t fd, int32_t from_fd)
{
	const char *name;

	while ((name = tw_dents_next(dfd, d)) != NULL) {
		int32_t n = tw_dents_name_number(name);

		if (n >= from_fd && n < fd)
			fd = n;
	}
	return fd;
}

/* The start time of process pid (field 22 of its stat, clock ticks after
 * boot): with the pid, it names one process, as the pid alone does not
 * once the pid is reused. Read only where a run stops inside a process
 * and where the next one resumes there, so a run pays for it at most
 * twice, however many processes it reads. Read after the fds, it would
 * miss a pid reused within those microseconds: the kernel hands a pid out
 * again only after going round all of pid_max. */
static int
start_time(int proc_fd, int32_t pid, uint64_t *out)
{
	char rel[32], text[2048];
	int32_t ppid;
	int rc;

	snprintf(rel, sizeof(rel), "%d/stat", (int)pid);
	if ((rc = tw_read_value_at(proc_fd, rel, text, sizeof(text))) != TW_OK)
		return rc;
	return tw_procio_parse_stat(text, strlen(text), &ppid, out);
}

/* Read one process's fds from fd number from_fd on. Returns 1 when the
 * budget ran out, with the cursor's fd at the lowest one not read; 0 when
 * the process is done (or gone). */
static int
scan_process(struct run *r, int32_t pid, int32_t from_fd)
{
	char rel[32], link[64], comm[TW_COMM_LEN];
	const char *name;
	size_t clen;
	int dfd;

	snprintf(rel, sizeof(rel), "%d/fd", (int)pid);
	dfd = openat(r->proc_fd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		if (errno == EACCES || errno == EPERM)
			r->scan->unreadable++;
		return 0;	/* gone, or a kernel thread's */
	}
	r->scan->procs++;
	tw_dents_reset(r->d);
	while ((name = tw_dents_next(dfd, r->d)) != NULL) {
		struct tw_owner_want *w;
		int32_t fd = tw_dents_name_number(name);
		uint32_t inode;
		ssize_t len;

		if (fd < from_fd)
			continue;	/* "." and "..", or read in an earlier run */
		if (over_budget(r)) {
			r->c->fd = lowest_unread(dfd, r->d, fd, from_fd);
			close(dfd);
			/* Without its start time the next run could not tell
			 * this process from one that got its pid since. */
			if (r->c->fd > 0 &&
			    start_time(r->proc_fd, pid, &r->c->start_time) != TW_OK)
				r->c->fd = 0;
			return 1;
		}
		r->scan->fds++;
		len = readlinkat(dfd, name, link, sizeof(link));
		if (len <= 0 || (size_t)len >= sizeof(link) ||
		    tw_sockowner_parse_link(link, (size_t)len, &inode) != TW_OK ||
		    (w = find_want(r->wants, r->n, inode)) == NULL ||
		    w->state != TW_OWNER_SEARCHING)
			continue;
		w->state = TW_OWNER_FOUND;
		w->owner.pid = pid;
		snprintf(rel, sizeof(rel), "%d/comm", (int)pid);
		if (tw_read_name_at(r->proc_fd, rel, comm, sizeof(comm), &clen) != TW_OK ||
		    tw_escape(w->owner.comm, sizeof(w->owner.comm), comm, clen) != TW_OK)
			w->owner.comm[0] = '\0';
		if (--r->active == 0)
			break;
	}
	close(dfd);
	return 0;
}

void
tw_sockowner_join(struct tw_owner_cursor *c, uint32_t inode, struct tw_owner_want *w)
{
	memset(w, 0, sizeof(*w));
	w->inode = inode;
	w->state = TW_OWNER_SEARCHING;
	/* Begun partway through a process, the pass reads all of it again
	 * at its end: its first fds were read before the socket joined. */
	w->stop_pid = c->fd > 0 ? c->pid + 1 : c->pid;
	w->lap = c->lap;
	w->reads = c->reads;
	c->searching = 1;
}

void
tw_sockowner_idle(struct tw_owner_cursor *c)
{
	if (!c->searching)
		return;
	c->searching = 0;
	if (!c->cut)
		c->pid = c->fd = 0;
	c->cut = 0;
}

struct pid_below {
	const int32_t *pids;
	int32_t pid;
};

static int
pid_below(const void *ctx, size_t i)
{
	const struct pid_below *b = ctx;

	return b->pids[i] < b->pid;
}

/* The first index in pids[n] at or above pid. */
static size_t
lower_bound(const int32_t *pids, size_t n, int32_t pid)
{
	struct pid_below b = { pids, pid };

	return tw_sorted_first(n, pid_below, &b);
}

int
tw_sockowner_run(int proc_fd, struct tw_owner_cursor *c, struct tw_owner_want *wants,
    size_t n, const struct tw_owner_limits *lim, struct tw_owner_scan *scan)
{
	struct run r = { .proc_fd = proc_fd, .c = c, .wants = wants, .n = n, .lim = lim,
	    .scan = scan };
	int32_t *pids = NULL;
	uint64_t started;
	size_t npids, i;
	int rc;

	memset(scan, 0, sizeof(*scan));
	r.t0 = thread_cpu_ns();
	for (i = 0; i < n; i++)
		r.active += wants[i].state == TW_OWNER_SEARCHING;
	if (r.active == 0)
		return TW_OK;
	if (proc_fd < 0)
		return TW_E_ABSENT;
	if ((r.d = malloc(sizeof(*r.d))) == NULL)
		return TW_E_NOMEM;
	if ((rc = tw_dents_list_pids(proc_fd, r.d, &pids, &npids)) != TW_OK) {
		free(r.d);
		return rc;
	}
	scan->listed = (uint32_t)npids;
	i = lower_bound(pids, npids, c->pid);
	/* The process it stopped in is gone, or its pid is another's now (a
	 * stat we cannot read or parse cannot show it is the same): that
	 * pid's fds are all unread. */
	if (c->fd > 0 && (i == npids || pids[i] != c->pid ||
	    start_time(proc_fd, c->pid, &started) != TW_OK || started != c->start_time))
		c->fd = 0;
	settle(&r, -1);
	while (r.active > 0) {
		int32_t pid;

		if (i == npids) {
			c->lap++;
			c->pid = c->fd = 0;
			i = 0;
			settle(&r, -1);
			continue;
		}
		pid = c->pid = pids[i];
		if (pid >= r.stop_pid_min || c->reads >= r.reads_min) {
			settle(&r, pid);
			if (r.active == 0)
				break;
		}
		if (over_budget(&r) || scan_process(&r, pid, c->fd)) {
			scan->stopped = r.active > 0;
			break;
		}
		c->reads++;
		c->fd = 0;
		i++;
	}
	if (r.active == 0)
		tw_sockowner_idle(c);
	free(pids);
	free(r.d);
	scan->cpu_ns = thread_cpu_ns() - r.t0;
	return TW_OK;
}
