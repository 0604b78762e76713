/* SPDX-License-Identifier: ISC */
/* Unit tests for lib/view/recordrow.c: a group's record projected into a view
 * row and decoded back. A record with every figure absent leaves its row
 * empty (but for the names every row carries) and an empty row decodes
 * into exactly the record's own "absent" (figures/GROUP.h's init), so a
 * field the column table names but the init forgets, or the other way
 * round, fails here. A record with figures comes back as the MIB's
 * resolution rounds it. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "figures/agent_record.h"
#include "figures/cache_record.h"
#include "figures/cgroup_record.h"
#include "figures/change_record.h"
#include "figures/disk_record.h"
#include "figures/pool_record.h"
#include "figures/probe_record.h"
#include "figures/reqlat_record.h"
#include "figures/socket_record.h"
#include "tw_check.h"
#include "view/columns.h"
#include "view/record_disk.h"
#include "view/recordrow.h"
#include "view/view.h"

union record {
	struct tw_agent_record agent;
	struct tw_cache_record cache;
	struct tw_disk_record disk;
	struct tw_pool_record pool;
	struct tw_socket_record socket;
	struct tw_probe_record probe;
	struct tw_cgroup_record cgroup;
	struct tw_reqlat_record reqlat;
	struct tw_change_record change;
};

union row {
	struct tw_view_agent agent;
	struct tw_view_bufcache bc;
	struct tw_view_disk disk;
	struct tw_view_pool pool;
	struct tw_view_sock sock;
	struct tw_view_probe probe;
	struct tw_view_cgroup cgroup;
	struct tw_view_reqlat reqlat;
	struct tw_view_change change;
};

static void init_agent(union record *r) { tw_agent_record_init(&r->agent); }
static void init_cache(union record *r) { tw_cache_record_init(&r->cache); }
static void init_disk(union record *r) { tw_disk_record_init(&r->disk); }
static void init_pool(union record *r) { tw_pool_record_init(&r->pool); }
static void init_socket(union record *r) { tw_socket_record_init(&r->socket); }
static void init_probe(union record *r) { tw_probe_record_init(&r->probe); }
static void init_cgroup(union record *r) { tw_cgroup_record_init(&r->cgroup); }
static void init_reqlat(union record *r) { tw_reqlat_record_init(&r->reqlat); }
static void init_change(union record *r) { tw_change_record_init(&r->change); }

static const struct {
	uint32_t group;
	void (*init)(union record *);
	size_t has_off;
} groups[] = {
	{ TW_OID_AGENT, init_agent, offsetof(struct tw_view_agent, has) },
	{ TW_OID_BUFCACHE, init_cache, offsetof(struct tw_view_bufcache, has) },
	{ TW_OID_DISK_TABLE, init_disk, offsetof(struct tw_view_disk, has) },
	{ TW_OID_DBLOCK_TABLE, init_pool, offsetof(struct tw_view_pool, has) },
	{ TW_OID_SOCKDROP_TABLE, init_socket, offsetof(struct tw_view_sock, has) },
	{ TW_OID_PROBE_TABLE, init_probe, offsetof(struct tw_view_probe, has) },
	{ TW_OID_CGROUP_TABLE, init_cgroup, offsetof(struct tw_view_cgroup, has) },
	{ TW_OID_REQLAT_TABLE, init_reqlat, offsetof(struct tw_view_reqlat, has) },
	{ TW_OID_CHANGE_TABLE, init_change, offsetof(struct tw_view_change, has) },
};

static uint32_t
has_of(const union row *row, size_t off)
{
	uint32_t has;

	memcpy(&has, (const char *)row + off, sizeof(has));
	return has;
}

/* The columns of g whose field is a name: a row always carries them. */
static uint32_t
names_of(const struct tw_column_group *g)
{
	uint32_t m = 0;
	unsigned col;

	for (col = 0; col < g->ncols; col++)
		if (g->cols[col].name != NULL && g->cols[col].fig == TW_FIG_NAME)
			m |= UINT32_C(1) << col;
	return m;
}

/* Field c of a and of b hold the same absent value. */
static void
same_absence(const struct tw_column *c, const union record *a, const union record *b)
{
	const char *pa = (const char *)a + c->fig_off, *pb = (const char *)b + c->fig_off;
	double x, y;
	const char *s, *t;

	switch (c->fig) {
	case TW_FIG_REAL:
		memcpy(&x, pa, sizeof(x));
		memcpy(&y, pb, sizeof(y));
		ck_assert_msg(isnan(x) && isnan(y), "%s: %g and %g, not both absent", c->name, x, y);
		break;
	case TW_FIG_COUNT:
		ck_assert_msg(memcmp(pa, pb, sizeof(uint64_t)) == 0, "%s", c->name);
		break;
	case TW_FIG_INT:
		ck_assert_msg(memcmp(pa, pb, sizeof(int64_t)) == 0, "%s", c->name);
		break;
	case TW_FIG_TRUTH:
		ck_assert_msg(memcmp(pa, pb, sizeof(int)) == 0, "%s", c->name);
		break;
	case TW_FIG_TEXT:
	case TW_FIG_NAME:
		memcpy(&s, pa, sizeof(s));
		memcpy(&t, pb, sizeof(t));
		ck_assert_msg((s == NULL) == (t == NULL), "%s: %s and %s", c->name,
		    s ? s : "NULL", t ? t : "NULL");
		if (s != NULL)
			ck_assert_str_eq(s, t);
		break;
	case TW_FIG_NO_FIELD:
		break;
	}
}

