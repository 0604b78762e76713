/* Unit tests for the findings on a service whose cache is bounded by its
 * own limit: judged as check_bufcache --cgroup judges it
 * (lib/finding/judge_cgroup.c), raised by the tracker after raise_after
 * samples with the unit (or the cgroup's path) as its subject and the id
 * tw_ticket_id gives for the same symptom, subject and knob. */
#include "config.h"

#include <stdint.h>

#include "advice/ticket.h"
#include "finding/judge.h"
#include "finding/observe.h"
#include "finding/tracker.h"
#include "tw_check.h"
#include "util/error.h"
#include "view/view.h"

#define MIB 1048576ULL

/* nginx.service refaulting refaults pages/s with memory usage_mib of its
 * memory.high of 64 MiB, on a host of 4 GiB. */
static void
make_view(struct tw_view *v, unsigned refaults, unsigned usage_mib)
{
	struct tw_view_cgroup *c;

	tw_view_init(v);
	v->bc.has = TW_VIEW_BIT(TW_OID_BC_MEM_TOTAL);
	v->bc.col[TW_OID_BC_MEM_TOTAL] = 4096 * MIB;
	ck_assert_int_eq(tw_view_reserve_cgroups(v, 1), TW_OK);
	c = &v->cgroups[0];
	memset(c, 0, sizeof(*c));
	c->index = 1;
	strcpy(c->path, "/system.slice/nginx.service");
	strcpy(c->unit, "nginx.service");
	strcpy(c->limit_name, "memory.high");
	c->has = TW_VIEW_BIT(TW_OID_CGROUP_VERSION) | TW_VIEW_BIT(TW_OID_CGROUP_MEMORY_USAGE) |
	    TW_VIEW_BIT(TW_OID_CGROUP_MEMORY_LIMIT) | TW_VIEW_BIT(TW_OID_CGROUP_REFAULT_RATE);
	c->col[TW_OID_CGROUP_VERSION] = 2;
	c->col[TW_OID_CGROUP_MEMORY_USAGE] = usage_mib * MIB;
	c->col[TW_OID_CGROUP_MEMORY_LIMIT] = 64 * MIB;
	c->col[TW_OID_CGROUP_REFAULT_RATE] = (uint64_t)refaults * 100;	/* hundredths */
	v->ncgroups = 1;
}

struct seen {
	struct tw_observation o[4];
	size_t n;
};

static int
collect(void *ctx, const struct tw_observation *o)
{
	struct seen *s = ctx;

	if (s->n < 4)
		s->o[s->n++] = *o;
	return 0;
}

START_TEST(test_judge)
{
	struct tw_judge_config c;
	struct tw_view v;

	tw_judge_defaults(&c);
	/* check_bufcache --cgroup's defaults: 100 and 1000 refaults/s. */
	make_view(&v, 50, 64);
	ck_assert_int_eq(tw_judge_cgroup(&c.cg_refault_warn, &c.cg_refault_crit, &c.cg_psi_warn,
	    &c.cg_psi_crit, &v.cgroups[0]), TW_STATE_OK);
	v.cgroups[0].col[TW_OID_CGROUP_REFAULT_RATE] = 500 * 100;
	ck_assert_int_eq(tw_judge_cgroup(&c.cg_refault_warn, &c.cg_refault_crit, &c.cg_psi_warn,
	    &c.cg_psi_crit, &v.cgroups[0]), TW_STATE_WARNING);
	v.cgroups[0].col[TW_OID_CGROUP_REFAULT_RATE] = 1500 * 100;
	ck_assert_int_eq(tw_judge_cgroup(&c.cg_refault_warn, &c.cg_refault_crit, &c.cg_psi_warn,
	    &c.cg_psi_crit, &v.cgroups[0]), TW_STATE_CRITICAL);
	ck_assert_str_eq(tw_judge_cgroup_name(&v.cgroups[0]), "nginx.service");
	/* A cgroup below the unit's is named by its path. */
	strcpy(v.cgroups[0].path, "/system.slice/nginx.service/worker");
	ck_assert_ptr_null(tw_judge_cgroup_unit(&v.cgroups[0]));
	ck_assert_str_eq(tw_judge_cgroup_name(&v.cgroups[0]), "/system.slice/nginx.service/worker");
	tw_view_free(&v);
}
END_TEST

