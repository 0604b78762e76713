/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/view/columns.c and cells.c: a figure scaled into the
 * MIB's number and back, the rule that a value of another type or out of
 * range is refused, and cells moved between the wire and a view's rows. */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "tw_check.h"
#include "util/error.h"
#include "util/escape.h"
#include "view/columns.h"
#include "view/record_disk.h"
#include "view/view.h"

static struct tw_ber_value
num(enum tw_ber_type type, uint64_t n)
{
	struct tw_ber_value v = { type, n, NULL, 0 };

	return v;
}

static struct tw_ber_value
str(const char *s, size_t len)
{
	struct tw_ber_value v = { TW_BER_OCTET_STRING, 0, s, len };

	return v;
}

START_TEST(test_lookup)
{
	const struct tw_column *c = tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_READ_LATENCY);

	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(c->name, "twDiskReadLatency");
	ck_assert_int_eq(tw_column_ber(c), TW_BER_GAUGE32);
	ck_assert_str_eq(tw_smi_name(c->smi), "Unsigned32");
	/* Index columns are rows too; gaps and numbers past the end are not. */
	ck_assert_str_eq(tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_MAJOR)->name, "twDiskMajor");
	ck_assert_ptr_null(tw_column(TW_OID_DISK_TABLE, 0));
	ck_assert_ptr_null(tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_TYPE + 1));
	ck_assert_ptr_null(tw_column(TW_OID_AGENT, 0));
	ck_assert_ptr_null(tw_column(0, 1));
	ck_assert_ptr_null(tw_column(99, 1));
	/* twFindingTable is one level down, below the twFindings scalars. */
	ck_assert_str_eq(tw_column(TW_OID_FINDINGS, TW_OID_FINDING_COUNT)->name, "twFindingCount");
	ck_assert_ptr_null(tw_column(TW_OID_FINDINGS, TW_OID_FINDING_TABLE));
	ck_assert_str_eq(tw_column_subgroup(TW_OID_FINDINGS, TW_OID_FINDING_TABLE)->entry,
	    "twFindingEntry");
	ck_assert_ptr_null(tw_column_subgroup(TW_OID_FINDINGS, 1));
	ck_assert_ptr_null(tw_column_subgroup(TW_OID_DISK_TABLE, TW_OID_FINDING_TABLE));
}
END_TEST

START_TEST(test_encode_decode)
{
	const struct tw_column *lat = tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_READ_LATENCY);
	const struct tw_column *hit = tw_column(TW_OID_BUFCACHE, TW_OID_BC_READ_HIT_RATIO);
	const struct tw_column *ops = tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_READ_OPS);
	const struct tw_column *rate = tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_READ_RATE);
	const struct tw_column *wbt = tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_WBT_LATENCY);

	/* Milliseconds in, microseconds on the wire, milliseconds out. */
	ck_assert_uint_eq(tw_column_encode(lat, 12.3456), 12346);
	ck_assert(tw_column_decode(lat, 12346) == 12.346);
	/* Clamped to the type's range and the MIB's own, never wrapped. */
	ck_assert_uint_eq(tw_column_encode(lat, 1e12), UINT32_MAX);
	ck_assert_uint_eq(tw_column_encode(lat, -1), 0);
	ck_assert_uint_eq(tw_column_encode(lat, NAN), 0);
	ck_assert_uint_eq(tw_column_encode(hit, 99.994), 9999);
	ck_assert_uint_eq(tw_column_encode(hit, 100.5), 10000);
	ck_assert_uint_eq(tw_column_encode(ops, 0.005), 1);
	ck_assert_uint_eq(tw_column_encode(rate, 1e19), UINT64_C(10000000000000000000));
	ck_assert_uint_eq(tw_column_encode(rate, 1e30), UINT64_MAX);
	/* An Integer32 reads back signed. */
	ck_assert(tw_column_decode(wbt, (uint64_t)(int64_t)-5) == -5.0);
}
END_TEST

/* Decoding takes a number as signed exactly when its type goes on the
 * wire as an INTEGER, for every SMI type and every column of the MIB. */
