/* SPDX-License-Identifier: ISC */
/* /proc/net/protocols: a line per protocol the kernel registered, with the
 * memory its sockets hold and whether it is in memory pressure now.
 *
 * TCP's memory pressure is a state, not an event: the kernel counts the
 * times it enters it (TcpExt TCPMemoryPressures) and, only when it leaves,
 * the time it spent in it (TCPMemoryPressuresChrono). While it lasts,
 * neither counter moves; this file's "press" column is the one place that
 * says it is under way. Columns are found by their header's names, since
 * kernels have added columns to the line before. */
#ifndef TW_PROTOCOLS_H
#define TW_PROTOCOLS_H

#include <stddef.h>
#include <stdint.h>

#include "util/readfile.h"
#include "util/scan.h"

#define TW_PROTO_NAME_LEN 16
/* More than any kernel registers (about 20); later lines are counted and
 * left out. */
#define TW_PROTOCOLS_MAX 40

enum tw_proto_pressure {
	TW_PROTO_PRESSURE_NI = -1,	/* "NI": the protocol has no pressure state */
	TW_PROTO_PRESSURE_NO = 0,
	TW_PROTO_PRESSURE_YES = 1,
};

struct tw_protocol {
	char name[TW_PROTO_NAME_LEN];	/* "TCP", "UDPv6" */
	int64_t memory;			/* pages; -1: the protocol keeps no count */
	enum tw_proto_pressure pressure;
};

struct tw_protocols {
	size_t count;
	struct tw_protocol p[TW_PROTOCOLS_MAX];
	int have_header;		/* a header with protocol, memory and press */
	size_t left_out;		/* lines past TW_PROTOCOLS_MAX */
};

/* The first line is the header; each line after it whose protocol,
 * memory and press fields are where the header puts them (memory a
 * number, press "yes", "no" or "NI") is kept, any other is malformed.
 * Without such a header every line is malformed. */
int tw_protocols_parse(const char *text, size_t len, struct tw_protocols *out,
    struct tw_parse_stats *ps);
int tw_protocols_read(int proc_fd, struct tw_buf *scratch, struct tw_protocols *out,
    struct tw_parse_stats *ps);

/* The row of protocol name, or NULL. */
const struct tw_protocol *tw_protocols_find(const struct tw_protocols *ps, const char *name);

#endif
