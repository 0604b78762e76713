/* SPDX-License-Identifier: ISC */
/* Unit tests for the typed records of the buffer cache, a cgroup and a
 * socket that drops (lib/view/record_*.c): each figure decoded from the MIB's
 * number into its natural unit by the column table, an absent one NAN,
 * -1 or NULL, never 0, and the identity strings never NULL. */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "tw_check.h"
#include "util/error.h"
#include "view/record_cache.h"
#include "view/record_cgroup.h"
#include "view/record_socket.h"
#include "view/view.h"

START_TEST(test_cache)
{
	struct tw_view_bufcache bc;
	struct tw_cache_record f;

	memset(&bc, 0, sizeof(bc));
	TW_PUT_CELL(bc, TW_OID_BC_MEM_TOTAL, UINT64_C(8589934592));
	TW_PUT_CELL(bc, TW_OID_BC_REFAULT_RATE, 12345);	/* hundredths */
	TW_PUT_CELL(bc, TW_OID_BC_READ_HIT_RATIO, 9050);
	TW_PUT_CELL(bc, TW_OID_BC_SWAP_FREE, 0);
	bc.col[TW_OID_BC_DIRTY] = 777;			/* no has bit: absent */
	bc.has |= TW_VIEW_BIT(TW_OID_BC_HIT_RATIO_METHOD);
	strcpy(bc.method, "proc-pid-io");
	tw_view_cache_record(&bc, &f);
	ck_assert(f.mem_total_bytes == 8589934592.0);
	ck_assert(fabs(f.refaults_s - 123.45) < 1e-9);
	ck_assert(fabs(f.hit_ratio_pct - 90.5) < 1e-9);
	ck_assert_str_eq(f.method, "proc-pid-io");
	/* A zero that was given is a figure; one that was not is none. */
	ck_assert(tw_fig_has(f.swap_free_bytes) && f.swap_free_bytes == 0.0);
	ck_assert(!tw_fig_has(f.dirty_bytes));
	ck_assert(!tw_fig_has(f.memory_pressure_pct));
	ck_assert(!tw_fig_has(f.reclaim_s));
	bc.has = 0;
	tw_view_cache_record(&bc, &f);
	ck_assert_ptr_null(f.method);
	ck_assert(!tw_fig_has(f.mem_total_bytes));
}
END_TEST

START_TEST(test_cgroup)
{
	struct tw_view_cgroup c;
	struct tw_cgroup_record f;

	memset(&c, 0, sizeof(c));
	c.index = 7;
	strcpy(c.path, "/system.slice/nginx.service");
	strcpy(c.limit_name, "memory.high");
	c.has = TW_VIEW_BIT(TW_OID_CGROUP_PATH) | TW_VIEW_BIT(TW_OID_CGROUP_LIMIT_NAME);
	TW_PUT_CELL(c, TW_OID_CGROUP_VERSION, 2);
	TW_PUT_CELL(c, TW_OID_CGROUP_REFAULT_RATE, 100000);	/* 1000 refaults/s */
	TW_PUT_CELL(c, TW_OID_CGROUP_MEMORY_LIMIT, 67108864);
	TW_PUT_CELL(c, TW_OID_CGROUP_MEMORY_PRESSURE, 1250);	/* 12.5 % */
	tw_view_cgroup_record(&c, &f);
	ck_assert_uint_eq(f.index, 7);
	ck_assert_str_eq(f.path, "/system.slice/nginx.service");
	ck_assert_int_eq(f.version, 2);
	ck_assert(fabs(f.refaults_s - 1000.0) < 1e-9);
	ck_assert(f.memory_limit_bytes == 67108864.0);
	ck_assert_str_eq(f.limit_name, "memory.high");
	ck_assert(fabs(f.memory_pressure_pct - 12.5) < 1e-9);
	ck_assert(!tw_fig_has(f.io_pressure_pct));
	ck_assert(!tw_fig_has(f.cache_bytes));
	ck_assert_ptr_null(f.unit);
	/* The limit's name is read by its text, with or without its bit. */
	c.has = 0;
	tw_view_cgroup_record(&c, &f);
	ck_assert_int_eq(f.version, -1);
	ck_assert_str_eq(f.limit_name, "memory.high");
	c.limit_name[0] = '\0';
	tw_view_cgroup_record(&c, &f);
	ck_assert_ptr_null(f.limit_name);
	ck_assert_ptr_nonnull(f.path);
}
END_TEST

