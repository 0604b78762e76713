/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/netstat.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"

void
tw_netstat_set_init(struct tw_netstat_set *s)
{
	s->entries = NULL;
	s->count = 0;
	s->cap = 0;
}

void
tw_netstat_set_free(struct tw_netstat_set *s)
{
	free(s->entries);
	tw_netstat_set_init(s);
}

static int
netstat_set_grow(struct tw_netstat_set *s)
{
	void *p;
	int rc = tw_array_grow(s->entries, &s->cap, s->count + 1, sizeof(*s->entries), &p);

	s->entries = p;
	return rc;
}

/* The "Proto:" that starts a line, without its colon; 0 when the line
 * does not start with one that fits. */
static int
line_proto(struct tw_tokens *it, const char **proto, size_t *plen)
{
	const char *tok;
	size_t tlen;

	if (!tw_tokens_next(it, &tok, &tlen) || tlen < 2 || tok[tlen - 1] != ':')
		return 0;
	if (tlen - 1 >= TW_NETSTAT_PROTO_LEN || memchr(tok, '\0', tlen) != NULL)
		return 0;
	*proto = tok;
	*plen = tlen - 1;
	return 1;
}

/* A value as the kernel prints it: unsigned (64-bit counters exceed
 * INT64_MAX) or, for a few fields such as Tcp MaxConn, negative. */
static int
netstat_value(const char *tok, size_t len, uint64_t *value, int *negative)
{
	int64_t sv;

	if (tw_parse_u64(tok, len, value) == TW_OK) {
		*negative = 0;
		return TW_OK;
	}
	if (len > 0 && tok[0] == '-' && tw_parse_i64(tok, len, &sv) == TW_OK && sv < 0) {
		*value = (uint64_t)sv;
		*negative = 1;
		return TW_OK;
	}
	return TW_E_INVAL;
}

/* Append the entries of one header/value pair. Returns TW_OK or
 * TW_E_NOMEM; *bad says whether an entry had to be skipped. */
static int
netstat_pair(const char *proto, size_t plen, struct tw_tokens *names,
    struct tw_tokens *values, struct tw_netstat_set *out, int *bad)
{
	const char *name, *val;
	size_t nlen, vlen;
	int rc;

	*bad = 0;
	while (tw_tokens_next(names, &name, &nlen) && tw_tokens_next(values, &val, &vlen)) {
		struct tw_netstat_entry *e;
		uint64_t v;
		int neg;

		if (nlen >= TW_NETSTAT_NAME_LEN || memchr(name, '\0', nlen) != NULL ||
		    netstat_value(val, vlen, &v, &neg) != TW_OK) {
			*bad = 1;
			continue;
		}
		if ((rc = netstat_set_grow(out)) != TW_OK)
			return rc;
		e = &out->entries[out->count++];
		memcpy(e->proto, proto, plen);
		e->proto[plen] = '\0';
		memcpy(e->name, name, nlen);
		e->name[nlen] = '\0';
		e->value = v;
		e->negative = neg;
	}
	return TW_OK;
}

int
tw_netstat_parse(const char *text, size_t len, struct tw_netstat_set *out,
    struct tw_parse_stats *ps)
{
	struct tw_lines lines;
	const char *hline, *vline, *hp, *vp;
	size_t hlen, vlen, hplen, vplen;
	int hcomplete, vcomplete, bad, rc;

	tw_lines_init(&lines, text, len);
	while (tw_lines_next(&lines, &hline, &hlen, &hcomplete)) {
		struct tw_tokens names, values;

		ps->lines++;
		tw_tokens_init(&names, hline, hlen);
		if (!hcomplete || !line_proto(&names, &hp, &hplen)) {
			/* Not a header: try the next line as one. */
			ps->malformed++;
			continue;
		}
		if (!tw_lines_next(&lines, &vline, &vlen, &vcomplete)) {
			ps->malformed++;	/* a header without its values */
			break;
		}
		ps->lines++;
		tw_tokens_init(&values, vline, vlen);
		if (!vcomplete || !line_proto(&values, &vp, &vplen) || hplen != vplen ||
		    memcmp(hp, vp, hplen) != 0 ||
		    tw_tokens_count(&names) != tw_tokens_count(&values)) {
			/* Names and values cannot be matched: drop both. */
			ps->malformed += 2;
			continue;
		}
		if ((rc = netstat_pair(hp, hplen, &names, &values, out, &bad)) != TW_OK)
			return rc;
		if (bad)
			ps->malformed++;
	}
	return TW_OK;
}

int
tw_netstat_read(int proc_fd, struct tw_buf *scratch, struct tw_netstat_set *out,
    struct tw_parse_stats *ps)
{
	static const char *const files[] = { "net/snmp", "net/netstat" };
	size_t i, absent = 0;
	int rc;

	out->count = 0;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		rc = tw_read_file_at(proc_fd, files[i], scratch);
		if (rc == TW_E_ABSENT) {
			absent++;
			continue;
		}
		if (rc == TW_OK)
			rc = tw_netstat_parse(scratch->data, scratch->len, out, ps);
		if (rc != TW_OK)
			return rc;
	}
	return absent == sizeof(files) / sizeof(files[0]) ? TW_E_ABSENT : TW_OK;
}

int
tw_netstat_get(const struct tw_netstat_set *s, const char *proto, const char *name,
    uint64_t *value)
{
	size_t i;

	for (i = 0; i < s->count; i++) {
		if (strcmp(s->entries[i].proto, proto) == 0 &&
		    strcmp(s->entries[i].name, name) == 0) {
			*value = s->entries[i].value;
			return TW_OK;
		}
	}
	return TW_E_ABSENT;
}
