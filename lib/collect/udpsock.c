#include "config.h"

#include "collect/udpsock.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"

/* sl, local, remote, st, tx:rx, tr:when, retrnsmt, uid, timeout, inode,
 * ref, pointer, drops: the form of every kernel since 2.6.27, when drops
 * was added. */
#define UDP_TOKENS 13

static const char *const proto_names[TW_UDP_NPROTO + 1] = {
	NULL, "udp", "udp6", "udplite", "udplite6",
};
static const char *const proto_files[TW_UDP_NPROTO + 1] = {
	NULL, "net/udp", "net/udp6", "net/udplite", "net/udplite6",
};

void
tw_udp_set_init(struct tw_udp_set *s)
{
	memset(s, 0, sizeof(*s));
}

void
tw_udp_set_free(struct tw_udp_set *s)
{
	free(s->socks);
	memset(s, 0, sizeof(*s));
}

const char *
tw_udp_proto_name(unsigned proto)
{
	return proto >= 1 && proto <= TW_UDP_NPROTO ? proto_names[proto] : "?";
}

const char *
tw_udp_proto_file(unsigned proto)
{
	return proto >= 1 && proto <= TW_UDP_NPROTO ? proto_files[proto] : NULL;
}

static int
is_v6(unsigned proto)
{
	return proto == TW_UDP_UDP6 || proto == TW_UDP_LITE6;
}

void
tw_udp_addr_text(const struct tw_udp_sock *s, char *out, size_t len)
{
	if (inet_ntop(is_v6(s->proto) ? AF_INET6 : AF_INET, s->addr, out, (socklen_t)len) == NULL &&
	    len > 0)
		snprintf(out, len, "?");
}

/* "0100007F:0035": the address as the kernel prints it, each 32-bit word
 * with %08X of its value in host order, so the word's bytes in memory are
 * the address's bytes in network order again. */
static int
parse_endpoint(const char *tok, size_t len, int v6, uint8_t *addr, uint16_t *port)
{
	size_t words = v6 ? 4 : 1, hexlen = words * 8, i;
	uint64_t w, p;

	if (len != hexlen + 5 || tok[hexlen] != ':')
		return TW_E_INVAL;
	for (i = 0; i < words; i++) {
		uint32_t w32;

		if (tw_parse_hex_u64(tok + i * 8, 8, &w) != TW_OK)
			return TW_E_INVAL;
		w32 = (uint32_t)w;
		memcpy(addr + i * 4, &w32, 4);
	}
	if (tw_parse_hex_u64(tok + hexlen + 1, 4, &p) != TW_OK)
		return TW_E_INVAL;
	*port = (uint16_t)p;
	return TW_OK;
}

/* "00000000:00001A00": tx_queue and rx_queue, in hex. */
static int
parse_queues(const char *tok, size_t len, uint32_t *rx)
{
	const char *colon = memchr(tok, ':', len);
	uint64_t tx, r;

	if (colon == NULL || tw_parse_hex_u64(tok, (size_t)(colon - tok), &tx) != TW_OK ||
	    tw_parse_hex_u64(colon + 1, len - (size_t)(colon - tok) - 1, &r) != TW_OK ||
	    tx > UINT32_MAX || r > UINT32_MAX)
		return TW_E_INVAL;
	*rx = (uint32_t)r;
	return TW_OK;
}

struct parse_ctx {
	struct tw_udp_set *out;
	unsigned proto;
};

