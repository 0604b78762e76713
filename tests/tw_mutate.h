/* SPDX-License-Identifier: ISC */
/* Corrupted copies of a real capture, for check_collectors' test_mutations.
 *
 * Each round starts again from the capture, replaces 1 to max_edits bytes
 * with characters of an alphabet and, every third round, cuts the text at
 * a random length. The generator is a fixed LCG with the test's own seed,
 * so a failing round fails again on every run. */
#ifndef TW_MUTATE_H
#define TW_MUTATE_H

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "util/readfile.h"
#include "tw_check.h"
#include "util/error.h"

struct tw_mutator {
	struct tw_buf orig;	/* the capture as read */
	struct tw_buf text;	/* this round's copy; its length is what next() returns */
	const char *alphabet;
	size_t alphabet_len;	/* counts a NUL inside the alphabet */
	unsigned max_edits;
	uint32_t seed;
};

static inline uint32_t
tw_mutator_rand(struct tw_mutator *m)
{
	m->seed = m->seed * 1103515245u + 12345u;
	return m->seed;
}

/* Read <fixtures>/<dir>/<file>, which must not be empty. */
static inline void
tw_mutator_init(struct tw_mutator *m, const char *dir, const char *file,
    const char *alphabet, size_t alphabet_len, unsigned max_edits, uint32_t seed)
{
	int fd = open(tw_fixture_path(dir), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_buf_init(&m->orig);
	tw_buf_init(&m->text);
	ck_assert_int_eq(tw_read_file_at(fd, file, &m->orig), TW_OK);
	close(fd);
	ck_assert_uint_gt(m->orig.len, 0);
	ck_assert_int_eq(tw_buf_reserve(&m->text, m->orig.len + 1), TW_OK);
	m->alphabet = alphabet;
	m->alphabet_len = alphabet_len;
	m->max_edits = max_edits;
	m->seed = seed;
}

/* Make round `round`'s text in m->text.data. Returns its length; *lines
 * is the number of lines a parser must count in it (one per '\n', and
 * one more for a last line without one). */
static inline size_t
tw_mutator_next(struct tw_mutator *m, unsigned round, uint64_t *lines)
{
	size_t len, i, nl = 0;
	unsigned k;
	uint32_t r;

	memcpy(m->text.data, m->orig.data, m->orig.len);
	for (k = 0; k < 1 + round % m->max_edits; k++) {
		r = tw_mutator_rand(m);
		m->text.data[(r >> 8) % m->orig.len] = m->alphabet[(r >> 20) % m->alphabet_len];
	}
	r = tw_mutator_rand(m);
	len = round % 3 == 0 ? (r >> 8) % (m->orig.len + 1) : m->orig.len;
	for (i = 0; i < len; i++)
		nl += m->text.data[i] == '\n';
	*lines = nl + (len > 0 && m->text.data[len - 1] != '\n');
	return len;
}

static inline void
tw_mutator_free(struct tw_mutator *m)
{
	tw_buf_free(&m->text);
	tw_buf_free(&m->orig);
}

#endif
