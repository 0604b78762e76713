/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "collect/sockstat.h"

#include <string.h>

#include "util/error.h"

static const struct {
	const char *proto;
	const char *key;
	enum tw_sock_field field;
} sock_keys[] = {
	{ "TCP:", "inuse", TW_SOCK_TCP_INUSE },
	{ "TCP:", "orphan", TW_SOCK_TCP_ORPHAN },
	{ "TCP:", "tw", TW_SOCK_TCP_TW },
	{ "TCP:", "alloc", TW_SOCK_TCP_ALLOC },
	{ "TCP:", "mem", TW_SOCK_TCP_MEM },
	{ "UDP:", "inuse", TW_SOCK_UDP_INUSE },
	{ "UDP:", "mem", TW_SOCK_UDP_MEM },
};

/* Check "PROTO: key value ..." and keep the pairs we know. The line is
 * checked whole before anything is stored, so a bad line changes nothing. */
static int
sock_parse_line(void *ctx, const char *line, size_t len)
{
	struct tw_sockstat *out = ctx;
	struct tw_tokens it, check;
	const char *proto, *key, *val;
	size_t plen, klen, vlen, n, i;
	uint64_t v;

	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &proto, &plen) || plen < 2 || proto[plen - 1] != ':')
		return TW_E_INVAL;
	n = tw_tokens_count(&it);
	if (n == 0 || n % 2 != 0)
		return TW_E_INVAL;
	check = it;
	while (tw_tokens_next(&check, &key, &klen) && tw_tokens_next(&check, &val, &vlen))
		if (tw_parse_u64(val, vlen, &v) != TW_OK)
			return TW_E_INVAL;

	while (tw_tokens_next(&it, &key, &klen) && tw_tokens_next(&it, &val, &vlen)) {
		(void)tw_parse_u64(val, vlen, &v);
		for (i = 0; i < sizeof(sock_keys) / sizeof(sock_keys[0]); i++) {
			if (tw_token_is(proto, plen, sock_keys[i].proto) &&
			    tw_token_is(key, klen, sock_keys[i].key)) {
				out->v[sock_keys[i].field] = v;
				out->present |= UINT32_C(1) << sock_keys[i].field;
				break;
			}
		}
	}
	return TW_OK;
}

int
tw_sockstat_parse(const char *text, size_t len, struct tw_sockstat *out,
    struct tw_parse_stats *ps)
{
	return tw_parse_lines(text, len, sock_parse_line, out, ps);
}

int
tw_sockstat_read(int proc_fd, struct tw_buf *scratch, struct tw_sockstat *out,
    struct tw_parse_stats *ps)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = tw_read_file_at(proc_fd, "net/sockstat", scratch)) != TW_OK)
		return rc;
	return tw_sockstat_parse(scratch->data, scratch->len, out, ps);
}