START_TEST(test_observe_at_limit)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	char id[TW_TICKET_ID_LEN];

	tw_judge_defaults(&c);
	make_view(&v, 1500, 64);
	ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_int_eq(s.o[0].severity, TW_STATE_CRITICAL);
	ck_assert_str_eq(s.o[0].subject, "nginx.service");
	ck_assert_str_eq(s.o[0].tunable, "MemoryHigh");
	ck_assert_str_eq(s.o[0].current, "64M");
	ck_assert_str_eq(s.o[0].suggested, "128M");
	ck_assert_str_eq(s.o[0].apply, "systemctl set-property nginx.service MemoryHigh=128M");
	ck_assert_str_eq(s.o[0].evidence, "1500 refaults/s, memory 64 of 64 MiB (memory.high), "
	    "in the last 60 s (critical range 1000, refaults/s)");
	tw_ticket_id(id, TW_SYM_LOW_HIT_REFAULTS, "nginx.service", "MemoryHigh");
	ck_assert_str_eq(s.o[0].id, id);
	tw_view_free(&v);
}
END_TEST

/* Well below its limit: the host's memory bounds it, a finding with no
 * knob, still about the service. */
START_TEST(test_observe_below_limit)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	char id[TW_TICKET_ID_LEN];

	tw_judge_defaults(&c);
	make_view(&v, 500, 10);
	tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_int_eq(s.o[0].severity, TW_STATE_WARNING);
	ck_assert_str_eq(s.o[0].subject, "nginx.service");
	ck_assert_str_eq(s.o[0].tunable, "");
	ck_assert_ptr_nonnull(strstr(s.o[0].evidence, "its own limit does not bound its cache"));
	tw_ticket_id(id, TW_SYM_LOW_HIT_REFAULTS, "nginx.service", "");
	ck_assert_str_eq(s.o[0].id, id);
	tw_view_free(&v);
}
END_TEST

START_TEST(test_tracked)
{
	struct tw_judge_config c;
	struct tw_tracker t;
	struct tw_view v, out;
	char id[TW_TICKET_ID_LEN];
	int i;

	tw_judge_defaults(&c);
	make_view(&v, 1500, 64);
	tw_view_init(&out);
	ck_assert_int_eq(tw_tracker_init(&t, 3, 3), TW_OK);
	for (i = 0; i < 3; i++) {
		tw_tracker_begin(&t);
		tw_observe(&c, &v, 60, TW_OS_LINUX, tw_tracker_observe, &t);
		tw_tracker_end(&t, 2000 + (uint64_t)i);
		ck_assert_uint_eq(t.nevents, i < 2 ? 0 : 1);
	}
	tw_ticket_id(id, TW_SYM_LOW_HIT_REFAULTS, "nginx.service", "MemoryHigh");
	ck_assert_int_eq(t.events[0].kind, TW_FINDING_EVENT_RAISED);
	ck_assert_str_eq(t.events[0].row.id, id);
	ck_assert_int_eq(tw_tracker_publish(&t, &out), TW_OK);
	ck_assert_uint_eq(out.nfindings, 1);
	ck_assert_str_eq(out.findings[0].subject, "nginx.service");
	ck_assert_str_eq(out.findings[0].id, id);
	tw_tracker_free(&t);
	tw_view_free(&v);
	tw_view_free(&out);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("finding_cgroup");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_judge);
	tcase_add_test(tc, test_observe_at_limit);
	tcase_add_test(tc, test_observe_below_limit);
	tcase_add_test(tc, test_tracked);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
