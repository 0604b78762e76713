/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/collect/udpsock.c: /proc/net/udp and udp6 as this
 * machine prints them (tests/fixtures/collectors/udpsock/proc), and
 * malformed lines, each counted; and lib/collect/udpsort.c, the sort
 * by key. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/udpsock.h"
#include "tw_check.h"
#include "util/error.h"
#include "util/readfile.h"
#include "util/scan.h"

#define TXT(s) (s), sizeof(s) - 1

/* The kernel prints each address word in host order: the fixtures were
 * written on a little-endian machine. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LITTLE 1
#else
#define LITTLE 0
#endif

static const struct tw_udp_sock *
find(const struct tw_udp_set *s, unsigned proto, uint32_t inode)
{
	size_t i;

	for (i = 0; i < s->count; i++)
		if (s->socks[i].proto == proto && s->socks[i].inode == inode)
			return &s->socks[i];
	return NULL;
}

START_TEST(test_read_all)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_udp_set set;
	const struct tw_udp_sock *s;
	struct tw_buf b;
	char addr[64];
	int fd = open(tw_fixture_path("collectors/udpsock/proc"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_buf_init(&b);
	tw_udp_set_init(&set);
	ck_assert_int_eq(tw_udpsock_read_all(fd, &b, &set, &ps), TW_OK);
	/* udp: header and 4 sockets; udp6: header and 2; no udplite files. */
	ck_assert_uint_eq(ps.lines, 8);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(set.seen, 6);
	/* Those that dropped: 2675120, 18211, the kernel's inode 0, and
	 * udp6's 22001; in key order (udp before udp6, then by inode). */
	ck_assert_uint_eq(set.count, 4);
	ck_assert_uint_eq(set.socks[0].inode, 0);
	ck_assert_uint_eq(set.socks[1].inode, 18211);
	ck_assert_uint_eq(set.socks[2].inode, 2675120);
	ck_assert_uint_eq(set.socks[3].inode, 22001);
	ck_assert_uint_eq(set.socks[3].proto, TW_UDP_UDP6);

	s = find(&set, TW_UDP_UDP, 2675120);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->port, 34799);
	ck_assert_uint_eq(s->rx_queue, 0x500);
	ck_assert_uint_eq(s->drops, 2999);
	tw_udp_addr_text(s, addr, sizeof(addr));
	if (LITTLE)
		ck_assert_str_eq(addr, "127.0.0.1");

	s = find(&set, TW_UDP_UDP, 18211);
	ck_assert_uint_eq(s->port, 514);
	ck_assert_uint_eq(s->rx_queue, 212992);
	ck_assert_uint_eq(s->drops, UINT32_MAX);
	tw_udp_addr_text(s, addr, sizeof(addr));
	ck_assert_str_eq(addr, "0.0.0.0");

	s = find(&set, TW_UDP_UDP, 0);
	ck_assert_uint_eq(s->port, 68);
	ck_assert_uint_eq(s->drops, 17);
	tw_udp_addr_text(s, addr, sizeof(addr));
	if (LITTLE)
		ck_assert_str_eq(addr, "10.0.2.15");

	s = find(&set, TW_UDP_UDP6, 22001);
	ck_assert_uint_eq(s->port, 5353);
	ck_assert_uint_eq(s->rx_queue, 4608);
	ck_assert_uint_eq(s->drops, 41);
	tw_udp_addr_text(s, addr, sizeof(addr));
	if (LITTLE)
		ck_assert_str_eq(addr, "fe80::fff:5e00:1");
	ck_assert_str_eq(tw_udp_proto_name(s->proto), "udp6");

	tw_udp_set_free(&set);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

START_TEST(test_v6_loopback)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_udp_set set;
	char addr[64];

	tw_udp_set_init(&set);
	ck_assert_int_eq(tw_udpsock_parse(TXT(
	    "  261: 00000000000000000000000001000000:0202 00000000000000000000000000000000:0000 "
	    "07 00000000:00000000 00:00000000 00000000     0        0 18300 2 00000000ab12cd34 3\n"),
	    TW_UDP_LITE6, &set, &ps), TW_OK);
	ck_assert_uint_eq(set.count, 1);
	ck_assert_uint_eq(set.socks[0].proto, TW_UDP_LITE6);
	tw_udp_addr_text(&set.socks[0], addr, sizeof(addr));
	if (LITTLE)
		ck_assert_str_eq(addr, "::1");
	/* An IPv4 address in a v6 file is a malformed line. */
	ck_assert_int_eq(tw_udpsock_parse(TXT(
	    " 1: 0100007F:0202 00000000:0000 07 00000000:00000000 00:00000000 00000000 0 0 5 2 0 3\n"),
	    TW_UDP_UDP6, &set, &ps), TW_OK);
	ck_assert_uint_eq(ps.malformed, 1);
	ck_assert_uint_eq(set.count, 1);
	ck_assert_int_eq(tw_udpsock_parse(TXT(""), 9, &set, &ps), TW_E_INVAL);
	tw_udp_set_free(&set);
}
END_TEST

