/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "sockets/sockwatch.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect/sockdiag.h"
#include "sockets/dropgate.h"
#include "util/array.h"
#include "util/error.h"
#include "util/uid.h"

int
tw_sockwatch_init(struct tw_sockwatch *w, const struct tw_sockwatch_config *cfg)
{
	memset(w, 0, sizeof(*w));
	if (cfg->intervals < 1 || cfg->intervals > 99999)
		return TW_E_INVAL;
	w->cfg = *cfg;
	tw_udp_set_init(&w->cur);
	tw_buf_init(&w->scratch);
	tw_uncounted_init(&w->uncounted);
	w->uncounted.window = cfg->intervals;
	w->read_rc = TW_E_ABSENT;
	w->stride = 1;
	return TW_OK;
}

void
tw_sockwatch_free(struct tw_sockwatch *w)
{
	tw_sockrows_free(w->rows, w->nrows);
	free(w->rows);
	free(w->spare);
	tw_udp_set_free(&w->cur);
	tw_buf_free(&w->scratch);
	tw_uncounted_free(&w->uncounted);
	memset(w, 0, sizeof(*w));
}

int
tw_sockwatch_has_recent(const struct tw_sockwatch *w)
{
	return w->seq >= 2;
}

static int
cmp_want(const void *a, const void *b)
{
	uint32_t x = ((const struct tw_owner_want *)a)->inode;
	uint32_t y = ((const struct tw_owner_want *)b)->inode;

	return (x > y) - (x < y);
}

/* A socket starts a search when its drops grew and its owner is unknown:
 * never looked for, or its last search was cut. */
static int
starts_search(const struct tw_sock_row *r)
{
	return r->grew && r->sock.inode != 0 &&
	    (r->owner_state == TW_OWNER_UNKNOWN || r->owner_state == TW_OWNER_CUT);
}

/* One run of the owner search for every socket whose search is under way,
 * those that start one in this sample joining it. */
static int
find_owners(struct tw_sockwatch *w, int proc_fd)
{
	struct tw_owner_limits lim = { .budget_ns = w->cfg.owner_budget_us * 1000ull,
	    .max_procs = w->cfg.owner_procs };
	struct tw_owner_want *wants;
	size_t i, n = 0;
	int rc;

	if (w->cfg.owner_procs == 0)
		return TW_OK;
	for (i = 0; i < w->nrows; i++) {
		struct tw_sock_row *r = &w->rows[i];

		if (starts_search(r)) {
			tw_sockowner_join(&w->owner_cursor, r->sock.inode, &r->pass);
			r->owner_state = TW_OWNER_SEARCHING;
		}
		n += r->owner_state == TW_OWNER_SEARCHING;
	}
	if (n == 0) {
		tw_sockowner_idle(&w->owner_cursor);	/* its sockets went away */
		return TW_OK;
	}
	if ((wants = malloc(n * sizeof(*wants))) == NULL)
		return TW_E_NOMEM;
	n = 0;
	for (i = 0; i < w->nrows; i++)
		if (w->rows[i].owner_state == TW_OWNER_SEARCHING)
			wants[n++] = w->rows[i].pass;
	/* Rows are sorted by protocol first; inodes are unique across them. */
	qsort(wants, n, sizeof(*wants), cmp_want);
	rc = tw_sockowner_run(proc_fd, &w->owner_cursor, wants, n, &lim, &w->last_scan);
	w->owner_runs++;
	for (i = 0; rc == TW_OK && i < w->nrows; i++) {
		struct tw_sock_row *r = &w->rows[i];
		const struct tw_owner_want *got;

		if (r->owner_state != TW_OWNER_SEARCHING)
			continue;
		got = bsearch(&r->pass, wants, n, sizeof(*wants), cmp_want);
		if (got == NULL)
			continue;
		r->pass = *got;
		r->owner_state = got->state;
		if (got->state == TW_OWNER_FOUND)
			r->owner = got->owner;
		else if (got->state == TW_OWNER_CUT)
			r->lookups_cut++;
	}
	free(wants);
	return rc == TW_E_NOMEM ? rc : TW_OK;
}

/* A row whose buffer is asked for: it dropped in this interval, and the
 * reading did not have its buffer. */
static int
needs_query(const struct tw_sock_row *r)
{
	return r->grew && r->sock.inode != 0 && !r->sock.have_mem;
}

/* The receive buffers of the sockets that dropped in this interval, one
 * dump a protocol that has any. Rows of one protocol are in inode order. */
