/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "util/strwriter.h"

#include <stdio.h>
#include <string.h>

#include "util/error.h"

void
tw_strwriter_init(struct tw_strwriter *w, char *buf, size_t cap)
{
	w->buf = buf;
	w->cap = cap;
	w->len = 0;
	w->over = 0;
	if (cap > 0)
		buf[0] = '\0';
}

void
tw_strwriter_put(struct tw_strwriter *w, const char *s, size_t n)
{
	/* Room for n bytes and the NUL, or nothing at all. */
	if (w->over || w->cap - w->len <= n) {
		w->over = 1;
		return;
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	w->buf[w->len] = '\0';
}

void
tw_strwriter_puts(struct tw_strwriter *w, const char *s)
{
	tw_strwriter_put(w, s, strlen(s));
}

void
tw_strwriter_printf(struct tw_strwriter *w, const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int n;

	if (w->over || w->cap == 0) {
		w->over = 1;
		return;
	}
	room = w->cap - w->len;
	va_start(ap, fmt);
	n = vsnprintf(w->buf + w->len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		/* vsnprintf left a truncated tail: take it back. */
		w->buf[w->len] = '\0';
		w->over = 1;
		return;
	}
	w->len += (size_t)n;
}

int
tw_strwriter_finish(struct tw_strwriter *w)
{
	if (!w->over)
		return TW_OK;
	if (w->cap > 0)
		w->buf[0] = '\0';
	return TW_E_TOOBIG;
}
