/* SPDX-License-Identifier: ISC */
/* A bounded string writer: text appended into a caller's fixed buffer.
 *
 * It remembers an overflow instead of truncating, so a caller appends
 * freely and checks once at the end; on overflow the buffer is emptied, so
 * nobody ever prints half a perfdata item or half an advice line. The
 * buffer is NUL-terminated after every append that fits. */
#ifndef TW_STRWRITER_H
#define TW_STRWRITER_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "util/printf.h"

struct tw_strwriter {
	char *buf;
	size_t cap;		/* the buffer's size, NUL included */
	size_t len;		/* bytes written, NUL excluded */
	int over;		/* something did not fit; sticky */
};

/* Start writing into buf (cap bytes); buf is "" when cap > 0. */
void tw_strwriter_init(struct tw_strwriter *w, char *buf, size_t cap);

/* Append n bytes of s (which need not be NUL-terminated). */
void tw_strwriter_put(struct tw_strwriter *w, const char *s, size_t n);

/* Append a NUL-terminated string. */
void tw_strwriter_puts(struct tw_strwriter *w, const char *s);

/* Append formatted text; a format error counts as an overflow. */
void tw_strwriter_printf(struct tw_strwriter *w, const char *fmt, ...) TW_PRINTF(2, 3);

/* TW_OK when everything fitted; otherwise TW_E_TOOBIG, and the buffer is
 * "" (when cap > 0). */
int tw_strwriter_finish(struct tw_strwriter *w);

/* Copy src (NULL reads as "") into dst (cap > 0 bytes, the NUL included),
 * cut to fit at any byte: for tunewatch's own text, printable ASCII, where
 * every byte is a character. A string someone else chose is shown and cut
 * at a unit's boundary instead (tw_escape_copy, util/escape.h). Inline and
 * not snprintf(), since the view copies several for every disk and pool. */
static inline void
tw_str_copy_cut(char *dst, size_t cap, const char *src)
{
	size_t n = src != NULL ? strnlen(src, cap - 1) : 0;

	memcpy(dst, src != NULL ? src : "", n);
	dst[n] = '\0';
}

#endif
