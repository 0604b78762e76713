/* SPDX-License-Identifier: ISC */
/* diskfigures: the window's disk figures between two /proc/diskstats
 * snapshots, for comparing tunewatch with iostat on the same data.
 *
 *   diskfigures BEFORE AFTER INTERVAL_MS
 *
 * BEFORE may be "zero": every device of AFTER with all counters at 0, which
 * is what iostat's first report (since boot) compares against. Prints one
 * line per device: name, then r/s, w/s, rkB/s, wkB/s, r_await and w_await
 * in ms, aqu-sz and %util, as iostat -x names them. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/diskstats.h"
#include "sample/pools.h"
#include "util/readfile.h"
#include "sample/sample.h"
#include "tunewatch_oids.h"
#include "util/error.h"
#include "view/build.h"
#include "view/view.h"
#include "window/window.h"

static int
load(int dirfd, const char *path, struct tw_sample *s, uint64_t ms, int zero)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_buf b;
	size_t i;
	int rc;

	tw_buf_init(&b);
	rc = tw_read_file_at(dirfd, path, &b);
	if (rc != TW_OK) {
		fprintf(stderr, "diskfigures: cannot read %s: %s\n", path, tw_strerror(rc));
		tw_buf_free(&b);
		return -1;
	}
	tw_sample_clear(s);
	s->mono_ms = ms;
	rc = tw_diskstats_parse(b.data, b.len, &s->disks, &ps);
	tw_buf_free(&b);
	if (rc != TW_OK || tw_sample_reserve_queues(s, s->disks.count) != TW_OK)
		return -1;
	for (i = 0; i < s->disks.count; i++) {
		tw_queue_init(&s->queues[i]);
		if (zero)
			memset(s->disks.disks[i].v, 0, sizeof(s->disks.disks[i].v));
	}
	s->have |= TW_SRC_BIT(TW_SRC_DISKSTATS);
	return 0;
}

static int
cmp_disk(const void *a, const void *b)
{
	const struct tw_disk_stat *x = a, *y = b;
	uint64_t ka = tw_disk_key(x->major, x->minor), kb = tw_disk_key(y->major, y->minor);

	return ka < kb ? -1 : ka > kb;
}

int
main(int argc, char **argv)
{
	static const struct tw_view_settings set = { "test", "test", 1, 1 };
	struct tw_sample s;
	struct tw_pool_set pools;
	struct tw_window w;
	struct tw_view v;
	unsigned long long ms;
	int zero, cwd;
	size_t i;

	if (argc != 4 || (ms = strtoull(argv[3], NULL, 10)) == 0) {
		fprintf(stderr, "usage: diskfigures BEFORE|zero AFTER INTERVAL_MS\n");
		return 2;
	}
	zero = strcmp(argv[1], "zero") == 0;
	/* Relative paths are taken from the current directory. */
	cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	tw_sample_init(&s);
	tw_pool_set_init(&pools);
	tw_view_init(&v);
	if (tw_window_init(&w, 1) != TW_OK)
		return 1;
	if (load(cwd, zero ? argv[2] : argv[1], &s, 1, zero) != 0)
		return 1;
	qsort(s.disks.disks, s.disks.count, sizeof(s.disks.disks[0]), cmp_disk);
	if (tw_window_push(&w, &s, &pools) != TW_OK)
		return 1;
	if (load(cwd, argv[2], &s, 1 + ms, 0) != 0)
		return 1;
	qsort(s.disks.disks, s.disks.count, sizeof(s.disks.disks[0]), cmp_disk);
	if (tw_window_push(&w, &s, &pools) != TW_OK)
		return 1;
	if (tw_view_build(&v, &(struct tw_view_sources){ .settings = &set, .window = &w,
	    .sample = &s, .pools = &pools }) != TW_OK)
		return 1;
	for (i = 0; i < v.ndisks; i++) {
		const struct tw_view_disk *d = &v.disks[i];

		if (!(d->has & TW_VIEW_BIT(TW_OID_DISK_READ_LATENCY)))
			continue;
		printf("%s %.2f %.2f %.3f %.3f %.3f %.3f %.2f %.2f\n", d->name,
		    d->col[TW_OID_DISK_READ_OPS] / 100.0, d->col[TW_OID_DISK_WRITE_OPS] / 100.0,
		    d->col[TW_OID_DISK_READ_RATE] / 1024.0, d->col[TW_OID_DISK_WRITE_RATE] / 1024.0,
		    d->col[TW_OID_DISK_READ_LATENCY] / 1000.0,
		    d->col[TW_OID_DISK_WRITE_LATENCY] / 1000.0,
		    d->col[TW_OID_DISK_QUEUE_DEPTH] / 100.0, d->col[TW_OID_DISK_UTIL] / 100.0);
	}
	tw_view_free(&v);
	tw_window_free(&w);
	tw_pool_set_free(&pools);
	tw_sample_free(&s);
	close(cwd);
	return 0;
}
