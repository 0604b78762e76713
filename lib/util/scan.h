/* SPDX-License-Identifier: ISC */
/* Small, strict scanners for the kernel's text formats.
 *
 * The kernel's files are machine-written, so anything that does not fit
 * the expected shape is a sign of truncation or a format we do not know:
 * the scanners reject it rather than guess, and the collectors count the
 * line as malformed. */
#ifndef TW_SCAN_H
#define TW_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

/* What a parser saw: every line it read, and those it skipped because they
 * did not have the expected shape. Parsers add to these; they never reset
 * them, so one struct can count a whole sample. */
struct tw_parse_stats {
	uint64_t lines;
	uint64_t malformed;
};

/* Iterate over the lines of a buffer. */
struct tw_lines {
	const char *p;
	const char *end;
};

void tw_lines_init(struct tw_lines *it, const char *text, size_t len);

/* Return the next line (without its '\n') in *line and *len and 1, or 0 at
 * the end. *complete says whether the line ended with '\n': the kernel
 * ends every line of a /proc file with one, so a last line without it is
 * a truncated read. */
int tw_lines_next(struct tw_lines *it, const char **line, size_t *len, int *complete);

/* The loop of every collector whose file holds one entry a line: count
 * each line in ps and hand each complete one to parse_line with ctx. An
 * incomplete line, and one parse_line rejects with TW_E_INVAL, counts as
 * malformed; any other error (TW_E_NOMEM) ends the loop and is returned.
 * So a parser only says what one line is, and every collector counts
 * lines the same way. */
typedef int tw_line_parser(void *ctx, const char *line, size_t len);
int tw_parse_lines(const char *text, size_t len, tw_line_parser *parse_line, void *ctx,
    struct tw_parse_stats *ps);

/* Iterate over the blank-separated tokens (spaces and tabs) of a line. */
struct tw_tokens {
	const char *p;
	const char *end;
};

void tw_tokens_init(struct tw_tokens *it, const char *line, size_t len);
int tw_tokens_next(struct tw_tokens *it, const char **tok, size_t *len);
/* Count the tokens left, without consuming them. */
size_t tw_tokens_count(const struct tw_tokens *it);

/* The next token as a number, read in the one pass that finds it: 1 with
 * *out set, 0 when the line has no token left, TW_E_INVAL for a token that
 * is not digits alone and TW_E_RANGE for one past 2^64-1 (what
 * tw_tokens_next and tw_parse_u64 or tw_parse_hex_u64 together say of
 * it). Inline because the counters of /proc/diskstats and softnet_stat are
 * read this way: 170,000 and 13,000 of them a sample at 10,000 disks and
 * 1,024 CPUs. */
static inline int
tw_tokens_start(struct tw_tokens *it)
{
	while (it->p < it->end && (*it->p == ' ' || *it->p == '\t'))
		it->p++;
	return it->p < it->end;
}

/* Where a number's digits stopped at p: the token must end there. */
static inline int
tw_tokens_end_number(struct tw_tokens *it, const char *p, uint64_t v, uint64_t *out)
{
	if (p == it->p || (p < it->end && *p != ' ' && *p != '\t'))
		return TW_E_INVAL;
	it->p = p;
	*out = v;
	return 1;
}

static inline int
tw_tokens_next_u64(struct tw_tokens *it, uint64_t *out)
{
	const char *p;
	uint64_t v = 0;

	if (!tw_tokens_start(it))
		return 0;
	for (p = it->p; p < it->end; p++) {
		unsigned d = (unsigned)(unsigned char)*p - '0';

		if (d > 9)
			break;
		/* Only a number of 20 digits comes near the top. */
		if (v >= UINT64_MAX / 10 && (v > UINT64_MAX / 10 || d > UINT64_MAX % 10))
			return TW_E_RANGE;
		v = v * 10 + d;
	}
	return tw_tokens_end_number(it, p, v, out);
}

static inline int
tw_tokens_next_hex_u64(struct tw_tokens *it, uint64_t *out)
{
	const char *p;
	uint64_t v = 0;

	if (!tw_tokens_start(it))
		return 0;
	for (p = it->p; p < it->end; p++) {
		unsigned c = (unsigned char)*p, d = c - '0';

		if (d > 9) {
			d = (c | 0x20u) - 'a';
			if (d > 5)
				break;
			d += 10;
		}
		if (v >> 60 != 0)
			return TW_E_RANGE;
		v = v << 4 | d;
	}
	return tw_tokens_end_number(it, p, v, out);
}

/* Parse a whole token; no sign, no spaces, no trailing garbage.
 * Return TW_OK, TW_E_INVAL or TW_E_RANGE (beyond 2^64-1). */
int tw_parse_u64(const char *s, size_t len, uint64_t *out);
int tw_parse_hex_u64(const char *s, size_t len, uint64_t *out);
/* An optional leading '-', then digits. */
int tw_parse_i64(const char *s, size_t len, int64_t *out);
/* A decimal with at most two fractional digits ("12", "12.3", "12.34"),
 * returned in hundredths: the form of PSI averages. */
int tw_parse_hundredths(const char *s, size_t len, uint64_t *out);

/* Compare a token with a NUL-terminated string. */
int tw_token_is(const char *tok, size_t len, const char *word);

/* Copy a token into a fixed buffer; TW_E_TOOBIG when it does not fit. */
int tw_token_copy(char *dst, size_t dstlen, const char *tok, size_t len);

/* A line of a configuration file without its leading blanks and its
 * trailing blanks and newline: s is cut in place, and the result points
 * into it. */
char *tw_trim(char *s);

#endif