START_TEST(test_signed_is_integer)
{
	size_t g;
	int smi;

	for (smi = TW_SMI_DISPLAY_STRING; smi <= TW_SMI_ENUMERATION; smi++) {
		struct tw_column c = { .name = "x", .smi = (enum tw_smi)smi, .scale = 1 };

		ck_assert_msg(tw_column_signed(&c) == (tw_column_ber(&c) == TW_BER_INTEGER),
		    "%s", tw_smi_name(c.smi));
	}
	for (g = 0; g < tw_column_ngroups; g++) {
		const struct tw_column_group *grp = &tw_column_groups[g];
		unsigned col;

		for (col = 0; col < grp->ncols; col++) {
			const struct tw_column *c = &grp->cols[col];

			if (c->name != NULL && c->smi != TW_SMI_DISPLAY_STRING)
				ck_assert_msg((tw_column_decode(c, UINT64_MAX) < 0) ==
				    (tw_column_ber(c) == TW_BER_INTEGER), "%s", c->name);
		}
	}
}
END_TEST

START_TEST(test_check)
{
	const struct tw_column *lat = tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_READ_LATENCY);
	const struct tw_column *hit = tw_column(TW_OID_BUFCACHE, TW_OID_BC_READ_HIT_RATIO);
	const struct tw_column *rot = tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_ROTATIONAL);
	const struct tw_column *wbt = tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_WBT_LATENCY);
	const struct tw_column *name = tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_NAME);
	const struct tw_column *reads = tw_column(TW_OID_DISK_TABLE, TW_OID_DISK_READS);
	struct tw_ber_value v;
	char big[300];

	v = num(TW_BER_GAUGE32, 5000);
	ck_assert_int_eq(tw_column_check(lat, &v), TW_OK);
	v = str("fast", 4);
	ck_assert_int_eq(tw_column_check(lat, &v), TW_E_INVAL);
	v = num(TW_BER_INTEGER, (uint64_t)(int64_t)-5);
	ck_assert_int_eq(tw_column_check(lat, &v), TW_E_INVAL);
	v = num((enum tw_ber_type)0x41, 5);	/* Counter32 */
	ck_assert_int_eq(tw_column_check(lat, &v), TW_E_INVAL);
	v = num(TW_BER_GAUGE32, 10000);
	ck_assert_int_eq(tw_column_check(hit, &v), TW_OK);
	v = num(TW_BER_GAUGE32, 20000);
	ck_assert_int_eq(tw_column_check(hit, &v), TW_E_RANGE);
	v = num(TW_BER_INTEGER, 2);
	ck_assert_int_eq(tw_column_check(rot, &v), TW_OK);
	v = num(TW_BER_INTEGER, 0);
	ck_assert_int_eq(tw_column_check(rot, &v), TW_E_RANGE);
	v = num(TW_BER_INTEGER, (uint64_t)(int64_t)-1);
	ck_assert_int_eq(tw_column_check(wbt, &v), TW_OK);
	v = num(TW_BER_INTEGER, (uint64_t)INT32_MAX + 1);
	ck_assert_int_eq(tw_column_check(wbt, &v), TW_E_RANGE);
	v = num(TW_BER_COUNTER64, UINT64_MAX);
	ck_assert_int_eq(tw_column_check(reads, &v), TW_OK);
	v = num(TW_BER_GAUGE32, 1);
	ck_assert_int_eq(tw_column_check(reads, &v), TW_E_INVAL);
	memset(big, 'x', sizeof(big));
	v = str(big, 255);
	ck_assert_int_eq(tw_column_check(name, &v), TW_OK);
	v = str(big, 256);
	ck_assert_int_eq(tw_column_check(name, &v), TW_E_RANGE);
}
END_TEST

START_TEST(test_describe)
{
	struct tw_ber_value v;
	char buf[96];

	v = str("fa\nst", 5);
	tw_ber_describe(&v, buf, sizeof(buf));
	ck_assert_str_eq(buf, "OCTET STRING \"fa?st\"");
	v = num(TW_BER_INTEGER, (uint64_t)(int64_t)-5);
	tw_ber_describe(&v, buf, sizeof(buf));
	ck_assert_str_eq(buf, "INTEGER -5");
	v = num((enum tw_ber_type)0x43, 7);
	tw_ber_describe(&v, buf, sizeof(buf));
	ck_assert_str_eq(buf, "TimeTicks 7");
	v = num((enum tw_ber_type)0x40, 0);
	tw_ber_describe(&v, buf, sizeof(buf));
	ck_assert_str_eq(buf, "IpAddress");
	v = num((enum tw_ber_type)0x99, 0);
	tw_ber_describe(&v, buf, sizeof(buf));
	ck_assert_str_eq(buf, "type 0x99");
	/* Cut to the buffer, still terminated. */
	v = str("abcdefghijklmnopqrstuvwxyz0123456789", 36);
	tw_ber_describe(&v, buf, 20);
	ck_assert_uint_eq(strlen(buf), 19);
}
END_TEST

