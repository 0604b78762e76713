/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "advice/value.h"

#include <inttypes.h>
#include <string.h>

#include "util/error.h"
#include "util/scan.h"
#include "util/strwriter.h"

/* A private copy of a looked-up value with tabs, newlines and carriage
 * returns turned into blanks, so that "4096\t131072\t6291456\n" and
 * "none\n" read like the values they are. */
static int
normalize(const char *text, char *buf, size_t size)
{
	size_t i;

	if (text == NULL)
		return TW_E_ABSENT;
	for (i = 0; text[i] != '\0'; i++) {
		if (i + 1 >= size)
			return TW_E_INVAL;
		buf[i] = text[i] == '\t' || text[i] == '\n' || text[i] == '\r' ? ' ' : text[i];
	}
	buf[i] = '\0';
	return TW_OK;
}

/* Blank-separated non-negative integers, as the kernel prints vectors
 * (with tabs) and scalars. Negative values are no tunable's in the table:
 * such a value is treated as unusable rather than halved or doubled. */
int
tw_value_parse_vec(const char *text, struct tw_value_vec *out)
{
	char buf[2 * TW_ADVICE_VALUE_LEN];
	struct tw_tokens it;
	const char *tok;
	size_t len;
	int rc;

	out->n = 0;
	if ((rc = normalize(text, buf, sizeof(buf))) != TW_OK)
		return rc;
	tw_tokens_init(&it, buf, strlen(buf));
	while (tw_tokens_next(&it, &tok, &len)) {
		if (out->n == TW_VALUE_VEC_MAX || tw_parse_i64(tok, len, &out->v[out->n]) != TW_OK ||
		    out->v[out->n] < 0)
			return TW_E_INVAL;
		out->n++;
	}
	return out->n > 0 ? TW_OK : TW_E_INVAL;
}

int
tw_value_fmt_vec(const struct tw_value_vec *v, char *out, size_t len)
{
	struct tw_strwriter w;
	size_t i;

	tw_strwriter_init(&w, out, len);
	for (i = 0; i < v->n; i++)
		tw_strwriter_printf(&w, "%s%" PRId64, i > 0 ? " " : "", v->v[i]);
	return tw_strwriter_finish(&w);
}

int
tw_value_copy_text(char *dst, const char *src)
{
	size_t len = strlen(src);

	if (len >= TW_ADVICE_VALUE_LEN)
		return TW_E_TOOBIG;
	memcpy(dst, src, len + 1);
	return TW_OK;
}

static int
word_char(char c)
{
	return c > ' ' && c != '[' && c != ']' && c != 0x7f;
}

/* The active word of a value: "mq-deadline", or the bracketed one of the
 * kernel's list "[mq-deadline] kyber bfq none". */
int
tw_value_active_word(const char *text, char *out)
{
	char buf[2 * TW_ADVICE_VALUE_LEN];
	const char *start, *end;
	size_t len;
	int rc;

	if ((rc = normalize(text, buf, sizeof(buf))) != TW_OK)
		return rc;
	text = buf;
	start = strchr(text, '[');
	if (start != NULL) {
		start++;
		end = strchr(start, ']');
		if (end == NULL)
			return TW_E_INVAL;
	} else {
		struct tw_tokens it;
		const char *tok, *more;
		size_t more_len;

		tw_tokens_init(&it, text, strlen(text));
		if (!tw_tokens_next(&it, &tok, &len) || tw_tokens_next(&it, &more, &more_len))
			return TW_E_INVAL;	/* none, or a list without a mark */
		start = tok;
		end = tok + len;
	}
	len = (size_t)(end - start);
	if (len == 0 || len >= TW_ADVICE_VALUE_LEN)
		return TW_E_INVAL;
	for (end = start; end < start + len; end++)
		if (!word_char(*end))
			return TW_E_INVAL;
	memcpy(out, start, len);
	out[len] = '\0';
	return TW_OK;
}

/* Is word one of the blank-separated list? */
int
tw_value_word_in(const char *word, const char *list)
{
	struct tw_tokens it;
	const char *tok;
	size_t len;

	tw_tokens_init(&it, list, strlen(list));
	while (tw_tokens_next(&it, &tok, &len))
		if (tw_token_is(tok, len, word))
			return 1;
	return 0;
}
