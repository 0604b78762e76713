/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for tw_ini_parse (lib/checkio/ini.c), the --extra-opts
 * ini reader.
 *
 * Every item handed to the callback is checked: its line number, that its
 * pointers lie inside the text and on that line, that keys are keys and
 * that nothing has blanks left around it, and that an item's section is
 * the last header's (or none, after a malformed header). Malformed items
 * must match the malformed count. A second pass stops at a chosen item and
 * must return the callback's value after exactly the same items. */
#include <stdint.h>
#include <string.h>

#include "checkio/ini.h"
#include "fuzz_check.h"

#define MAX_ITEMS 4096

struct seen {
	enum tw_ini_kind kind;
	unsigned long line;
	const char *key;
	size_t key_len;
	const char *value;
	size_t value_len;
	const char *section;
	size_t section_len;
};

struct ctx {
	const char *text;
	size_t len;
	struct seen items[MAX_ITEMS];
	size_t n;
	size_t malformed;
	unsigned long last_line;
	const char *section;	/* the section in force, as far as we know */
	size_t section_len;
	size_t stop_at;		/* item index that returns stop_rc, or SIZE_MAX */
	int stop_rc;
	int compare;		/* second pass: items must match the first's */
	const struct ctx *first;
};

static int
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int
inside(const struct ctx *c, const char *p, size_t len)
{
	return p >= c->text && len <= c->len && (size_t)(p - c->text) <= c->len - len;
}

/* A piece of one line: inside the text, on line `line`, with no newline,
 * no NUL and no blanks at either end. */
static void
check_piece(const struct ctx *c, unsigned long line, const char *p, size_t len, int may_be_empty)
{
	const char *q;
	unsigned long nl = 1;

	FUZZ_ASSERT(p != NULL && inside(c, p, len));
	FUZZ_ASSERT(may_be_empty || len > 0);
	FUZZ_ASSERT(memchr(p, '\n', len) == NULL && memchr(p, '\0', len) == NULL);
	if (len > 0)
		FUZZ_ASSERT(!blank(p[0]) && !blank(p[len - 1]));
	for (q = c->text; q < p; q++)
		if (*q == '\n')
			nl++;
	FUZZ_ASSERT(nl == line);
}

static int
key_ok(const char *k, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char ch = k[i];
		int alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9');

		if (!alnum && (i == 0 || (ch != '_' && ch != '-' && ch != '.')))
			return 0;
	}
	return len > 0;
}

static int
same_seen(const struct seen *a, const struct seen *b)
{
	return a->kind == b->kind && a->line == b->line && a->key == b->key &&
	    a->key_len == b->key_len && a->value == b->value && a->value_len == b->value_len &&
	    a->section == b->section && a->section_len == b->section_len;
}

static int
on_item(void *arg, const struct tw_ini_item *it)
{
	struct ctx *c = arg;
	struct seen *s;

	FUZZ_ASSERT(it->line > c->last_line);
	c->last_line = it->line;
	switch (it->kind) {
	case TW_INI_SECTION:
		check_piece(c, it->line, it->section, it->section_len, 0);
		FUZZ_ASSERT(memchr(it->section, '[', it->section_len) == NULL);
		FUZZ_ASSERT(memchr(it->section, ']', it->section_len) == NULL);
		FUZZ_ASSERT(it->key == NULL && it->value == NULL);
		c->section = it->section;
		c->section_len = it->section_len;
		break;
	case TW_INI_OPTION:
		check_piece(c, it->line, it->key, it->key_len, 0);
		FUZZ_ASSERT(key_ok(it->key, it->key_len));
		if (it->value != NULL) {
			check_piece(c, it->line, it->value, it->value_len, 1);
			FUZZ_ASSERT(it->value > it->key);
		} else {
			FUZZ_ASSERT(it->value_len == 0);
		}
		break;
	case TW_INI_MALFORMED:
		FUZZ_ASSERT(it->key == NULL && it->key_len == 0);
		FUZZ_ASSERT(it->value == NULL && it->value_len == 0);
		c->malformed++;
		break;
	default:
		FUZZ_ASSERT(!"an unknown item kind");
	}
	/* Options and malformed lines belong to the last good header, or to
	 * none once a header could not be read. */
	if (it->kind != TW_INI_SECTION) {
		if (it->section == NULL) {
			FUZZ_ASSERT(it->section_len == 0);
			c->section = NULL;
			c->section_len = 0;
		} else {
			FUZZ_ASSERT(it->section == c->section);
			FUZZ_ASSERT(it->section_len == c->section_len);
		}
	}

	FUZZ_ASSERT(c->n < MAX_ITEMS);
	s = &c->items[c->n];
	s->kind = it->kind;
	s->line = it->line;
	s->key = it->key;
	s->key_len = it->key_len;
	s->value = it->value;
	s->value_len = it->value_len;
	s->section = it->section;
	s->section_len = it->section_len;
	if (c->compare)
		FUZZ_ASSERT(c->n < c->first->n && same_seen(s, &c->first->items[c->n]));
	return c->n++ == c->stop_at ? c->stop_rc : 0;
}

static struct ctx first, second;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct tw_parse_stats ps = { 0, 0 };
	int rc;

	memset(&first, 0, sizeof(first));
	first.text = text;
	first.len = size;
	first.stop_at = SIZE_MAX;
	rc = tw_ini_parse(text, size, on_item, &first, &ps);
	FUZZ_ASSERT(rc == 0);
	fuzz_check_stats(&ps, text, size);
	FUZZ_ASSERT(ps.malformed == first.malformed);
	FUZZ_ASSERT(first.n <= ps.lines);
	if (first.n == 0)
		return 0;

	/* Stopped early, and without stats, the walk is the same so far. */
	memset(&second, 0, sizeof(second));
	second.text = text;
	second.len = size;
	second.stop_at = (unsigned char)text[size - 1] % first.n;
	second.stop_rc = -7 - (int)second.stop_at;
	second.compare = 1;
	second.first = &first;
	rc = tw_ini_parse(text, size, on_item, &second, NULL);
	FUZZ_ASSERT(rc == second.stop_rc);
	FUZZ_ASSERT(second.n == second.stop_at + 1);
	return 0;
}
