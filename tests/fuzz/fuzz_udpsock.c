/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for tw_udpsock_parse (lib/collect/udpsock.c).
 *
 * It checks the line counts, that every socket kept dropped something and
 * was counted as seen, and that the text cut in two at a line boundary
 * parses to what the whole does. Both IPv4 and IPv6 forms are tried. */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "collect/udpsock.h"
#include "util/error.h"

static void
one(const char *text, size_t size, unsigned proto)
{
	struct tw_udp_set all, parts;
	struct tw_parse_stats ps = { 0, 0 }, ps2 = { 0, 0 };
	size_t cut, i;

	tw_udp_set_init(&all);
	tw_udp_set_init(&parts);
	FUZZ_ASSERT(tw_udpsock_parse(text, size, proto, &all, &ps) == TW_OK);
	fuzz_check_stats(&ps, text, size);
	FUZZ_ASSERT(all.count <= all.seen);
	FUZZ_ASSERT(all.seen <= ps.lines - ps.malformed);
	for (i = 0; i < all.count; i++) {
		FUZZ_ASSERT(all.socks[i].drops > 0);
		FUZZ_ASSERT(all.socks[i].proto == proto);
	}

	cut = fuzz_line_cut(text, size);
	FUZZ_ASSERT(tw_udpsock_parse(text, cut, proto, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(tw_udpsock_parse(text + cut, size - cut, proto, &parts, &ps2) == TW_OK);
	FUZZ_ASSERT(ps2.lines == ps.lines && ps2.malformed == ps.malformed);
	FUZZ_ASSERT(parts.count == all.count && parts.seen == all.seen);
	if (all.count > 0)
		FUZZ_ASSERT(memcmp(parts.socks, all.socks, all.count * sizeof(all.socks[0])) == 0);
	tw_udp_set_free(&all);
	tw_udp_set_free(&parts);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one((const char *)data, size, TW_UDP_UDP);
	one((const char *)data, size, TW_UDP_LITE6);
	return 0;
}