/* What a cgroup is judged on is its whole record's figures of the same
 * names, absences alike; nothing else is decoded. */
START_TEST(test_cgroup_judged)
{
	struct tw_view_cgroup c;
	struct tw_cgroup_record f, whole;

	memset(&c, 0, sizeof(c));
	c.index = 7;
	strcpy(c.path, "/system.slice/nginx.service");
	c.has = TW_VIEW_BIT(TW_OID_CGROUP_PATH);
	TW_PUT_CELL(c, TW_OID_CGROUP_REFAULT_RATE, 100000);	/* 1000 refaults/s */
	TW_PUT_CELL(c, TW_OID_CGROUP_MEMORY_LIMIT, 67108864);
	tw_view_cgroup_judged(&c, &f);
	tw_view_cgroup_record(&c, &whole);
	ck_assert_uint_eq(f.index, 7);
	ck_assert(fabs(f.refaults_s - whole.refaults_s) < 1e-9);
	ck_assert(fabs(f.refaults_s - 1000.0) < 1e-9);
	ck_assert(!tw_fig_has(f.memory_pressure_pct));
	ck_assert(!tw_fig_has(whole.memory_pressure_pct));
	TW_PUT_CELL(c, TW_OID_CGROUP_MEMORY_PRESSURE, 1250);	/* 12.5 % */
	tw_view_cgroup_judged(&c, &f);
	tw_view_cgroup_record(&c, &whole);
	ck_assert(fabs(f.memory_pressure_pct - whole.memory_pressure_pct) < 1e-9);
	ck_assert(fabs(f.memory_pressure_pct - 12.5) < 1e-9);
	/* Not judged, so not decoded. */
	ck_assert(!tw_fig_has(f.memory_limit_bytes));
	ck_assert(whole.memory_limit_bytes == 67108864.0);
}
END_TEST

START_TEST(test_socket)
{
	struct tw_view_sock s;
	struct tw_socket_record f;

	memset(&s, 0, sizeof(s));
	s.proto = 1;
	s.inode = 4242;
	strcpy(s.proto_name, "udp");
	strcpy(s.address, "0.0.0.0");
	strcpy(s.command, "syslogd");
	TW_PUT_CELL(s, TW_OID_SOCKDROP_LOCAL_PORT, 514);
	TW_PUT_CELL(s, TW_OID_SOCKDROP_RECENT_DROPS, 152);
	TW_PUT_CELL(s, TW_OID_SOCKDROP_RCVBUF, 2304);
	TW_PUT_CELL(s, TW_OID_SOCKDROP_RMEM_MAX, 212992);
	tw_view_socket_record(&s, &f);
	ck_assert_uint_eq(f.proto, 1);
	ck_assert_uint_eq(f.inode, 4242);
	ck_assert_str_eq(f.proto_name, "udp");
	ck_assert_str_eq(f.address, "0.0.0.0");
	ck_assert_int_eq(f.port, 514);
	ck_assert(f.recent_drops == 152.0);
	ck_assert(f.rcvbuf_bytes == 2304.0);
	ck_assert(f.rmem_max_bytes == 212992.0);
	/* The command is there only with its bit, the pid not at all. */
	ck_assert_ptr_null(f.command);
	ck_assert_int_eq(f.pid, -1);
	ck_assert_int_eq(f.owner_search, -1);
	ck_assert(!tw_fig_has(f.drops));
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("record_cache");
	TCase *tc = tcase_create("records");

	tcase_add_test(tc, test_cache);
	tcase_add_test(tc, test_cgroup);
	tcase_add_test(tc, test_cgroup_judged);
	tcase_add_test(tc, test_socket);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(suite());
}
