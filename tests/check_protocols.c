/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/collect/protocols.c. */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "collect/protocols.h"
#include "tw_check.h"
#include "util/error.h"
#include "util/readfile.h"
#include "util/scan.h"

#define TXT(s) (s), sizeof(s) - 1

static void
parse_fixture(const char *name, struct tw_protocols *p, struct tw_parse_stats *ps)
{
	struct tw_buf b;
	int dfd = open(tw_fixture_path("collectors/protocols"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(dfd, 0);
	tw_buf_init(&b);
	ck_assert_int_eq(tw_read_file_at(dfd, name, &b), TW_OK);
	memset(p, 0, sizeof(*p));
	ck_assert_int_eq(tw_protocols_parse(b.data, b.len, p, ps), TW_OK);
	tw_buf_free(&b);
	close(dfd);
}

/* The capture: 18 protocols; TCP holds 16 pages and is not in pressure,
 * UDP holds 320 and has no pressure state ("NI"), PACKET no memory count. */
START_TEST(test_debian12_vm)
{
	struct tw_parse_stats ps = { 0, 0 };
	const struct tw_protocol *tcp, *udp, *packet;
	struct tw_protocols p;
	struct tw_buf b;
	int fd = open(tw_fixture_path("debian12-vm/proc"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_buf_init(&b);
	memset(&p, 0xff, sizeof(p));
	ck_assert_int_eq(tw_protocols_read(fd, &b, &p, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 19);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(p.count, 18);
	ck_assert_int_eq(p.have_header, 1);
	ck_assert_uint_eq(p.left_out, 0);
	tcp = tw_protocols_find(&p, "TCP");
	udp = tw_protocols_find(&p, "UDP");
	packet = tw_protocols_find(&p, "PACKET");
	ck_assert_ptr_nonnull(tcp);
	ck_assert_ptr_nonnull(udp);
	ck_assert_ptr_nonnull(packet);
	ck_assert_int_eq(tcp->memory, 16);
	ck_assert_int_eq(tcp->pressure, TW_PROTO_PRESSURE_NO);
	ck_assert_int_eq(udp->memory, 320);
	ck_assert_int_eq(udp->pressure, TW_PROTO_PRESSURE_NI);
	ck_assert_int_eq(packet->memory, -1);
	/* A name that is a prefix of another is not that one. */
	ck_assert_ptr_null(tw_protocols_find(&p, "TC"));
	ck_assert_ptr_nonnull(tw_protocols_find(&p, "UNIX-STREAM"));
	tw_buf_free(&b);
	close(fd);
}
END_TEST

/* TCP and TCPv6 share one pressure state: both "yes". The header is an
 * older kernel's, with the "sp" column the 6.x one lacks. */
START_TEST(test_pressure)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_protocols p;

	parse_fixture("pressure.txt", &p, &ps);
	ck_assert_uint_eq(ps.lines, 5);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(p.count, 4);
	ck_assert_int_eq(tw_protocols_find(&p, "TCP")->pressure, TW_PROTO_PRESSURE_YES);
	ck_assert_int_eq(tw_protocols_find(&p, "TCP")->memory, 12288);
	ck_assert_int_eq(tw_protocols_find(&p, "TCPv6")->pressure, TW_PROTO_PRESSURE_YES);
	ck_assert_int_eq(tw_protocols_find(&p, "UDP")->memory, 512);
}
END_TEST

/* Header, then: too few fields, "maybe" for press, memory -2 and "1x", a
 * name of 16 characters, an empty line: 6 malformed; the last two kept. */
START_TEST(test_malformed)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_protocols p;

	parse_fixture("malformed.txt", &p, &ps);
	ck_assert_uint_eq(ps.lines, 9);
	ck_assert_uint_eq(ps.malformed, 6);
	ck_assert_uint_eq(p.count, 2);
	ck_assert_str_eq(p.p[0].name, "TCP");
	ck_assert_int_eq(p.p[0].memory, 21);
	ck_assert_str_eq(p.p[1].name, "UDP");
}
END_TEST

/* Without a header naming protocol, memory and press, no field can be
 * placed: every line is malformed, the header too. */
START_TEST(test_no_header)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_protocols p;

	parse_fixture("noheader.txt", &p, &ps);
	ck_assert_uint_eq(ps.lines, 2);
	ck_assert_uint_eq(ps.malformed, 2);
	ck_assert_uint_eq(p.count, 0);
	ck_assert_int_eq(p.have_header, 0);
	memset(&p, 0, sizeof(p));
	ps.lines = ps.malformed = 0;
	parse_fixture("nopress.txt", &p, &ps);
	ck_assert_uint_eq(ps.lines, 2);
	ck_assert_uint_eq(ps.malformed, 2);
	ck_assert_uint_eq(p.count, 0);
}
END_TEST

/* A line cut before its newline is malformed; NUL in a name too. */
START_TEST(test_cut_and_nul)
{
	static const char text[] = "protocol size sockets memory press\n"
	    "TCP 2304 1 21 no\n"
	    "UD\0P 1344 7 71 NI\n"
	    "RAW 1152 0 -1 NI";
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_protocols p;

	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(tw_protocols_parse(TXT(text), &p, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, 4);
	ck_assert_uint_eq(ps.malformed, 2);
	ck_assert_uint_eq(p.count, 1);
	ck_assert_int_eq(p.p[0].pressure, TW_PROTO_PRESSURE_NO);
}
END_TEST

/* More protocols than the table holds: the rest are counted, not kept,
 * and not malformed. */
START_TEST(test_left_out)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_protocols p;
	char text[8192];
	size_t n = 0;
	int i;

	n += (size_t)snprintf(text + n, sizeof(text) - n, "protocol size sockets memory press\n");
	for (i = 0; i < TW_PROTOCOLS_MAX + 3; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "P%d 1 0 %d no\n", i, i);
	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(tw_protocols_parse(text, n, &p, &ps), TW_OK);
	ck_assert_uint_eq(ps.lines, TW_PROTOCOLS_MAX + 4);
	ck_assert_uint_eq(ps.malformed, 0);
	ck_assert_uint_eq(p.count, TW_PROTOCOLS_MAX);
	ck_assert_uint_eq(p.left_out, 3);
}
END_TEST

START_TEST(test_absent)
{
	struct tw_parse_stats ps = { 0, 0 };
	struct tw_protocols p;
	struct tw_buf b;
	int fd = open(tw_fixture_path("collectors/protocols"), O_RDONLY | O_DIRECTORY);

	ck_assert_int_ge(fd, 0);
	tw_buf_init(&b);
	memset(&p, 0xff, sizeof(p));
	ck_assert_int_eq(tw_protocols_read(fd, &b, &p, &ps), TW_E_ABSENT);
	ck_assert_uint_eq(p.count, 0);
	ck_assert_uint_eq(ps.lines, 0);
	tw_buf_free(&b);
	close(fd);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("protocols");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_debian12_vm);
	tcase_add_test(tc, test_pressure);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_no_header);
	tcase_add_test(tc, test_cut_and_nul);
	tcase_add_test(tc, test_left_out);
	tcase_add_test(tc, test_absent);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
