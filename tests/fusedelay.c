/* SPDX-License-Identifier: ISC */
/* fusedelay: a FUSE file system of one file whose every read takes a known
 * time, for the tests of disk latency.
 *
 * It serves three files at the root of its mount point:
 *   disk.img  --size MiB of zeros; each read sleeps --delay microseconds
 *             from the moment the request reaches the daemon, then answers
 *   delay     the delay in microseconds: read it, or write a new one
 *   errors    0, or 1: every read of disk.img then fails with EIO (after
 *             the delay), as a failing disk's do; write it to change it
 *   stats     "reads N\nbytes B\nerrors E\nwrites W\n": the reads of
 *             disk.img answered so far, how many of them failed, and the
 *             writes taken
 * With --writes, disk.img also takes writes, each after the same delay,
 * and forgets them (a read still answers zeros): a device whose writes
 * take a known time, for a raw block device's writers (no file system).
 *
 * A loop device with direct I/O over disk.img is then a block device of
 * known latency: the loop driver reads the file with O_DIRECT and the file
 * is opened with FOPEN_DIRECT_IO, so neither the loop device's page cache
 * nor FUSE's can answer a read; every read of the device becomes a FUSE
 * read that waits.
 *
 * Usage (as root; see TESTING.md):
 *   tests/fusedelay --delay 2000 --size 64 -f /tmp/tw-BRANCH-mnt &
 *   losetup --find --show --direct-io=on /tmp/tw-BRANCH-mnt/disk.img
 *   ... read /dev/loopN ...
 *   losetup -d /dev/loopN; fusermount3 -u /tmp/tw-BRANCH-mnt
 *
 * Each read sleeps on CLOCK_MONOTONIC to an absolute deadline with the
 * thread's timer slack at 1 ns, so the delay is what was asked plus the
 * kernel's wake-up, not plus the default 50 us slack. */
#define FUSE_USE_VERSION 312

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <fuse_lowlevel.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>

#define DISK "/disk.img"
#define DELAY "/delay"
#define STATS "/stats"
#define ERRORS "/errors"
#define CONTROL_SIZE 4096	/* what getattr says of delay and stats */
#define MAX_DELAY_US 60000000u

struct options {
	unsigned delay_us;
	unsigned size_mib;
	int writes;
	int help;
};

static struct options opts = { 0, 64, 0, 0 };
static unsigned delay_us;	/* atomic: written through the delay file */
static unsigned fail_reads;	/* atomic: written through the errors file */
static uint64_t reads, bytes, failed, writes;	/* atomic */

/* The control files: what each holds, and the most a write may set. */
struct control {
	const char *path;
	unsigned *value;
	unsigned max;
};

static const struct control controls[] = {
	{ DELAY, &delay_us, MAX_DELAY_US },
	{ ERRORS, &fail_reads, 1 },
};

static const struct control *
control_of(const char *path)
{
	size_t i;

	for (i = 0; i < sizeof(controls) / sizeof(controls[0]); i++)
		if (strcmp(path, controls[i].path) == 0)
			return &controls[i];
	return NULL;
}

static const struct fuse_opt option_spec[] = {
	{ "--delay %u", offsetof(struct options, delay_us), 0 },
	{ "--delay=%u", offsetof(struct options, delay_us), 0 },
	{ "--size %u", offsetof(struct options, size_mib), 0 },
	{ "--size=%u", offsetof(struct options, size_mib), 0 },
	{ "--writes", offsetof(struct options, writes), 1 },
	{ "-h", offsetof(struct options, help), 1 },
	{ "--help", offsetof(struct options, help), 1 },
	FUSE_OPT_END
};

static uint64_t
disk_size(void)
{
	return (uint64_t)opts.size_mib << 20;
}

static void *
fd_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	/* Attributes never change: no need to ask again. */
	cfg->entry_timeout = 3600;
	cfg->attr_timeout = 3600;
	cfg->negative_timeout = 3600;
	return NULL;
}

static int
fd_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else if (strcmp(path, DISK) == 0) {
		st->st_mode = S_IFREG | 0644;
		st->st_nlink = 1;
		st->st_size = (off_t)disk_size();
	} else if (control_of(path) != NULL || strcmp(path, STATS) == 0) {
		st->st_mode = S_IFREG | (control_of(path) != NULL ? 0644 : 0444);
		st->st_nlink = 1;
		st->st_size = CONTROL_SIZE;
	} else {
		return -ENOENT;
	}
	return 0;
}

