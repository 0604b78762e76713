/* SPDX-License-Identifier: ISC */
/* A tunable's value as text: read as the kernel prints it (a vector of
 * integers with tabs, a word, or the bracketed word of a list) and
 * written back as a suggestion. Used inside lib/advice; advice.h includes
 * it for TW_ADVICE_VALUE_LEN, the size of the values it hands out. */
#ifndef TW_ADVICE_VALUE_H
#define TW_ADVICE_VALUE_H

#include <stddef.h>
#include <stdint.h>

/* The longest value's text, with its NUL. */
#define TW_ADVICE_VALUE_LEN 128

/* The most fields a vector tunable has (tcp_rmem and friends have 3). */
#define TW_VALUE_VEC_MAX 8

struct tw_value_vec {
	int64_t v[TW_VALUE_VEC_MAX];
	size_t n;
};

/* Blank-separated non-negative integers, as the kernel prints vectors
 * and scalars, and their text. */
int tw_value_parse_vec(const char *text, struct tw_value_vec *out);
int tw_value_fmt_vec(const struct tw_value_vec *v, char *out, size_t len);

/* A copy of src whole into dst (TW_ADVICE_VALUE_LEN bytes), or
 * TW_E_TOOBIG. */
int tw_value_copy_text(char *dst, const char *src);

/* The active word of a value into out (TW_ADVICE_VALUE_LEN bytes). */
int tw_value_active_word(const char *text, char *out);

/* Is word one of the blank-separated list? */
int tw_value_word_in(const char *word, const char *list);

#endif
