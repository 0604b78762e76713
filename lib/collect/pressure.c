/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/pressure.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"

#define PSI_RESOURCE_MAX 16

/* Parse "avg10=0.00 avg60=0.00 avg300=0.00 total=0" after the kind. Keys
 * are found by name; all four are needed, and keys a newer kernel might
 * add are ignored. */
static int
psi_parse_fields(struct tw_tokens *it, struct tw_psi_line *pl)
{
	const char *tok, *eq;
	size_t tlen, klen;
	unsigned seen = 0;

	memset(pl, 0, sizeof(*pl));
	while (tw_tokens_next(it, &tok, &tlen)) {
		const char *v;
		size_t vlen;
		unsigned bit;
		int rc;

		eq = memchr(tok, '=', tlen);
		if (eq == NULL || eq == tok)
			return TW_E_INVAL;
		klen = (size_t)(eq - tok);
		v = eq + 1;
		vlen = tlen - klen - 1;
		if (tw_token_is(tok, klen, "avg10")) {
			bit = 1;
			rc = tw_parse_hundredths(v, vlen, &pl->avg10);
		} else if (tw_token_is(tok, klen, "avg60")) {
			bit = 2;
			rc = tw_parse_hundredths(v, vlen, &pl->avg60);
		} else if (tw_token_is(tok, klen, "avg300")) {
			bit = 4;
			rc = tw_parse_hundredths(v, vlen, &pl->avg300);
		} else if (tw_token_is(tok, klen, "total")) {
			bit = 8;
			rc = tw_parse_u64(v, vlen, &pl->total_us);
		} else {
			continue;
		}
		if (rc != TW_OK || (seen & bit))
			return TW_E_INVAL;
		seen |= bit;
	}
	return seen == 15 ? TW_OK : TW_E_INVAL;
}

/* The kernel's own form of a line, "some avg10=0.12 avg60=0.00
 * avg300=0.00 total=123" with single spaces and two decimals, read in one
 * pass: a cgroup's two pressure files are read every fourth sample for
 * each published cgroup, and tokenising them was a seventh of what 500
 * cgroups added to a sample. Anything else returns 0 and is parsed token
 * by token, as before; what this takes, that parse takes the same. */
static const char *
fast_literal(const char *p, const char *end, const char *word, size_t wlen)
{
	return p != NULL && (size_t)(end - p) >= wlen && memcmp(p, word, wlen) == 0 ?
	    p + wlen : NULL;
}

/* One digit or more, and fewer than max, summed into *out. More digits
 * wrap the sum, which is then not used. */
static const char *
fast_digits(const char *p, const char *end, size_t max, uint64_t *out)
{
	const char *start = p;
	uint64_t n = 0;

	if (p == NULL)
		return NULL;
	for (; p < end && (unsigned)(*p - '0') < 10; p++)
		n = n * 10 + (uint64_t)(*p - '0');
	if (p == start || (size_t)(p - start) >= max)
		return NULL;
	*out = n;
	return p;
}

/* "12.34": whole digits short enough that times 100 cannot overflow. */
static const char *
fast_hundredths(const char *p, const char *end, uint64_t *out)
{
	uint64_t whole;

	p = fast_digits(p, end, 17, &whole);
	if (p == NULL || end - p < 3 || p[0] != '.' || (unsigned)(p[1] - '0') >= 10 ||
	    (unsigned)(p[2] - '0') >= 10)
		return NULL;
	*out = whole * 100 + (uint64_t)(p[1] - '0') * 10 + (uint64_t)(p[2] - '0');
	return p + 3;
}

#define LIT(s) s, sizeof(s) - 1

static int
psi_fast_line(const char *line, size_t len, struct tw_psi_line *pl, int *some)
{
	const char *end = line + len, *p;

	if ((p = fast_literal(line, end, LIT("some "))) != NULL)
		*some = 1;
	else if ((p = fast_literal(line, end, LIT("full "))) != NULL)
		*some = 0;
	else
		return 0;
	p = fast_hundredths(fast_literal(p, end, LIT("avg10=")), end, &pl->avg10);
	p = fast_hundredths(fast_literal(p, end, LIT(" avg60=")), end, &pl->avg60);
	p = fast_hundredths(fast_literal(p, end, LIT(" avg300=")), end, &pl->avg300);
	p = fast_digits(fast_literal(p, end, LIT(" total=")), end, 20, &pl->total_us);
	return p == end;
}

/* A parsed line kept as the file's some or full figures. */
static void
psi_store(struct tw_psi *out, int some, const struct tw_psi_line *pl)
{
	if (some) {
		out->some = *pl;
		out->has_some = 1;
	} else {
		out->full = *pl;
		out->has_full = 1;
	}
}

/* One "some ..." or "full ..." line; any other kind is malformed. */
static int
psi_parse_line(void *ctx, const char *line, size_t len)
{
	struct tw_psi *out = ctx;
	struct tw_tokens it;
	struct tw_psi_line pl;
	const char *kind;
	size_t klen;
	int some;

	if (psi_fast_line(line, len, &pl, &some)) {
		psi_store(out, some, &pl);
		return TW_OK;
	}
	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &kind, &klen) || psi_parse_fields(&it, &pl) != TW_OK)
		return TW_E_INVAL;
	if (tw_token_is(kind, klen, "some"))
		psi_store(out, 1, &pl);
	else if (tw_token_is(kind, klen, "full"))
		psi_store(out, 0, &pl);
	else
		return TW_E_INVAL;
	return TW_OK;
}

int
tw_psi_parse(const char *text, size_t len, struct tw_psi *out, struct tw_parse_stats *ps)
{
	return tw_parse_lines(text, len, psi_parse_line, out, ps);
}

/* A kernel built with PSI but booted with psi=0 (or a cgroup with
 * cgroup.pressure 0) lets the file be opened and fails the read with
 * EOPNOTSUPP, which tw_read_file_at reports as TW_E_IO. Tell that case
 * apart, on the error path only, so that it reads as "not available". */
static int
psi_read_unsupported(int proc_fd, const char *rel)
{
	char c;
	int fd, unsupported = 0;

	fd = openat(proc_fd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return 0;
	if (read(fd, &c, 1) < 0 && (errno == EOPNOTSUPP || errno == ENOTSUP))
		unsupported = 1;
	close(fd);
	return unsupported;
}

int
tw_psi_read(int proc_fd, const char *resource, struct tw_buf *scratch, struct tw_psi *out,
    struct tw_parse_stats *ps)
{
	char rel[PSI_RESOURCE_MAX + sizeof("pressure/")];
	size_t i, len;
	int rc;

	memset(out, 0, sizeof(*out));
	if (resource == NULL)
		return TW_E_INVAL;
	/* A plain word: never a path out of pressure/. */
	len = strlen(resource);
	if (len == 0 || len >= PSI_RESOURCE_MAX)
		return TW_E_INVAL;
	for (i = 0; i < len; i++)
		if (resource[i] < 'a' || resource[i] > 'z')
			return TW_E_INVAL;
	snprintf(rel, sizeof(rel), "pressure/%s", resource);

	rc = tw_read_file_at(proc_fd, rel, scratch);
	if (rc == TW_E_IO && psi_read_unsupported(proc_fd, rel))
		rc = TW_E_ABSENT;
	if (rc != TW_OK)
		return rc;
	return tw_psi_parse(scratch->data, scratch->len, out, ps);
}
