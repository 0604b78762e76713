/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/collect/netstat.c. */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "collect/netstat.h"
#include "util/readfile.h"
#include "util/scan.h"
#include "tw_check.h"
#include "util/error.h"

#define TXT(s) (s), sizeof(s) - 1

static int
open_dir(const char *rel)
{
	int fd = open(tw_fixture_path(rel), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	return fd;
}

static void
parse_fixture(const char *name, struct tw_netstat_set *s, struct tw_parse_stats *ps)
{
	struct tw_buf b;
	int dfd = open_dir("collectors/netstat");

	tw_buf_init(&b);
	ck_assert_int_eq(tw_read_file_at(dfd, name, &b), TW_OK);
	ck_assert_int_eq(tw_netstat_parse(b.data, b.len, s, ps), TW_OK);
	tw_buf_free(&b);
	close(dfd);
}

static uint64_t
get(const struct tw_netstat_set *s, const char *proto, const char *name)
{
	uint64_t v = 12345;

	ck_assert_msg(tw_netstat_get(s, proto, name, &v) == TW_OK, "%s %s missing", proto, name);
	return v;
}

static int
negative(const struct tw_netstat_set *s, const char *proto, const char *name)
{
	size_t i;

	for (i = 0; i < s->count; i++)
		if (strcmp(s->entries[i].proto, proto) == 0 &&
		    strcmp(s->entries[i].name, name) == 0)
			return s->entries[i].negative;
	ck_abort_msg("%s %s missing", proto, name);
	return -1;
}

START_TEST(test_debian12_vm)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_netstat_set s;
	struct tw_buf b;
	uint64_t v = 7;
	int fd = open_dir("debian12-vm/proc");

	tw_netstat_set_init(&s);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_netstat_read(fd, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 18);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(s.count, 312);
	ck_assert_uint_eq(get(&s, "Udp", "InDatagrams"), 27);
	ck_assert_uint_eq(get(&s, "UdpLite", "InDatagrams"), 0);
	ck_assert_uint_eq(get(&s, "Udp", "RcvbufErrors"), 0);
	ck_assert_uint_eq(get(&s, "Tcp", "ActiveOpens"), 13);
	ck_assert(get(&s, "Tcp", "MaxConn") == UINT64_MAX);
	ck_assert_int_eq(negative(&s, "Tcp", "MaxConn"), 1);
	ck_assert_int_eq(negative(&s, "Tcp", "ActiveOpens"), 0);
	ck_assert_uint_eq(get(&s, "IcmpMsg", "InType3"), 1);
	ck_assert_uint_eq(get(&s, "Ip", "OutTransmits"), 857);
	ck_assert_uint_eq(get(&s, "IpExt", "InOctets"), 69534465);
	ck_assert_uint_eq(get(&s, "TcpExt", "TCPMemoryPressures"), 0);
	ck_assert_uint_eq(get(&s, "MPTcpExt", "WinProbe"), 0);
	ck_assert_int_eq(tw_netstat_get(&s, "Udp", "NoSuchCounter", &v), TW_E_ABSENT);
	ck_assert_int_eq(tw_netstat_get(&s, "Udp6", "InDatagrams", &v), TW_E_ABSENT);
	ck_assert_uint_eq(v, 7);

	/* _read clears before it appends. */
	ck_assert_int_eq(tw_netstat_read(fd, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(s.count, 312);
	tw_buf_free(&b);
	tw_netstat_set_free(&s);
	ck_assert_ptr_null(s.entries);
	close(fd);
}
END_TEST

START_TEST(test_one_file_or_none)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_netstat_set s;
	struct tw_buf b;
	int fd = open_dir("collectors/netstat/snmp-only");

	tw_netstat_set_init(&s);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_netstat_read(fd, &b, &s, &ps), TW_OK);
	ck_assert_uint_eq(s.count, 9);
	ck_assert_uint_eq(get(&s, "Udp", "RcvbufErrors"), 3);
	ck_assert_uint_eq(get(&s, "Udp", "SndbufErrors"), 1);
	ck_assert_uint_eq(get(&s, "Ip", "InReceives"), 1427);
	close(fd);

	fd = open_dir("collectors/netstat");
	ck_assert_int_eq(tw_netstat_read(fd, &b, &s, &ps), TW_E_ABSENT);
	ck_assert_uint_eq(s.count, 0);
	ck_assert_int_eq(tw_netstat_read(-1, &b, &s, &ps), TW_E_ABSENT);
	ck_assert_uint_eq(ps.lines, 4);
	tw_buf_free(&b);
	tw_netstat_set_free(&s);
	close(fd);
}
END_TEST