static int
fd_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
    struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/") != 0)
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, DISK + 1, NULL, 0, 0);
	fill(buf, DELAY + 1, NULL, 0, 0);
	fill(buf, ERRORS + 1, NULL, 0, 0);
	fill(buf, STATS + 1, NULL, 0, 0);
	return 0;
}

static int
fd_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, DISK) != 0 && control_of(path) == NULL && strcmp(path, STATS) != 0)
		return -ENOENT;
	if ((fi->flags & O_ACCMODE) != O_RDONLY && control_of(path) == NULL &&
	    !(opts.writes && strcmp(path, DISK) == 0))
		return -EACCES;
	/* No cache of FUSE's may answer a read: each one reaches read below. */
	fi->direct_io = 1;
	return 0;
}

/* Sleep until the request's arrival plus the delay. */
static void
wait_delay(const struct timespec *start)
{
	static __thread int slack_set;
	unsigned d = __atomic_load_n(&delay_us, __ATOMIC_RELAXED);
	struct timespec until = *start;

	if (d == 0)
		return;
	if (!slack_set) {
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
		slack_set = 1;
	}
	until.tv_sec += d / 1000000u;
	until.tv_nsec += (long)(d % 1000000u) * 1000;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		;
}

/* The text of a control file, cut to the read. */
static int
control_read(const char *text, char *buf, size_t size, off_t off)
{
	size_t len = strlen(text);

	if (off < 0 || (size_t)off >= len)
		return 0;
	len -= (size_t)off;
	if (len > size)
		len = size;
	memcpy(buf, text + off, len);
	return (int)len;
}

static int
fd_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	const struct control *c = control_of(path);
	struct timespec start;
	char text[96];
	uint64_t end;

	(void)fi;
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (c != NULL) {
		snprintf(text, sizeof(text), "%u\n", __atomic_load_n(c->value, __ATOMIC_RELAXED));
		return control_read(text, buf, size, off);
	}
	if (strcmp(path, STATS) == 0) {
		snprintf(text, sizeof(text), "reads %llu\nbytes %llu\nerrors %llu\nwrites %llu\n",
		    (unsigned long long)__atomic_load_n(&reads, __ATOMIC_RELAXED),
		    (unsigned long long)__atomic_load_n(&bytes, __ATOMIC_RELAXED),
		    (unsigned long long)__atomic_load_n(&failed, __ATOMIC_RELAXED),
		    (unsigned long long)__atomic_load_n(&writes, __ATOMIC_RELAXED));
		return control_read(text, buf, size, off);
	}
	if (strcmp(path, DISK) != 0)
		return -ENOENT;
	if (off < 0 || (uint64_t)off >= disk_size())
		return 0;
	end = (uint64_t)off + size;
	if (end > disk_size())
		size = (size_t)(disk_size() - (uint64_t)off);
	wait_delay(&start);
	__atomic_add_fetch(&reads, 1, __ATOMIC_RELAXED);
	if (__atomic_load_n(&fail_reads, __ATOMIC_RELAXED)) {
		__atomic_add_fetch(&failed, 1, __ATOMIC_RELAXED);
		return -EIO;
	}
	memset(buf, 0, size);
	__atomic_add_fetch(&bytes, size, __ATOMIC_RELAXED);
	return (int)size;
}

/* A control's new value, as "2000\n"; from offset 0 only. */
static int
fd_write(const char *path, const char *buf, size_t size, off_t off,
    struct fuse_file_info *fi)
{
	const struct control *c = control_of(path);
	struct timespec start;
	char text[32], *end;
	unsigned long v;

	(void)fi;
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (c == NULL && opts.writes && strcmp(path, DISK) == 0) {
		if (off < 0 || (uint64_t)off + size > disk_size())
			return -ENOSPC;
		wait_delay(&start);
		__atomic_add_fetch(&writes, 1, __ATOMIC_RELAXED);
		return (int)size;
	}
	if (c == NULL)
		return -EACCES;
	if (off != 0 || size == 0 || size >= sizeof(text))
		return -EINVAL;
	memcpy(text, buf, size);
	text[size] = '\0';
	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno != 0 || end == text || (*end != '\0' && *end != '\n') || v > c->max)
		return -EINVAL;
	__atomic_store_n(c->value, (unsigned)v, __ATOMIC_RELAXED);
	return (int)size;
}

