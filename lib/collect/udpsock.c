/* SPDX-License-Identifier: ISC */
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
	free(s->spare);
	free(s->order);
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

/* A host with tens of thousands of sockets has as many lines, read every
 * sample, and most have dropped nothing: each line is checked in one pass
 * with small helpers of its own (no division, no second pass), and only a
 * socket that dropped has its address and queue converted. */

/* Character classes, one table lookup a byte. A colon counts as a hex
 * digit and a digit here: where one is allowed its place is checked apart. */
#define C_BLANK 1u
#define C_HEX 2u
#define C_DIGIT 4u
#define C_COLON 8u

static uint8_t char_class[256];

static void
classes_init(void)
{
	unsigned c;

	if (char_class[' '] != 0)
		return;
	char_class[' '] = char_class['\t'] = C_BLANK;
	for (c = '0'; c <= '9'; c++)
		char_class[c] = C_HEX | C_DIGIT;
	for (c = 0; c < 6; c++)
		char_class['A' + c] = char_class['a' + c] = C_HEX;
	char_class[':'] = C_HEX | C_DIGIT | C_COLON;
}

struct token {
	const char *p;
	size_t len;
	unsigned all;		/* the classes every byte of it is in */
};

static unsigned
hex_value(char c)
{
	return c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
}

/* Hex digits only, no colon. */
static int
is_hex_run(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((char_class[(unsigned char)s[i]] & (C_HEX | C_COLON)) != C_HEX)
			return 0;
	return len > 0;
}

/* Decimal digits only, no colon. */
static int
is_dec(const struct token *t)
{
	return (t->all & C_DIGIT) && memchr(t->p, ':', t->len) == NULL;
}

/* Up to 10 digits, at most UINT32_MAX. */
static int
dec_u32(const struct token *t, uint32_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (t->len > 10 || !is_dec(t))
		return TW_E_INVAL;
	for (i = 0; i < t->len; i++)
		v = v * 10 + (unsigned)(t->p[i] - '0');
	if (v > UINT32_MAX)
		return TW_E_INVAL;
	*out = (uint32_t)v;
	return TW_OK;
}

/* At most 8 hex digits, checked before. */
static uint32_t
hex_u32(const char *s, size_t len)
{
	uint32_t v = 0;
	size_t i;

	for (i = 0; i < len; i++)
		v = v << 4 | hex_value(s[i]);
	return v;
}

/* "0100007F:0035": 8 (or 32 for IPv6) hex digits, ':', 4 hex digits. */
static int
check_endpoint(const struct token *t, int v6)
{
	size_t hexlen = v6 ? 32 : 8;

	return t->len == hexlen + 5 && (t->all & C_HEX) && t->p[hexlen] == ':' &&
	    memchr(t->p, ':', hexlen) == NULL && memchr(t->p + hexlen + 1, ':', 4) == NULL;
}

/* The address as the kernel prints it, each 32-bit word with %08X of its
 * value in host order, so the word's bytes in memory are the address's
 * bytes in network order again. Checked by check_endpoint() first. */
static void
take_endpoint(const char *tok, int v6, uint8_t *addr, uint16_t *port)
{
	size_t words = v6 ? 4 : 1, i;

	for (i = 0; i < words; i++) {
		uint32_t w = hex_u32(tok + i * 8, 8);

		memcpy(addr + i * 4, &w, 4);
	}
	*port = (uint16_t)hex_u32(tok + words * 8 + 1, 4);
}

/* "00000000:00001A00": tx_queue and rx_queue, each 1 to 8 hex digits. */
static int
check_queues(const struct token *t, size_t *colon)
{
	const char *c = memchr(t->p, ':', t->len);

	if (c == NULL)
		return 0;
	*colon = (size_t)(c - t->p);
	return *colon <= 8 && t->len - *colon - 1 <= 8 && is_hex_run(t->p, *colon) &&
	    is_hex_run(c + 1, t->len - *colon - 1);
}

/* Split a line into blank-separated tokens and class them, in one pass;
 * the count, or UDP_TOKENS + 1 when there are more. */
static size_t
split(const char *line, size_t len, struct token *tok)
{
	const unsigned char *p = (const unsigned char *)line, *end = p + len;
	size_t n = 0;

	for (;;) {
		const unsigned char *start;
		unsigned all = ~0u;

		while (p < end && (char_class[*p] & C_BLANK))
			p++;
		if (p >= end)
			return n;
		if (n == UDP_TOKENS)
			return UDP_TOKENS + 1;
		start = p;
		while (p < end && !(char_class[*p] & C_BLANK))
			all &= char_class[*p++];
		tok[n].p = (const char *)start;
		tok[n].len = (size_t)(p - start);
		tok[n++].all = all;
	}
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
	struct token tok[UDP_TOKENS];
	size_t colon, n = split(line, len, tok);
	uint32_t inode, drops, uid;
	int v6 = is_v6(pc->proto);
	void *grown;

	if (n >= 1 && tw_token_is(tok[0].p, tok[0].len, "sl"))
		return TW_OK;		/* the header */
	if (n != UDP_TOKENS)
		return TW_E_INVAL;
	/* "123:": the slot; the remote endpoint is only checked. */
	if (tok[0].len < 2 || tok[0].p[tok[0].len - 1] != ':' || !(tok[0].all & C_DIGIT) ||
	    memchr(tok[0].p, ':', tok[0].len - 1) != NULL ||
	    !check_endpoint(&tok[1], v6) || !check_endpoint(&tok[2], v6) ||
	    !is_hex_run(tok[3].p, tok[3].len) || !check_queues(&tok[4], &colon) ||
	    dec_u32(&tok[7], &uid) != TW_OK || dec_u32(&tok[9], &inode) != TW_OK ||
	    !is_dec(&tok[10]) ||
	    dec_u32(&tok[12], &drops) != TW_OK)
		return TW_E_INVAL;
	pc->out->seen++;
	if (drops == 0)
		return TW_OK;
	memset(&s, 0, sizeof(s));
	s.proto = (uint8_t)pc->proto;
	take_endpoint(tok[1].p, v6, s.addr, &s.port);
	s.rx_queue = hex_u32(tok[4].p + colon + 1, tok[4].len - colon - 1);
	s.inode = inode;
	s.drops = drops;
	s.uid = uid;
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
	classes_init();
	return tw_parse_lines(text, len, udp_parse_line, &pc, ps);
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
	tw_udp_set_sort(out);
	return TW_OK;
}