static int
query_buffers(struct tw_sockwatch *w)
{
	struct tw_sock_mem *mem;
	size_t i, n, first;
	unsigned proto;
	int rc;

	w->diag_rc = TW_OK;
	if (!w->cfg.diag)
		return TW_OK;
	/* Read from sock_diag, every row has its buffer: under a flood, no
	 * pass a protocol over thousands of rows for nothing. */
	for (i = 0; i < w->nrows; i++)
		if (needs_query(&w->rows[i]))
			break;
	if (i == w->nrows)
		return TW_OK;
	if ((mem = malloc(w->nrows * sizeof(*mem))) == NULL)
		return TW_E_NOMEM;
	for (proto = 1; proto <= TW_UDP_NPROTO; proto++) {
		n = 0;
		for (first = 0; first < w->nrows && w->rows[first].sock.proto < proto; first++)
			continue;
		for (i = first; i < w->nrows && w->rows[i].sock.proto == proto; i++)
			if (needs_query(&w->rows[i]))
				mem[n++] = (struct tw_sock_mem){ .inode = w->rows[i].sock.inode };
		if (n == 0)
			continue;
		rc = tw_sockdiag_query(proto, mem, n);
		if (rc == TW_E_NOMEM) {
			free(mem);
			return rc;
		}
		if (rc != TW_OK && w->diag_rc == TW_OK)
			w->diag_rc = rc;
		n = 0;
		for (i = first; i < w->nrows && w->rows[i].sock.proto == proto; i++) {
			struct tw_sock_row *r = &w->rows[i];

			if (!needs_query(r))
				continue;
			/* Refused or not found: unknown, not the old figure. */
			r->have_mem = rc == TW_OK && mem[n].have;
			r->rcvbuf = mem[n].rcvbuf;
			r->rmem_alloc = mem[n].rmem_alloc;
			n++;
		}
	}
	free(mem);
	return TW_OK;
}

/* Whether the socket files must be read in this sample: the first time,
 * once a window, and when the counters moved (or cannot tell) since the
 * last read, stride samples after it. An unread sample keeps the last
 * reading, so every row grows by 0. */
static int
must_read(struct tw_sockwatch *w, int proc_fd, const struct tw_netstat_set *net, int *rc)
{
	uint64_t sum = 0;
	int had = w->gate_valid, moved;

	*rc = tw_dropgate_sum(proc_fd, &w->scratch, net, &sum);
	if (*rc == TW_E_NOMEM)
		return 0;
	moved = !had || *rc != TW_OK || sum != w->gate_sum;
	w->gate_valid = *rc == TW_OK;
	w->gate_sum = sum;
	*rc = TW_OK;
	w->pending |= moved;
	if (w->reads == 0 || w->read_rc != TW_OK || w->seq < w->eager_until ||
	    w->seq - w->last_read_seq >= w->cfg.intervals)
		return 1;
	if (!w->pending)
		return 0;
	if (w->seq - w->last_read_seq >= w->stride)
		return 1;
	w->deferred++;
	return 0;
}

static uint64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Whether a read found a socket that dropped with no drops before it in
 * the window: the set of dropping sockets changed. The merge put this
 * read's drops in slot. */
static int
new_dropper(const struct tw_sockwatch *w, unsigned slot)
{
	size_t i;

	for (i = 0; i < w->nrows; i++)
		if (w->rows[i].grew && w->rows[i].recent == w->rows[i].ring[slot])
			return 1;
	return 0;
}

/* The samples until the next read while InErrors moves: 1 from the first
 * read to the second and while the set of dropping sockets changes, else
 * what this read cost over the budget. */
static unsigned
next_stride(const struct tw_sockwatch *w, unsigned slot)
{
	uint64_t budget = w->cfg.dump_budget_us * 1000ull, k;

	if (budget == 0 || w->reads < 2 || w->read_rc != TW_OK || new_dropper(w, slot))
		return 1;
	k = (w->read_ns + budget - 1) / budget;
	if (k > TW_SOCK_DUMP_STRIDE_MAX)
		k = TW_SOCK_DUMP_STRIDE_MAX;
	if (k > w->cfg.intervals)
		k = w->cfg.intervals;
	return k > 1 ? (unsigned)k : 1;
}

static uint64_t
monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The owner pid's reading in this sample: one read a process however many
 * of its sockets drop, TW_SOCK_BUSY_ROWS processes at most (then NULL). */
