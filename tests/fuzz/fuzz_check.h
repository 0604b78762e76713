/* SPDX-License-Identifier: ISC */
/* Shared helpers for the libFuzzer targets in tests/fuzz/.
 *
 * A broken invariant aborts, so that libFuzzer records the input as a
 * crash just as it does for a sanitizer report. Inputs are handed to the
 * parsers in libFuzzer's own buffer, which is exactly as long as the input,
 * so AddressSanitizer sees any read past its end. */
#ifndef TW_FUZZ_CHECK_H
#define TW_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: invariant broken: %s\n",	\
		    __FILE__, __LINE__, #cond);				\
		abort();						\
	}								\
} while (0)

/* The lines tw_lines_next() yields: one per '\n', and one more for a last
 * line without it. Every parser counts each of them in stats.lines. */
static inline uint64_t
fuzz_count_lines(const char *text, size_t len)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		if (text[i] == '\n')
			n++;
	if (len > 0 && text[len - 1] != '\n')
		n++;
	return n;
}

/* The counts every line-based parser must keep. */
static inline void
fuzz_check_stats(const struct tw_parse_stats *ps, const char *text, size_t len)
{
	FUZZ_ASSERT(ps->lines == fuzz_count_lines(text, len));
	FUZZ_ASSERT(ps->malformed <= ps->lines);
}

/* A place to cut text in two at a line boundary: just after the first
 * '\n' at or after a position picked from the input itself, or len. The
 * two halves parsed one after the other must give what the whole gives,
 * for the parsers whose lines do not depend on each other. */
static inline size_t
fuzz_line_cut(const char *text, size_t len)
{
	const char *nl;
	size_t from;

	if (len == 0)
		return 0;
	from = (unsigned char)text[0] % len;
	nl = memchr(text + from, '\n', len - from);
	return nl != NULL ? (size_t)(nl - text) + 1 : len;
}

/* A NUL-terminated copy, for the functions that take a C string. */
static inline char *
fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
