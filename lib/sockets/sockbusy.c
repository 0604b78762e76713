/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "sockets/sockbusy.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/readfile.h"

int
tw_sockbusy_init(struct tw_sock_busy *b, unsigned intervals)
{
	memset(b, 0, sizeof(*b));
	b->intervals = intervals ? intervals : 1;
	if ((b->ring = calloc(b->intervals, sizeof(*b->ring))) == NULL)
		return TW_E_NOMEM;
	return TW_OK;
}

void
tw_sockbusy_free(struct tw_sock_busy *b)
{
	free(b->ring);
	memset(b, 0, sizeof(*b));
}

/* "run wait slices": the first two, in ns. */
static int
parse_schedstat(const char *text, uint64_t *run, uint64_t *wait)
{
	unsigned long long r, w;

	if (sscanf(text, "%llu %llu", &r, &w) != 2)
		return TW_E_INVAL;
	*run = r;
	*wait = w;
	return TW_OK;
}

int
tw_sockbusy_read(int proc_fd, int32_t pid, uint64_t *run_ns, uint64_t *wait_ns)
{
	char rel[64], line[128];
	struct dirent *de;
	unsigned threads = 0;
	DIR *d;
	int fd, rc = TW_OK;

	*run_ns = *wait_ns = 0;
	snprintf(rel, sizeof(rel), "%" PRId32 "/task", pid);
	if ((fd = openat(proc_fd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return TW_E_ABSENT;
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return TW_E_ABSENT;
	}
	while (rc == TW_OK && (de = readdir(d)) != NULL) {
		uint64_t run, wait;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (++threads > TW_SOCK_BUSY_THREADS) {
			rc = TW_E_TOOBIG;
			break;
		}
		snprintf(rel, sizeof(rel), "%.20s/schedstat", de->d_name);
		/* A thread that ended meanwhile ran no more: skip it. */
		if (tw_read_value_at(dirfd(d), rel, line, sizeof(line)) != TW_OK)
			continue;
		if (parse_schedstat(line, &run, &wait) != TW_OK) {
			rc = TW_E_INVAL;
			break;
		}
		*run_ns += run;
		*wait_ns += wait;
	}
	closedir(d);
	if (rc == TW_OK && threads == 0)
		rc = TW_E_ABSENT;
	return rc;
}

/* The window as its slots have it, with nothing kept. */
static void
live(const struct tw_sock_busy *b, struct tw_busy_window *out)
{
	double drops = 0, full = 0, read = 0, run = 0, wait = 0;
	unsigned i, nread = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < b->intervals; i++) {
		const struct tw_busy_slot *s = &b->ring[i];
		double w = (double)s->drops;

		if (s->drops == 0)
			continue;
		out->dropped++;
		drops += w;
		full += s->full ? w : 0;
		if (s->span_ns == 0 || s->drained)
			continue;
		nread++;
		read += w;
		run += w * (double)s->run_ns / (double)s->span_ns;
		wait += w * (double)s->wait_ns / (double)s->span_ns;
	}
	if (out->dropped >= TW_SOCK_BUSY_MIN) {
		out->have_full = 1;
		out->full_share = full / drops;
	}
	if (nread >= TW_SOCK_BUSY_MIN_CPU) {
		out->have_cpu = 1;
		out->run_share = run / read;
		out->wait_share = wait / read;
	}
}

void
tw_sockbusy_step(struct tw_sock_busy *b, unsigned slot, uint64_t drops, int full,
    const struct tw_busy_reading *rd, uint64_t now_ns)
{
	struct tw_busy_slot *s = &b->ring[slot % b->intervals];
	struct tw_busy_window now;

	memset(s, 0, sizeof(*s));
	s->drops = drops;
	/* Full at either end: the interval a flood stops in began full and
	 * ends drained, and is no sign of a buffer that was large enough. */
	s->full = drops > 0 && (full || b->full_before);
	s->drained = drops > 0 && b->full_before && !full;
	b->full_before = full != 0;
	if (rd == NULL || rd->pid <= 0) {
		b->pid = 0;
	} else {
		/* The same process as at the last reading, and no thread's
		 * time gone backwards (a thread that ended takes its time
		 * with it): the difference is this interval's. */
		if (b->pid == rd->pid && now_ns > b->at_ns && rd->run_ns >= b->run_ns &&
		    rd->wait_ns >= b->wait_ns) {
			s->run_ns = rd->run_ns - b->run_ns;
			s->wait_ns = rd->wait_ns - b->wait_ns;
			s->span_ns = now_ns - b->at_ns;
		}
		b->pid = rd->pid;
		b->run_ns = rd->run_ns;
		b->wait_ns = rd->wait_ns;
		b->at_ns = now_ns;
	}
	live(b, &now);
	if (now.dropped == 0)
		memset(&b->kept, 0, sizeof(b->kept));	/* the episode is over */
	else if (now.have_full && now.have_cpu)
		b->kept = now;
}

void
tw_sockbusy_window(const struct tw_sock_busy *b, struct tw_busy_window *out)
{
	live(b, out);
	if (out->dropped > 0 && !(out->have_full && out->have_cpu) && b->kept.have_full &&
	    b->kept.have_cpu) {
		unsigned dropped = out->dropped;

		*out = b->kept;
		out->dropped = dropped;
	}
}