START_TEST(test_malformed)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_udp_set set;
	struct tw_buf b;
	int fd = open(tw_fixture_path("collectors/udpsock"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_buf_init(&b);
	tw_udp_set_init(&set);
	ck_assert_int_eq(tw_read_file_at(fd, "malformed.txt", &b), TW_OK);
	ck_assert_int_eq(tw_udpsock_parse(b.data, b.len, TW_UDP_UDP, &set, &ps), TW_OK);
	/* 13 lines: the header; inode 100 (drops 5) and 109 (drops 7) are
	 * good; malformed are 101 (no drops column), 102 (a column too
	 * many), 103 (a 7-digit address), 104 (drops of 2^32), the inode of
	 * 2^32, 105 (G in the port), 106 (no colon after the slot), 107 (no
	 * colon between the queues), 108 (negative drops) and 110 (cut
	 * before its newline). */
	ck_assert_uint_eq(ps.lines, 13);
	ck_assert_uint_eq(ps.malformed, 10);
	ck_assert_uint_eq(set.seen, 2);
	ck_assert_uint_eq(set.count, 2);
	ck_assert_uint_eq(set.socks[0].inode, 100);
	ck_assert_uint_eq(set.socks[0].drops, 5);
	ck_assert_uint_eq(set.socks[1].inode, 109);
	ck_assert_uint_eq(set.socks[1].drops, 7);
	tw_udp_set_free(&set);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

START_TEST(test_absent)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_udp_set set;
	struct tw_buf b;
	int fd = open(tw_fixture_path("collectors/sockstat"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_buf_init(&b);
	tw_udp_set_init(&set);
	ck_assert_int_eq(tw_udpsock_read_all(fd, &b, &set, &ps), TW_E_ABSENT);
	ck_assert_uint_eq(set.count, 0);
	ck_assert_int_eq(tw_udpsock_read_all(-1, &b, &set, &ps), TW_E_ABSENT);
	tw_udp_set_free(&set);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

/* A socket of proto with inode, drops and port (its identity in these
 * tests: the ports are unique). */
static void
add(struct tw_udp_set *set, unsigned proto, uint32_t inode, uint32_t drops, uint16_t port)
{
	struct tw_udp_sock *s;

	if (set->count == set->cap) {
		set->cap = set->cap ? 2 * set->cap : 64;
		set->socks = realloc(set->socks, set->cap * sizeof(*set->socks));
		ck_assert_ptr_nonnull(set->socks);
	}
	s = &set->socks[set->count++];
	memset(s, 0, sizeof(*s));
	s->proto = (uint8_t)proto;
	s->inode = inode;
	s->drops = drops;
	s->port = port;
}

/* Sorted by key, one socket a key: of equal keys the most drops, the
 * first of those in the input (its port the lowest, as add() numbered
 * them in order). */
static void
assert_sorted(const struct tw_udp_set *set, size_t keys)
{
	size_t i;

	ck_assert_uint_eq(set->count, keys);
	for (i = 1; i < set->count; i++)
		ck_assert_uint_lt(tw_udp_key(&set->socks[i - 1]), tw_udp_key(&set->socks[i]));
}

/* The sort by key (collect/udpsort.c) of a flood's thousands of sockets,
 * inodes spread over all four bytes and all four protocols, kernel
 * sockets (inode 0) among them; sorted again and again in the same set,
 * growing and shrinking; and with a protocol it cannot pack. */
START_TEST(test_sort)
{
	struct tw_udp_set set;
	uint32_t x = 12345;
	size_t i, round;

	tw_udp_set_init(&set);
	for (round = 0; round < 3; round++) {
		size_t n = round == 1 ? 300 : 5000;

		set.count = 0;
		for (i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			/* Every inode unique: i in the low bits, noise above. */
			add(&set, 1 + (unsigned)(x >> 30), (x & 0xffff0000u) | (uint32_t)(i + 1), 1,
			    (uint16_t)(1000 + i));
		}
		/* Kernel sockets of udp: 5 drops twice (the first kept), 9 once. */
		add(&set, TW_UDP_UDP, 0, 5, 60001);
		add(&set, TW_UDP_UDP, 0, 9, 60002);
		add(&set, TW_UDP_UDP, 0, 5, 60003);
		add(&set, TW_UDP_UDP6, 0, 5, 60004);
		add(&set, TW_UDP_UDP6, 0, 5, 60005);
		tw_udp_set_sort(&set);
		assert_sorted(&set, n + 2);
		ck_assert_uint_eq(set.socks[0].port, 60002);
		for (i = 0; i < set.count; i++)
			if (set.socks[i].proto == TW_UDP_UDP6 && set.socks[i].inode == 0)
				ck_assert_uint_eq(set.socks[i].port, 60004);
	}
	/* No protocol above 7 is packed: sorted all the same. */
	set.count = 0;
	add(&set, 200, 7, 1, 1);
	add(&set, TW_UDP_UDP, 9, 1, 2);
	add(&set, TW_UDP_UDP, 8, 1, 3);
	tw_udp_set_sort(&set);
	assert_sorted(&set, 3);
	ck_assert_uint_eq(set.socks[0].inode, 8);
	ck_assert_uint_eq(set.socks[2].proto, 200);
	tw_udp_set_free(&set);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("udpsock");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_read_all);
	tcase_add_test(tc, test_v6_loopback);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_absent);
	tcase_add_test(tc, test_sort);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
