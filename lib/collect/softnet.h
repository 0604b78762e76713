/* SPDX-License-Identifier: ISC */
/* /proc/net/softnet_stat: one row of hexadecimal 32-bit counters per CPU.
 *
 * Columns by kernel: 1 processed, 2 dropped (input queue full:
 * net.core.netdev_max_backlog), 3 time_squeeze (budget exhausted:
 * net.core.netdev_budget), 4-8 unused, 9 cpu_collision (unused), 10
 * received_rps (2.6.35), 11 flow_limit_count (3.11), 12 backlog length and
 * 13 CPU number (5.10), 14-15 input and process queue lengths (6.x). Rows
 * have 9 or more columns. Before 5.10 offline CPUs are skipped without a
 * CPU column, so the row number is only a guess at the CPU. */
#ifndef TW_SOFTNET_H
#define TW_SOFTNET_H

#include <stddef.h>
#include <stdint.h>

#include "util/readfile.h"
#include "util/scan.h"

struct tw_softnet_cpu {
	uint32_t cpu;		/* column 13, or the row number without it */
	uint32_t ncols;
	int cpu_from_column;	/* 1 when cpu came from column 13 */
	int has_backlog;	/* 1 when backlog_len is the kernel's */
	uint32_t processed;
	uint32_t dropped;
	uint32_t time_squeeze;
	uint32_t received_rps;
	uint32_t flow_limit;
	uint32_t backlog_len;
};

struct tw_softnet_set {
	struct tw_softnet_cpu *cpus;	/* in file order */
	size_t count;
	size_t cap;
};

void tw_softnet_set_init(struct tw_softnet_set *s);
void tw_softnet_set_free(struct tw_softnet_set *s);

int tw_softnet_parse(const char *text, size_t len, struct tw_softnet_set *out,
    struct tw_parse_stats *ps);
int tw_softnet_read(int proc_fd, struct tw_buf *scratch, struct tw_softnet_set *out,
    struct tw_parse_stats *ps);

#endif
