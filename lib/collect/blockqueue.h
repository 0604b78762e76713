/* SPDX-License-Identifier: ISC */
/* /sys/block/<dev>/queue: the tunables of one device's request queue.
 * See the kernel's Documentation/block/queue-sysfs.rst. */
#ifndef TW_BLOCKQUEUE_H
#define TW_BLOCKQUEUE_H

#include <stddef.h>
#include <stdint.h>

#define TW_SCHED_LEN 32

struct tw_queue {
	char scheduler[TW_SCHED_LEN];	/* the active one; "" when unknown */
	int64_t nr_requests;		/* -1 when unknown */
	int64_t read_ahead_kb;		/* -1 when unknown */
	int64_t wbt_lat_usec;		/* -1 when unknown or not built in */
	int rotational;			/* 1, 0, or -1 when unknown */
};

void tw_queue_init(struct tw_queue *q);

/* The tunables of the advice and of the change history name an attribute
 * of this directory "queue/ATTR" ("queue/nr_requests"), a sysctl by its
 * own name. ATTR for a queue attribute, NULL for any other tunable. */
const char *tw_queue_attr(const char *tunable);

/* Pick the active scheduler out of the kernel's list: the bracketed one in
 * "mq-deadline kyber [bfq] none"; a lone "none" is itself the active one.
 * A final newline is allowed. TW_E_INVAL when the text names none (or two),
 * TW_E_TOOBIG when the name does not fit in out; out is "" on error. */
int tw_queue_parse_scheduler(const char *text, char *out, size_t outlen);

/* Read block/<dev>/queue/{scheduler,nr_requests,read_ahead_kb,
 * wbt_lat_usec,rotational} under sys_fd. A '/' in dev (cciss/c0d0) is
 * looked up as '!' the way sysfs names it. TW_E_ABSENT when the device has
 * no queue directory (partitions, or no sysfs); attributes that are missing
 * or unreadable stay unknown. */
int tw_queue_read(int sys_fd, const char *dev, struct tw_queue *q);

#endif
