/* SPDX-License-Identifier: ISC */
/* Unit tests for the typed records of tunewatchd's scalars and of a
 * change (lib/view/record_agent.c, record_change.c): each figure decoded into
 * its natural unit by the column table, an absent one NAN, -1 or NULL,
 * never 0; and the OIDs a notice's notification and objects go out
 * under (lib/view/notice.c). */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "tw_check.h"
#include "view/record_agent.h"
#include "view/record_change.h"
#include "view/notice.h"
#include "view/view.h"

START_TEST(test_agent)
{
	struct tw_view_agent a;
	struct tw_agent_record f;

	memset(&a, 0, sizeof(a));
	a.has = TW_VIEW_BIT(TW_OID_AGENT_SYSTEM) | TW_VIEW_BIT(TW_OID_AGENT_REQLAT_STATE);
	strcpy(a.system, "Linux 6.1.0-18-amd64");
	strcpy(a.version, "9.9");			/* no has bit: absent */
	strcpy(a.reqlat_state, "timing");
	TW_PUT_CELL(a, TW_OID_AGENT_INTERVAL, 10);
	TW_PUT_CELL(a, TW_OID_AGENT_WINDOW_SPAN, 299500);
	TW_PUT_CELL(a, TW_OID_AGENT_CGROUPS_WALKED, 320);
	TW_PUT_CELL(a, TW_OID_AGENT_CGROUPS_CUT_DEEP, 0);
	a.col[TW_OID_AGENT_WINDOW] = 300;		/* no has bit */
	tw_view_agent_record(&a, &f);
	ck_assert_str_eq(f.system, "Linux 6.1.0-18-amd64");
	ck_assert_str_eq(f.reqlat_state, "timing");
	ck_assert_ptr_null(f.version);
	ck_assert_ptr_null(f.reqlat_reason);
	ck_assert(f.interval_s == 10.0);
	ck_assert(f.window_span_ms == 299500.0);
	ck_assert(f.cgroups_walked == 320.0);
	/* A zero that was given is a figure; one that was not is none. */
	ck_assert(tw_fig_has(f.cgroups_cut_deep) && f.cgroups_cut_deep == 0.0);
	ck_assert(!tw_fig_has(f.window_s));
	ck_assert(!tw_fig_has(f.window_samples));
	ck_assert(!tw_fig_has(f.cgroups_cut_long));
	a.has = 0;
	tw_view_agent_record(&a, &f);
	ck_assert_ptr_null(f.system);
	ck_assert(!tw_fig_has(f.interval_s));
}
END_TEST

START_TEST(test_change)
{
	struct tw_view_change c;
	struct tw_change_record f;

	memset(&c, 0, sizeof(c));
	c.index = UINT32_MAX;
	c.has = TW_VIEW_BIT(TW_OID_CHANGE_TUNABLE) | TW_VIEW_BIT(TW_OID_CHANGE_SUBJECT) |
	    TW_VIEW_BIT(TW_OID_CHANGE_FIGURE) | TW_VIEW_BIT(TW_OID_CHANGE_FIGURE_UNIT);
	strcpy(c.tunable, "net.core.somaxconn");
	strcpy(c.subject, "host");
	strcpy(c.old_value, "128");			/* no has bit */
	strcpy(c.figure, "listen overflows");
	strcpy(c.unit, "/s");
	TW_PUT_CELL(c, TW_OID_CHANGE_TIME, 1700000000);
	TW_PUT_CELL(c, TW_OID_CHANGE_EVALUATED, 2);	/* TruthValue false */
	TW_PUT_CELL(c, TW_OID_CHANGE_BEFORE, 250);	/* hundredths */
	tw_view_change_record(&c, &f);
	ck_assert_uint_eq(f.index, UINT32_MAX);
	ck_assert_str_eq(f.tunable, "net.core.somaxconn");
	ck_assert_str_eq(f.subject, "host");
	ck_assert_str_eq(f.figure, "listen overflows");
	ck_assert_str_eq(f.unit, "/s");
	ck_assert_ptr_null(f.old_value);
	ck_assert_ptr_null(f.new_value);
	ck_assert(f.time_s == 1700000000.0);
	ck_assert_int_eq(f.evaluated, 0);
	ck_assert(fabs(f.before - 2.5) < 1e-9);
	ck_assert(!tw_fig_has(f.after));
	c.col[TW_OID_CHANGE_EVALUATED] = 1;
	TW_PUT_CELL(c, TW_OID_CHANGE_AFTER, 0);
	tw_view_change_record(&c, &f);
	ck_assert_int_eq(f.evaluated, 1);
	ck_assert(tw_fig_has(f.after) && f.after == 0.0);
	c.has = 0;
	tw_view_change_record(&c, &f);
	ck_assert_ptr_null(f.tunable);
	ck_assert_int_eq(f.evaluated, -1);
	ck_assert(!tw_fig_has(f.time_s));
}
END_TEST

/* twTunableChanged is twNotifications.4, and its objects' cells lie below
 * twObjects at the change table's entry, column and row. */
START_TEST(test_notice_names)
{
	static const uint32_t arc[TW_MIB_ARC_LEN] = { TW_MIB_ARC };
	struct tw_change_record c;
	struct tw_notice n;
	uint32_t name[TW_NOTICE_NAME_MAX];
	size_t len;

	len = tw_notice_trap_name(TW_NOTIFY_TUNABLE_CHANGED, name);
	ck_assert_uint_eq(len, TW_MIB_ARC_LEN + 2);
	ck_assert(memcmp(name, arc, sizeof(arc)) == 0);
	ck_assert_uint_eq(name[TW_MIB_ARC_LEN], TW_OID_NOTIFICATIONS);
	ck_assert_uint_eq(name[TW_MIB_ARC_LEN + 1], TW_NOTIFY_TUNABLE_CHANGED);

	tw_change_record_init(&c);
	c.index = 4000000000u;
	c.tunable = "vm.swappiness";
	c.subject = "host";
	c.old_value = "60";
	c.new_value = "10";
	tw_notice_change(&n, 0, &c);
	len = tw_notice_object_name(&n, &n.obj[0], name);
	ck_assert_uint_eq(len, TW_MIB_ARC_LEN + 5);
	ck_assert(memcmp(name, arc, sizeof(arc)) == 0);
	ck_assert_uint_eq(name[TW_MIB_ARC_LEN], TW_OID_OBJECTS);
	ck_assert_uint_eq(name[TW_MIB_ARC_LEN + 1], TW_OID_CHANGE_TABLE);
	ck_assert_uint_eq(name[TW_MIB_ARC_LEN + 2], TW_OID_CHANGE_ENTRY);
	ck_assert_uint_eq(name[TW_MIB_ARC_LEN + 3], TW_OID_CHANGE_TUNABLE);
	ck_assert_uint_eq(name[TW_MIB_ARC_LEN + 4], 4000000000u);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("record_agent");
	TCase *tc = tcase_create("records");

	tcase_add_test(tc, test_agent);
	tcase_add_test(tc, test_change);
	tcase_add_test(tc, test_notice_names);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(suite());
}
