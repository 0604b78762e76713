/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "checkio/ini.h"

#include <string.h>

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static void
trim(const char **s, size_t *len)
{
	while (*len > 0 && is_blank(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && is_blank((*s)[*len - 1]))
		(*len)--;
}

static int
is_key_char(char c, int first)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return 1;
	return !first && (c == '_' || c == '-' || c == '.');
}

static int
valid_key(const char *k, size_t len)
{
	size_t i;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++)
		if (!is_key_char(k[i], i == 0))
			return 0;
	return 1;
}

/* "[name]" with an optional comment after it; 1 and the name if so. */
static int
parse_header(const char *s, size_t len, const char **name, size_t *nlen)
{
	const char *close = memchr(s, ']', len);
	const char *rest;
	size_t rlen;

	if (close == NULL)
		return 0;
	*name = s + 1;
	*nlen = (size_t)(close - s - 1);
	trim(name, nlen);
	if (*nlen == 0 || memchr(*name, '[', *nlen) != NULL)
		return 0;
	rest = close + 1;
	rlen = len - (size_t)(rest - s);
	trim(&rest, &rlen);
	return rlen == 0 || rest[0] == '#' || rest[0] == ';';
}

int
tw_ini_parse(const char *text, size_t len, tw_ini_fn fn, void *ctx,
    struct tw_parse_stats *stats)
{
	struct tw_lines it;
	struct tw_ini_item item;
	const char *line, *section = NULL;
	size_t llen, section_len = 0;
	unsigned long lineno = 0;
	int complete, rc;

	tw_lines_init(&it, text, len);
	while (tw_lines_next(&it, &line, &llen, &complete)) {
		const char *eq;

		lineno++;
		if (stats != NULL)
			stats->lines++;
		memset(&item, 0, sizeof(item));
		item.line = lineno;
		trim(&line, &llen);
		if (memchr(line, '\0', llen) != NULL) {
			item.kind = TW_INI_MALFORMED;
		} else if (llen == 0 || line[0] == '#' || line[0] == ';') {
			continue;
		} else if (line[0] == '[') {
			if (parse_header(line, llen, &section, &section_len)) {
				item.kind = TW_INI_SECTION;
			} else {
				/* Which section follows is anybody's guess. */
				section = NULL;
				section_len = 0;
				item.kind = TW_INI_MALFORMED;
			}
		} else {
			item.kind = TW_INI_OPTION;
			item.key = line;
			eq = memchr(line, '=', llen);
			item.key_len = eq != NULL ? (size_t)(eq - line) : llen;
			trim(&item.key, &item.key_len);
			if (eq != NULL) {
				item.value = eq + 1;
				item.value_len = llen - (size_t)(eq + 1 - line);
				trim(&item.value, &item.value_len);
			}
			if (!valid_key(item.key, item.key_len)) {
				item.kind = TW_INI_MALFORMED;
				item.key = item.value = NULL;
				item.key_len = item.value_len = 0;
			}
		}
		if (item.kind == TW_INI_MALFORMED && stats != NULL)
			stats->malformed++;
		item.section = section;
		item.section_len = section_len;
		rc = fn(ctx, &item);
		if (rc != 0)
			return rc;
	}
	return 0;
}
