/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "sockets/dropgate.h"

#include <string.h>

#include "util/error.h"
#include "util/scan.h"

int
tw_dropgate_snmp6(const char *text, size_t len, const char *name, uint64_t *value)
{
	struct tw_lines lines;
	const char *line;
	size_t llen;
	int complete;

	tw_lines_init(&lines, text, len);
	while (tw_lines_next(&lines, &line, &llen, &complete)) {
		struct tw_tokens it;
		const char *tok;
		size_t tlen;

		tw_tokens_init(&it, line, llen);
		if (!complete || !tw_tokens_next(&it, &tok, &tlen) || !tw_token_is(tok, tlen, name))
			continue;
		if (tw_tokens_next(&it, &tok, &tlen) && tw_parse_u64(tok, tlen, value) == TW_OK)
			return TW_OK;
	}
	return TW_E_ABSENT;
}

int
tw_dropgate_sum(int proc_fd, struct tw_buf *scratch, const struct tw_netstat_set *net,
    uint64_t *sum)
{
	static const char *const v6[] = { "Udp6InErrors", "UdpLite6InErrors" };
	uint64_t v;
	size_t i;
	int rc;

	*sum = 0;
	if (net == NULL || tw_netstat_get(net, "Udp", "InErrors", &v) != TW_OK)
		return TW_E_ABSENT;
	*sum += v;
	if (tw_netstat_get(net, "UdpLite", "InErrors", &v) == TW_OK)
		*sum += v;
	rc = tw_read_file_at(proc_fd, "net/snmp6", scratch);
	if (rc == TW_E_NOMEM)
		return rc;
	if (rc != TW_OK)
		return TW_OK;		/* no IPv6 */
	for (i = 0; i < sizeof(v6) / sizeof(v6[0]); i++)
		if (tw_dropgate_snmp6(scratch->data, scratch->len, v6[i], &v) == TW_OK)
			*sum += v;
	return TW_OK;
}