/* The line is checked whole before anything is kept. */
static int
udp_parse_line(void *ctx, const char *line, size_t len)
{
	struct parse_ctx *pc = ctx;
	struct tw_udp_sock s;
	struct tw_tokens it;
	const char *tok[UDP_TOKENS];
	size_t tlen[UDP_TOKENS], i;
	uint64_t inode, drops, n;
	uint8_t raddr[16];
	uint16_t rport;
	void *grown;

	tw_tokens_init(&it, line, len);
	if (!tw_tokens_next(&it, &tok[0], &tlen[0]))
		return TW_E_INVAL;
	if (tw_token_is(tok[0], tlen[0], "sl"))
		return TW_OK;		/* the header */
	if (tw_tokens_count(&it) != UDP_TOKENS - 1)
		return TW_E_INVAL;
	for (i = 1; i < UDP_TOKENS; i++)
		(void)tw_tokens_next(&it, &tok[i], &tlen[i]);
	/* "123:": the slot */
	if (tlen[0] < 2 || tok[0][tlen[0] - 1] != ':' ||
	    tw_parse_u64(tok[0], tlen[0] - 1, &n) != TW_OK)
		return TW_E_INVAL;
	memset(&s, 0, sizeof(s));
	s.proto = (uint8_t)pc->proto;
	/* The remote endpoint is only checked. */
	if (parse_endpoint(tok[1], tlen[1], is_v6(pc->proto), s.addr, &s.port) != TW_OK ||
	    parse_endpoint(tok[2], tlen[2], is_v6(pc->proto), raddr, &rport) != TW_OK)
		return TW_E_INVAL;
	if (tw_parse_hex_u64(tok[3], tlen[3], &n) != TW_OK ||
	    parse_queues(tok[4], tlen[4], &s.rx_queue) != TW_OK ||
	    tw_parse_u64(tok[7], tlen[7], &n) != TW_OK ||
	    tw_parse_u64(tok[9], tlen[9], &inode) != TW_OK || inode > UINT32_MAX ||
	    tw_parse_u64(tok[10], tlen[10], &n) != TW_OK ||
	    tw_parse_u64(tok[12], tlen[12], &drops) != TW_OK || drops > UINT32_MAX)
		return TW_E_INVAL;
	pc->out->seen++;
	if (drops == 0)
		return TW_OK;
	s.inode = (uint32_t)inode;
	s.drops = (uint32_t)drops;
	if (tw_array_grow(pc->out->socks, &pc->out->cap, pc->out->count + 1, sizeof(s), &grown) !=
	    TW_OK)
		return TW_E_NOMEM;
	pc->out->socks = grown;
	pc->out->socks[pc->out->count++] = s;
	return TW_OK;
}

int
tw_udpsock_parse(const char *text, size_t len, unsigned proto, struct tw_udp_set *out,
    struct tw_parse_stats *ps)
{
	struct parse_ctx pc = { out, proto };

	if (tw_udp_proto_file(proto) == NULL)
		return TW_E_INVAL;
	return tw_parse_lines(text, len, udp_parse_line, &pc, ps);
}

static int
cmp_sock(const void *a, const void *b)
{
	uint64_t ka = tw_udp_key(a), kb = tw_udp_key(b);

	return ka < kb ? -1 : ka > kb;
}

/* Sort by key and keep one socket a key: kernel sockets share inode 0, and
 * of those the one that dropped most is kept. */
static void
sort_unique(struct tw_udp_set *s)
{
	size_t i, n = 0;

	if (s->count > 1)
		qsort(s->socks, s->count, sizeof(s->socks[0]), cmp_sock);
	for (i = 0; i < s->count; i++) {
		if (n > 0 && tw_udp_key(&s->socks[n - 1]) == tw_udp_key(&s->socks[i])) {
			if (s->socks[i].drops > s->socks[n - 1].drops)
				s->socks[n - 1] = s->socks[i];
			continue;
		}
		s->socks[n++] = s->socks[i];
	}
	s->count = n;
}

int
tw_udpsock_read_all(int proc_fd, struct tw_buf *scratch, struct tw_udp_set *out,
    struct tw_parse_stats *ps)
{
	unsigned proto;
	int rc;

	out->count = 0;
	out->seen = 0;
	for (proto = 1; proto <= TW_UDP_NPROTO; proto++) {
		rc = tw_read_file_at(proc_fd, proto_files[proto], scratch);
		if (rc == TW_E_NOMEM)
			return rc;
		if (rc != TW_OK) {
			if (proto == TW_UDP_UDP)
				return TW_E_ABSENT;
			continue;
		}
		rc = tw_udpsock_parse(scratch->data, scratch->len, proto, out, ps);
		if (rc != TW_OK)
			return rc;
	}
	sort_unique(out);
	return TW_OK;
}