static const struct tw_busy_reading *
reading(struct tw_busy_reading *seen, size_t *nseen, int proc_fd, int32_t pid)
{
	struct tw_busy_reading *rd;
	size_t i;

	for (i = 0; i < *nseen; i++)
		if (seen[i].pid == pid || -seen[i].pid == pid)
			return seen[i].pid > 0 ? &seen[i] : NULL;
	if (*nseen == TW_SOCK_BUSY_ROWS)
		return NULL;
	rd = &seen[(*nseen)++];
	rd->pid = pid;
	/* A process that cannot be read is remembered as -pid. */
	if (tw_sockbusy_read(proc_fd, pid, &rd->run_ns, &rd->wait_ns) != TW_OK)
		rd->pid = -pid;
	return rd->pid > 0 ? rd : NULL;
}

/* The interval just ended, for each row: whether it dropped, with its
 * queue at least half its buffer or not, and its owner's CPU (sockbusy.h)
 * while it drops in the window, services' owners first. */
static void
follow_busy(struct tw_sockwatch *w, int proc_fd)
{
	struct tw_busy_reading seen[TW_SOCK_BUSY_ROWS];
	unsigned slot = (unsigned)((w->seq - 1) % w->cfg.intervals);
	uint64_t now = w->cfg.clock_ns ? w->cfg.clock_ns() : monotonic_ns();
	size_t i, nseen = 0;
	int users;

	for (users = 0; users <= 1; users++)
		for (i = 0; i < w->nrows; i++) {
			struct tw_sock_row *r = &w->rows[i];
			const struct tw_busy_reading *rd = NULL;
			int full;

			if (tw_uid_is_user(r->sock.uid) != users)
				continue;
			full = r->have_mem && r->rcvbuf > 0 &&
			    2 * (uint64_t)r->sock.rx_queue >= r->rcvbuf;
			if (r->owner_state == TW_OWNER_FOUND && r->recent > 0 && r->owner.pid > 0)
				rd = reading(seen, &nseen, proc_fd, r->owner.pid);
			tw_sockbusy_step(&r->busy, slot, r->ring[slot], full, rd, now);
		}
}

int
tw_sockwatch_uncounted(const struct tw_sockwatch *w, uint64_t *count)
{
	*count = w->uncounted.known ? w->uncounted.count : 0;
	return w->uncounted.known;
}

int
tw_sockwatch_step(struct tw_sockwatch *w, int proc_fd, const struct tw_netstat_set *net,
    const struct tw_udp_memory *mem, struct tw_parse_stats *ps)
{
	uint64_t (*cpu)(void) = w->cfg.cpu_ns ? w->cfg.cpu_ns : thread_cpu_ns;
	uint64_t t0 = 0;
	void *grown;
	int rc, read;

	if ((read = must_read(w, proc_fd, net, &rc))) {
		t0 = cpu();
		rc = TW_E_ABSENT;
		if (w->cfg.netlink && !w->netlink_failed) {
			rc = tw_sockdiag_read_all(&w->cur);
			if (rc == TW_E_NOMEM)
				return rc;
			w->netlink_failed = rc != TW_OK;
		}
		if (rc != TW_OK)
			rc = tw_udpsock_read_all(proc_fd, &w->scratch, &w->cur, ps);
		if (rc == TW_E_NOMEM)
			return rc;
		w->read_ns = cpu() - t0;
		w->read_rc = rc;
		w->reads++;
		w->last_read_seq = w->seq;
		w->pending = 0;
		if (rc != TW_OK) {
			w->cur.count = 0;
			/* The next read finds every socket anew: nothing to
			 * compare its drops with. */
			tw_uncounted_forget(&w->uncounted);
		}
	} else if (rc != TW_OK) {
		return rc;
	}
	if (tw_array_grow(w->spare, &w->spare_cap, w->cur.count, sizeof(*w->spare), &grown) !=
	    TW_OK)
		return TW_E_NOMEM;
	w->spare = grown;
	w->grown = tw_sockrows_merge(&w->rows, &w->nrows, &w->cap, &w->spare, &w->spare_cap,
	    &w->cur, w->cfg.intervals, w->seq);
	if (read && w->read_rc == TW_OK) {
		rc = tw_uncounted_after_read(&w->uncounted, proc_fd, &w->scratch, w->reads == 1,
		    w->gate_valid, w->gate_sum, w->grown, mem);
		if (rc < 0)
			return rc;
		/* Drops no counter counted: read every sample for a window,
		 * to see them as they happen, and UDP memory where they do. */
		if (rc == 1)
			w->eager_until = w->seq + w->cfg.intervals;
	}
	if (read)
		w->stride = next_stride(w, (unsigned)(w->seq % w->cfg.intervals));
	w->seq++;
	if ((rc = find_owners(w, proc_fd)) != TW_OK)
		return rc;
	if ((rc = query_buffers(w)) != TW_OK)
		return rc;
	follow_busy(w, proc_fd);
	return TW_OK;
}