START_TEST(test_malformed)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_netstat_set s;
	uint64_t v;

	tw_netstat_set_init(&s);
	parse_fixture("malformed.txt", &s, &ps);
	/* Udp and Icmp pairs do not match (2 each); TcpExt, IpExt, MPTcpExt
	 * and Big lose entries (1 each); "hello", the two lines with a
	 * protocol too long for the field, and the last lone header (1 each). */
	ck_assert_uint_eq(ps.lines, 20);
	ck_assert_uint_eq(ps.malformed, 12);
	ck_assert_uint_eq(s.count, 10);
	ck_assert_uint_eq(get(&s, "Tcp", "RtoAlgorithm"), 1);
	ck_assert(get(&s, "Tcp", "MaxConn") == UINT64_MAX);
	ck_assert_int_eq(negative(&s, "Tcp", "MaxConn"), 1);
	ck_assert_uint_eq(get(&s, "Tcp", "ActiveOpens"), 10);
	ck_assert_int_eq(tw_netstat_get(&s, "Udp", "InDatagrams", &v), TW_E_ABSENT);
	ck_assert_int_eq(tw_netstat_get(&s, "Icmp", "InMsgs", &v), TW_E_ABSENT);
	ck_assert_int_eq(tw_netstat_get(&s, "IcmpMsg", "InMsgs", &v), TW_E_ABSENT);
	ck_assert_uint_eq(get(&s, "TcpExt", "A"), 1);
	ck_assert_int_eq(tw_netstat_get(&s, "TcpExt", "B", &v), TW_E_ABSENT);
	ck_assert_uint_eq(get(&s, "TcpExt", "C"), 3);
	ck_assert_int_eq(tw_netstat_get(&s, "IpExt", "D", &v), TW_E_ABSENT);
	ck_assert(get(&s, "IpExt", "E") == (uint64_t)-2);
	ck_assert_int_eq(negative(&s, "IpExt", "E"), 1);
	ck_assert_int_eq(tw_netstat_get(&s, "IpExt", "F", &v), TW_E_ABSENT);
	ck_assert_uint_eq(get(&s, "MPTcpExt", "Short"), 2);
	ck_assert(get(&s, "Big", "Max") == UINT64_MAX);
	ck_assert_int_eq(negative(&s, "Big", "Max"), 0);
	ck_assert(get(&s, "Big", "Min") == (uint64_t)INT64_MIN);
	ck_assert_int_eq(negative(&s, "Big", "Min"), 1);
	ck_assert_int_eq(tw_netstat_get(&s, "Big", "Over", &v), TW_E_ABSENT);
	ck_assert_uint_eq(get(&s, "Ip", "Forwarding"), 2);
	tw_netstat_set_free(&s);
}
END_TEST

START_TEST(test_lengths_truncation_nul)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_netstat_set s;
	uint64_t v;

	tw_netstat_set_init(&s);
	/* The value line is cut before its newline: both lines go. */
	parse_fixture("truncated.txt", &s, &ps);
	ck_assert_uint_eq(ps.lines, 2);
	ck_assert_uint_eq(ps.malformed, 2);
	ck_assert_uint_eq(s.count, 0);

	/* 47 bytes is the longest name and 15 the longest protocol. */
	ck_assert_int_eq(tw_netstat_parse(TXT(
	    "ProtocolNameXYZ: NameOfFortySevenCharactersThatJustFitsInTheFiel\n"
	    "ProtocolNameXYZ: 5\n"), &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.malformed, 2);
	ck_assert_uint_eq(get(&s, "ProtocolNameXYZ",
	    "NameOfFortySevenCharactersThatJustFitsInTheFiel"), 5);

	/* A NUL in a name, in a value and in a protocol. */
	ck_assert_int_eq(tw_netstat_parse(TXT("Udp: In\0Datagrams NoPorts\nUdp: 1 2\0\n"
	    "U\0dp: X\nU\0dp: 1\n"
	    "Udp: InErrors\r\nUdp: 4\r\n"), &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 10);
	ck_assert_uint_eq(ps.malformed, 2 + 1 + 2 + 1);
	ck_assert_int_eq(tw_netstat_get(&s, "Udp", "In", &v), TW_E_ABSENT);
	ck_assert_int_eq(tw_netstat_get(&s, "Udp", "NoPorts", &v), TW_E_ABSENT);
	ck_assert_int_eq(tw_netstat_get(&s, "U", "X", &v), TW_E_ABSENT);
	ck_assert_uint_eq(s.count, 1);

	ck_assert_int_eq(tw_netstat_parse(TXT(""), &s, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 10);
	tw_netstat_set_free(&s);
}
END_TEST

static Suite *
netstat_suite(void)
{
	Suite *s = suite_create("netstat");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_debian12_vm);
	tcase_add_test(tc, test_one_file_or_none);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_lengths_truncation_nul);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(netstat_suite());
}
