/* SPDX-License-Identifier: ISC */
/* /proc/pressure/{memory,io}: pressure stall information (PSI, 4.20+).
 * See the kernel's Documentation/accounting/psi.rst. */
#ifndef TW_PRESSURE_H
#define TW_PRESSURE_H

#include <stddef.h>
#include <stdint.h>

#include "util/readfile.h"
#include "util/scan.h"

struct tw_psi_line {
	uint64_t avg10;		/* hundredths of a percent */
	uint64_t avg60;
	uint64_t avg300;
	uint64_t total_us;	/* cumulative stall time */
};

struct tw_psi {
	int has_some;
	int has_full;
	struct tw_psi_line some;
	struct tw_psi_line full;
};

/* Lines "some avg10=0.00 avg60=0.00 avg300=0.00 total=0" and "full ...". */
int tw_psi_parse(const char *text, size_t len, struct tw_psi *out, struct tw_parse_stats *ps);
/* resource is "memory" or "io" (any lower-case word; TW_E_INVAL for
 * others). TW_E_ABSENT without PSI, and with psi=0, where the file may
 * exist but its read fails with EOPNOTSUPP. A line whose kind is neither
 * "some" nor "full", or that lacks one of the four keys, is malformed. */
int tw_psi_read(int proc_fd, const char *resource, struct tw_buf *scratch, struct tw_psi *out,
    struct tw_parse_stats *ps);

#endif
