/* SPDX-License-Identifier: ISC */
/* The ini reader behind --extra-opts: a buffer in, callbacks out, so it
 * can be fuzzed and tested without files.
 *
 *   # comment            ; comment too (only at the start of a line:
 *                          values keep '#' and ';', pass phrases need them)
 *   [section]
 *   key = value          key[=value]; blanks around keys, values and
 *                        section names are trimmed, values otherwise kept
 *                        verbatim (no quotes removed)
 *
 * A key is [A-Za-z0-9][A-Za-z0-9._-]*. What a line means to a plugin, and
 * which malformed lines matter, is checkio/extraopts.h's business. */
#ifndef TW_INI_H
#define TW_INI_H

#include <stddef.h>

#include "util/scan.h"

enum tw_ini_kind {
	TW_INI_SECTION,		/* "[name]": section, section_len */
	TW_INI_OPTION,		/* "key[=value]" */
	TW_INI_MALFORMED,	/* anything else that is not blank or a comment */
};

struct tw_ini_item {
	enum tw_ini_kind kind;
	unsigned long line;	/* 1-based */
	/* The current section (for SECTION, the new one). NULL before the
	 * first header and after a malformed header: nobody can tell which
	 * section such lines belong to. Not NUL-terminated. */
	const char *section;
	size_t section_len;
	const char *key;	/* OPTION only; not NUL-terminated */
	size_t key_len;
	const char *value;	/* OPTION with '=' only, else NULL */
	size_t value_len;
};

/* Return 0 to go on, anything else to stop: tw_ini_parse returns it. */
typedef int (*tw_ini_fn)(void *ctx, const struct tw_ini_item *item);

/* Parse len bytes of text (NULs allowed: a line holding one is
 * malformed; the last line may lack its newline; "\r\n" is accepted).
 * Every line is counted in stats->lines and every malformed one in
 * stats->malformed (stats may be NULL). Returns 0 after the last line, or
 * the first non-zero value fn returned. */
int tw_ini_parse(const char *text, size_t len, tw_ini_fn fn, void *ctx,
    struct tw_parse_stats *stats);

#endif
