/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/blockqueue.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/readfile.h"
#include "util/scan.h"
#include "util/error.h"

/* Longest device name we look up: a sysfs directory entry. */
#define QUEUE_DEV_MAX 255

void
tw_queue_init(struct tw_queue *q)
{
	q->scheduler[0] = '\0';
	q->nr_requests = -1;
	q->read_ahead_kb = -1;
	q->wbt_lat_usec = -1;
	q->rotational = -1;
}

const char *
tw_queue_attr(const char *tunable)
{
	static const char prefix[] = "queue/";

	return strncmp(tunable, prefix, sizeof(prefix) - 1) == 0 ? tunable + sizeof(prefix) - 1 :
	    NULL;
}

/* A scheduler name is an elevator module's: printable ASCII with no
 * blanks, brackets or backslash, so it is its own shown form
 * (util/escape.h) and the view copies it as it is. */
static int
sched_word_ok(const char *s, size_t len)
{
	size_t i;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= ' ' || c >= 0x7f || c == '[' || c == ']' || c == '\\')
			return 0;
	}
	return 1;
}

int
tw_queue_parse_scheduler(const char *text, char *out, size_t outlen)
{
	struct tw_tokens it;
	const char *tok, *pick = NULL, *only = NULL;
	size_t tlen, picklen = 0, onlylen = 0, ntok = 0, len;

	if (out == NULL || outlen == 0)
		return TW_E_INVAL;
	out[0] = '\0';
	if (text == NULL)
		return TW_E_INVAL;
	len = strlen(text);
	/* The raw file ends in "\n" (and often " \n"). */
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ' ||
	    text[len - 1] == '\t'))
		len--;

	tw_tokens_init(&it, text, len);
	while (tw_tokens_next(&it, &tok, &tlen)) {
		ntok++;
		if (tlen >= 2 && tok[0] == '[' && tok[tlen - 1] == ']') {
			/* Two active schedulers is not a list the kernel prints. */
			if (pick != NULL || !sched_word_ok(tok + 1, tlen - 2))
				return TW_E_INVAL;
			pick = tok + 1;
			picklen = tlen - 2;
		} else if (!sched_word_ok(tok, tlen)) {
			return TW_E_INVAL;
		} else {
			only = tok;
			onlylen = tlen;
		}
	}
	/* Without brackets, only a single name ("none") says which is active. */
	if (pick == NULL) {
		if (ntok != 1)
			return TW_E_INVAL;
		pick = only;
		picklen = onlylen;
	}
	return tw_token_copy(out, outlen, pick, picklen);
}

/* An attribute as a signed integer, or -1 when missing or not a number. */
static int64_t
queue_attr_int(int sys_fd, const char *dir, const char *attr)
{
	char path[QUEUE_DEV_MAX + 64], val[64];
	int64_t v;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	if (tw_read_value_at(sys_fd, path, val, sizeof(val)) != TW_OK)
		return -1;
	if (tw_parse_i64(val, strlen(val), &v) != TW_OK)
		return -1;
	return v;
}

int
tw_queue_read(int sys_fd, const char *dev, struct tw_queue *q)
{
	char dir[QUEUE_DEV_MAX + 32], path[QUEUE_DEV_MAX + 64], val[256];
	struct stat st;
	size_t len, i, off;
	int64_t rot;

	tw_queue_init(q);
	if (dev == NULL)
		return TW_E_INVAL;
	len = strlen(dev);
	if (len == 0 || len > QUEUE_DEV_MAX || strcmp(dev, ".") == 0 ||
	    strcmp(dev, "..") == 0)
		return TW_E_INVAL;
	if (sys_fd < 0)
		return TW_E_ABSENT;

	/* sysfs names cciss/c0d0 "cciss!c0d0": a '/' cannot be in a file name. */
	off = (size_t)snprintf(dir, sizeof(dir), "block/");
	for (i = 0; i < len; i++)
		dir[off + i] = dev[i] == '/' ? '!' : dev[i];
	memcpy(dir + off + len, "/queue", sizeof("/queue"));

	/* Check the directory, not the scheduler file: zram and some other
	 * bio-based devices have a queue directory without a scheduler. */
	if (fstatat(sys_fd, dir, &st, 0) != 0) {
		if (errno == EACCES || errno == EPERM)
			return TW_E_ACCESS;
		if (errno == ENOENT || errno == ENOTDIR)
			return TW_E_ABSENT;
		return TW_E_IO;
	}
	if (!S_ISDIR(st.st_mode))
		return TW_E_ABSENT;

	snprintf(path, sizeof(path), "%s/scheduler", dir);
	if (tw_read_value_at(sys_fd, path, val, sizeof(val)) == TW_OK)
		(void)tw_queue_parse_scheduler(val, q->scheduler, sizeof(q->scheduler));
	/* Sizes cannot be negative: a negative one is as good as unknown. */
	q->nr_requests = queue_attr_int(sys_fd, dir, "nr_requests");
	if (q->nr_requests < 0)
		q->nr_requests = -1;
	q->read_ahead_kb = queue_attr_int(sys_fd, dir, "read_ahead_kb");
	if (q->read_ahead_kb < 0)
		q->read_ahead_kb = -1;
	/* The kernel prints 0 when throttling is off; reading fails when it
	 * is not built in, which leaves -1. */
	q->wbt_lat_usec = queue_attr_int(sys_fd, dir, "wbt_lat_usec");
	rot = queue_attr_int(sys_fd, dir, "rotational");
	q->rotational = (rot == 0 || rot == 1) ? (int)rot : -1;
	return TW_OK;
}