/* Writes to a control file arrive with O_TRUNC from a shell's ">". */
static int
fd_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void)size;
	(void)fi;
	return control_of(path) != NULL ? 0 : -EACCES;
}

static const struct fuse_operations operations = {
	.init = fd_init,
	.getattr = fd_getattr,
	.readdir = fd_readdir,
	.open = fd_open,
	.read = fd_read,
	.write = fd_write,
	.truncate = fd_truncate,
};

static void
usage(const char *prog)
{
	printf("Usage: %s [--delay MICROSECONDS] [--size MIB] [--writes] [-f] [-s] [-o OPTION] "
	    "MOUNTPOINT\n"
	    "Serve MOUNTPOINT/disk.img (MIB MiB of zeros, default 64) whose every read takes\n"
	    "MICROSECONDS (default 0, at most %u), and with --writes every write too (then\n"
	    "forgotten); MOUNTPOINT/delay holds the delay (write a new\n"
	    "one to change it), MOUNTPOINT/errors 1 makes every read fail with EIO, and\n"
	    "MOUNTPOINT/stats counts the reads answered. -f: stay in the foreground\n"
	    "(else it returns once mounted); -s: one thread (reads then wait for each other).\n"
	    "Stops when unmounted (fusermount3 -u MOUNTPOINT) or on SIGTERM or SIGINT.\n",
	    prog, MAX_DELAY_US);
}

/* Mount, serve until unmounted or signalled, unmount. The session is set
 * up here rather than by fuse_main, whose libfuse 3.14 passes an unset
 * thread limit to its loop and says so on every run. */
static int
serve(struct fuse_args *args)
{
	struct fuse_cmdline_opts co;
	struct fuse_loop_config *lc = NULL;
	struct fuse *f;
	int rc = 1;

	if (fuse_parse_cmdline(args, &co) != 0)
		return 2;
	if (co.show_help || co.show_version || co.mountpoint == NULL) {
		if (co.mountpoint == NULL && !co.show_help && !co.show_version)
			fprintf(stderr, "fusedelay: no mount point (--help says how)\n");
		free(co.mountpoint);
		return co.mountpoint == NULL && !co.show_help && !co.show_version ? 2 : 0;
	}
	f = fuse_new(args, &operations, sizeof(operations), NULL);
	if (f == NULL)
		goto out;
	if (fuse_mount(f, co.mountpoint) != 0)
		goto destroy;
	if (fuse_daemonize(co.foreground) != 0 ||
	    fuse_set_signal_handlers(fuse_get_session(f)) != 0)
		goto unmount;
	if (co.singlethread) {
		rc = fuse_loop(f) != 0;
	} else {
		lc = fuse_loop_cfg_create();
		if (lc != NULL) {
			fuse_loop_cfg_set_max_threads(lc, co.max_threads);
			rc = fuse_loop_mt(f, lc) != 0;
			fuse_loop_cfg_destroy(lc);
		}
	}
	fuse_remove_signal_handlers(fuse_get_session(f));
unmount:
	fuse_unmount(f);
destroy:
	fuse_destroy(f);
out:
	free(co.mountpoint);
	return rc;
}

int
main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	int rc;

	if (fuse_opt_parse(&args, &opts, option_spec, NULL) != 0)
		return 2;
	if (opts.help) {
		usage(argv[0]);
		fuse_opt_free_args(&args);
		return 0;
	}
	if (opts.delay_us > MAX_DELAY_US || opts.size_mib == 0 || opts.size_mib > (1u << 20)) {
		fprintf(stderr, "fusedelay: --delay is 0 to %u us, --size 1 to %u MiB\n",
		    MAX_DELAY_US, 1u << 20);
		fuse_opt_free_args(&args);
		return 2;
	}
	delay_us = opts.delay_us;
	rc = serve(&args);
	fuse_opt_free_args(&args);
	return rc;
}