START_TEST(test_absent_both_ways)
{
	size_t i;

	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		const struct tw_column_group *g = tw_column_group(groups[i].group);
		union record absent, decoded;
		union row row;
		unsigned col, fields = 0;

		groups[i].init(&absent);
		memset(&row, 0, sizeof(row));
		tw_recordrow_project(g, &absent, &row);
		ck_assert_msg(has_of(&row, groups[i].has_off) == names_of(g), "%s: has %#x",
		    g->name, (unsigned)has_of(&row, groups[i].has_off));
		memset(&row, 0, sizeof(row));
		memset(&decoded, 0xab, sizeof(decoded));
		tw_recordrow_decode(g, &row, &decoded);
		for (col = g->first; col < g->ncols; col++)
			if (g->cols[col].name != NULL && g->cols[col].fig != TW_FIG_NO_FIELD) {
				same_absence(&g->cols[col], &absent, &decoded);
				fields++;
			}
		ck_assert_msg(fields > 0, "%s names no field", g->name);
	}
}
END_TEST

/* Every accessible column of a group with a record names its field. */
START_TEST(test_every_column_has_a_field)
{
	size_t i;

	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		const struct tw_column_group *g = tw_column_group(groups[i].group);
		unsigned col;

		for (col = g->first; col < g->ncols; col++) {
			const struct tw_column *c = &g->cols[col];

			if (c->name != NULL && c->access == TW_ACCESS_READ_ONLY)
				ck_assert_msg(c->fig != TW_FIG_NO_FIELD, "%s has no field", c->name);
			if (c->fig == TW_FIG_INT || c->fig == TW_FIG_COUNT)
				ck_assert_msg(c->scale == 1, "%s: a count is not scaled", c->name);
		}
	}
}
END_TEST

/* A disk's record, projected and decoded: each figure at the MIB's
 * resolution, counts exact, strings as they were, the absent ones absent. */
START_TEST(test_disk_round_trip)
{
	const struct tw_column_group *g = tw_column_group(TW_OID_DISK_TABLE);
	struct tw_disk_record f, back;
	struct tw_view_disk row;

	tw_disk_record_init(&f);
	f.major = 8;
	f.name = "sda";
	f.reads = UINT64_C(18446744073709551000);	/* past a double's exactness */
	f.in_flight = UINT64_C(5000000000);		/* past a Gauge32: its top */
	f.r_await_ms = 12.3456;			/* microseconds on the wire */
	f.util_pct = 99.994;				/* hundredths */
	f.read_bytes_s = -3;				/* below the range: 0 */
	f.nr_requests = 64;
	f.rotational = 0;
	f.scheduler = "mq-deadline";
	f.alias = "vg0-root\x1b[2J";			/* shown as it goes in */
	memset(&row, 0, sizeof(row));
	row.major = f.major;
	tw_recordrow_project(g, &f, &row);
	tw_view_disk_record(&row, &back);
	ck_assert_uint_eq(back.major, 8);
	ck_assert_str_eq(back.name, "sda");
	ck_assert_uint_eq(back.reads, UINT64_C(18446744073709551000));
	ck_assert_uint_eq(back.in_flight, UINT32_MAX);
	ck_assert(back.r_await_ms == 12.346);
	ck_assert(back.util_pct == 99.99);
	ck_assert(back.read_bytes_s == 0);
	ck_assert_int_eq(back.nr_requests, 64);
	ck_assert_int_eq(back.rotational, 0);
	ck_assert_uint_eq(row.col[TW_OID_DISK_ROTATIONAL], 2);	/* TruthValue false */
	ck_assert_str_eq(back.scheduler, "mq-deadline");
	ck_assert_str_eq(back.alias, "vg0-root\\x1b[2J");
	ck_assert_ptr_null(back.stable_id);
	ck_assert(!tw_fig_has(back.w_await_ms));
	ck_assert_uint_eq(back.writes, TW_FIG_NO_COUNT);
	ck_assert_int_eq(back.read_ahead_kb, -1);
	ck_assert(!tw_view_has(&row, TW_OID_DISK_WRITE_LATENCY));
}
END_TEST

static Suite *
recordrow_suite(void)
{
	Suite *s = suite_create("recordrow");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_absent_both_ways);
	tcase_add_test(tc, test_every_column_has_a_field);
	tcase_add_test(tc, test_disk_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(recordrow_suite());
}
