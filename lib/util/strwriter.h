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

#ifndef TW_PRINTF
#if defined(__GNUC__)
#define TW_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TW_PRINTF(f, a)
#endif
#endif

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

#endif
