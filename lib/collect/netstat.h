/* SPDX-License-Identifier: ISC */
/* /proc/net/snmp and /proc/net/netstat: protocol counters as pairs of
 * lines, "Proto: Name1 Name2 ..." then "Proto: value1 value2 ...".
 *
 * Counters are found by protocol and name, never by position: kernels add
 * columns in the middle of these lines. */
#ifndef TW_NETSTAT_H
#define TW_NETSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "util/readfile.h"
#include "util/scan.h"

#define TW_NETSTAT_PROTO_LEN 16
#define TW_NETSTAT_NAME_LEN 48

struct tw_netstat_entry {
	char proto[TW_NETSTAT_PROTO_LEN];	/* "Udp", "TcpExt" */
	char name[TW_NETSTAT_NAME_LEN];		/* "RcvbufErrors" */
	uint64_t value;		/* two's complement of a negative value */
	int negative;		/* 1 for Tcp MaxConn's -1 and the like */
};

struct tw_netstat_set {
	struct tw_netstat_entry *entries;
	size_t count;
	size_t cap;
};

void tw_netstat_set_init(struct tw_netstat_set *s);
void tw_netstat_set_free(struct tw_netstat_set *s);

/* Append the counters of one file's text. A header/value pair whose
 * protocols differ or whose counts differ is malformed (both lines
 * counted); a value that is not a number is skipped and counted. */
int tw_netstat_parse(const char *text, size_t len, struct tw_netstat_set *out,
    struct tw_parse_stats *ps);

/* Clear out, then read net/snmp and net/netstat (either may be absent). */
int tw_netstat_read(int proc_fd, struct tw_buf *scratch, struct tw_netstat_set *out,
    struct tw_parse_stats *ps);

/* Find a counter. TW_E_ABSENT when this kernel does not have it. */
int tw_netstat_get(const struct tw_netstat_set *s, const char *proto, const char *name,
    uint64_t *value);

#endif