/* What mibview serves and the SNMP client stores go through the same two
 * functions: a store then a load gives the value back, a string cut to
 * the view's field. */
START_TEST(test_store_load)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_DISK_TABLE);
	const struct tw_column_group *tg = tw_column_group(TW_OID_TUNABLE_TABLE);
	struct tw_view_disk d;
	struct tw_view_tunable t;
	struct tw_disk_record f;
	struct tw_ber_value v, out;
	char longname[200], utf8[200];
	size_t i;

	memset(&d, 0, sizeof(d));
	ck_assert(!tw_column_load(g, &d, TW_OID_DISK_READ_LATENCY, &out));
	v = num(TW_BER_GAUGE32, 2500);
	tw_column_store(g, &d, TW_OID_DISK_READ_LATENCY, &v);
	ck_assert(tw_view_has(&d, TW_OID_DISK_READ_LATENCY));
	/* The MIB's microseconds, read back in the record's milliseconds. */
	tw_view_disk_record(&d, &f);
	ck_assert(f.r_await_ms == 2.5);
	ck_assert(tw_column_load(g, &d, TW_OID_DISK_READ_LATENCY, &out));
	ck_assert_int_eq(out.type, TW_BER_GAUGE32);
	ck_assert_uint_eq(out.num, 2500);
	memset(longname, 'n', sizeof(longname));
	v = str(longname, sizeof(longname));
	tw_column_store(g, &d, TW_OID_DISK_NAME, &v);
	ck_assert_uint_eq(strlen(d.name), sizeof(d.name) - 1);
	ck_assert(tw_column_load(g, &d, TW_OID_DISK_NAME, &out));
	ck_assert_int_eq(out.type, TW_BER_OCTET_STRING);
	ck_assert_uint_eq(out.len, sizeof(d.name) - 1);
	/* A foreign agent's raw bytes are stored shown (util/escape.h): no
	 * newline of theirs reaches a check's output. */
	v = str("sda\n  apply: id\xff", 16);
	tw_column_store(g, &d, TW_OID_DISK_NAME, &v);
	ck_assert_str_eq(d.name, "sda\\x0a  apply: id\\xff");
	/* A long UTF-8 name is cut at a character's boundary, never inside
	 * one: the field holds 63 two-byte characters of 100. */
	for (i = 0; i < sizeof(utf8); i += 2) {
		utf8[i] = (char)0xc3;
		utf8[i + 1] = (char)0xa4;
	}
	v = str(utf8, sizeof(utf8));
	tw_column_store(g, &d, TW_OID_DISK_NAME, &v);
	ck_assert_uint_eq(strlen(d.name), 2 * ((sizeof(d.name) - 1) / 2));
	ck_assert(tw_escape_is_shown(d.name, strlen(d.name)));
	/* Index columns are not served. */
	ck_assert(!tw_column_load(g, &d, TW_OID_DISK_MAJOR, &out));
	/* Tunable rows have every column. */
	memset(&t, 0, sizeof(t));
	v = str("vm.dirty_ratio", 14);
	tw_column_store(tg, &t, TW_OID_TUNABLE_NAME, &v);
	ck_assert_str_eq(t.name, "vm.dirty_ratio");
	ck_assert(tw_column_load(tg, &t, TW_OID_TUNABLE_VALUE, &out));
	ck_assert_uint_eq(out.len, 0);
}
END_TEST

static Suite *
columns_suite(void)
{
	Suite *s = suite_create("columns");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_lookup);
	tcase_add_test(tc, test_encode_decode);
	tcase_add_test(tc, test_signed_is_integer);
	tcase_add_test(tc, test_check);
	tcase_add_test(tc, test_describe);
	tcase_add_test(tc, test_store_load);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(columns_suite());
}
