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
#include "tw_findings.h"
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
	struct seen s;
	const struct tw_observation *o;
	char id[TW_TICKET_ID_LEN];

	tw_judge_defaults(&c);
	make_view(&v, 1500, 64);
	/* Its own symptom: not the host's low-hit-refaults, whose id it had. */
	o = observe_one(&s, &c, &v, TW_SYM_CGROUP_CACHE_BOUNDED, TW_STATE_CRITICAL,
	    "nginx.service", "MemoryHigh");
	ck_assert_str_eq(o->tunable, "MemoryHigh");
	ck_assert_str_eq(o->current, "64M");
	/* (64 MiB held + 1500 * 60 pages of 4 KiB read back) * 1.25 = 519.5. */
	ck_assert_str_eq(o->suggested, "520M");
	ck_assert_str_eq(o->apply, "systemctl set-property --runtime nginx.service MemoryHigh=520M");
	ck_assert_str_eq(o->persist,
	    "/etc/systemd/system/nginx.service.d/90-tunewatch.conf: [Service] MemoryHigh=520M");
	ck_assert_str_eq(o->evidence, "1500 refaults/s, memory 64 of 64 MiB (memory.high), "
	    "in the last 60 s (critical range 1000, refaults/s)");
	tw_ticket_id(id, TW_SYM_LOW_HIT_REFAULTS, "nginx.service", "MemoryHigh");
	ck_assert_str_ne(o->id, id);
	tw_view_free(&v);
}
END_TEST

/* The host's refault finding and the service's, on the same figures: two
 * findings, two symptoms, two ids. */
START_TEST(test_host_and_service_differ)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s = { .n = 0 };
	size_t i, host = 4, service = 4;

	tw_judge_defaults(&c);
	make_view(&v, 1500, 64);
	/* The host reads 1000 pages/s from storage and refaults 800 of them,
	 * with a read hit ratio of 60 %, with swap in use. */
	v.bc.has |= TW_VIEW_BIT(TW_OID_BC_READ_HIT_RATIO) | TW_VIEW_BIT(TW_OID_BC_PAGE_IN_RATE) |
	    TW_VIEW_BIT(TW_OID_BC_REFAULT_RATE) | TW_VIEW_BIT(TW_OID_BC_SWAP_TOTAL) |
	    TW_VIEW_BIT(TW_OID_BC_SWAP_FREE);
	v.bc.col[TW_OID_BC_READ_HIT_RATIO] = 6000;
	v.bc.col[TW_OID_BC_PAGE_IN_RATE] = 4000 * 100;
	v.bc.col[TW_OID_BC_REFAULT_RATE] = 800 * 100;
	v.bc.col[TW_OID_BC_SWAP_TOTAL] = 1024 * MIB;
	v.bc.col[TW_OID_BC_SWAP_FREE] = 512 * MIB;
	ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s), 0);
	for (i = 0; i < s.n; i++) {
		if (s.o[i].sym == TW_SYM_LOW_HIT_REFAULTS)
			host = i;
		if (s.o[i].sym == TW_SYM_CGROUP_CACHE_BOUNDED)
			service = i;
	}
	ck_assert_msg(host < s.n, "the host's refault finding is missing (%zu findings)", s.n);
	ck_assert_uint_lt(service, s.n);
	ck_assert_str_eq(s.o[host].subject, TW_TICKET_SUBJECT_CACHE);
	ck_assert_str_eq(s.o[service].subject, "nginx.service");
	ck_assert_str_ne(s.o[host].id, s.o[service].id);
	ck_assert_str_ne(tw_symptom_name(s.o[host].sym), tw_symptom_name(s.o[service].sym));
	tw_view_free(&v);
}
END_TEST

/* A cgroup below the unit's (or a container's) is advised on its own
 * file, with no command: what made it owns the limit. */
START_TEST(test_ticket_not_a_unit)
{
	struct tw_cgroup_figures f;
	struct tw_cgroup_ticket t;
	struct tw_view v;
	char id[TW_TICKET_ID_LEN];

	make_view(&v, 1500, 64);
	strcpy(v.cgroups[0].path, "/system.slice/docker-4f1c.scope/app");
	strcpy(v.cgroups[0].unit, "docker-4f1c.scope");
	tw_judge_cgroup_figures(&v, &v.cgroups[0], 60, &f);
	tw_judge_cgroup_ticket(&f, &t);
	ck_assert_int_eq(t.sym, TW_SYM_CGROUP_CACHE_BOUNDED);
	ck_assert_str_eq(t.subject, "/system.slice/docker-4f1c.scope/app");
	ck_assert_str_eq(t.tunable, "memory.high");
	ck_assert_str_eq(t.suggested, "520M");
	ck_assert_str_eq(t.apply, "");
	ck_assert_str_eq(t.persist, "");
	ck_assert_ptr_nonnull(t.no_apply);
	ck_assert_ptr_nonnull(strstr(t.no_apply, "not a systemd unit"));
	ck_assert_ptr_null(t.no_persist);
	tw_ticket_id(id, TW_SYM_CGROUP_CACHE_BOUNDED, t.subject, "memory.high");
	ck_assert_str_eq(t.id, id);

	/* A scope's own cgroup: a command, but no file to keep it in. */
	strcpy(v.cgroups[0].path, "/system.slice/docker-4f1c.scope");
	tw_judge_cgroup_figures(&v, &v.cgroups[0], 60, &f);
	tw_judge_cgroup_ticket(&f, &t);
	ck_assert_str_eq(t.apply,
	    "systemctl set-property --runtime docker-4f1c.scope MemoryHigh=520M");
	ck_assert_str_eq(t.persist, "");
	ck_assert_ptr_nonnull(t.no_persist);

	/* A unit name that could not be pasted safely: no command at all. */
	strcpy(v.cgroups[0].path, "/system.slice/a;reboot.service");
	strcpy(v.cgroups[0].unit, "a;reboot.service");
	tw_judge_cgroup_figures(&v, &v.cgroups[0], 60, &f);
	tw_judge_cgroup_ticket(&f, &t);
	ck_assert_str_eq(t.subject, "a;reboot.service");
	ck_assert_str_eq(t.apply, "");
	ck_assert_str_eq(t.persist, "");
	ck_assert_ptr_nonnull(strstr(t.no_apply, "unsafe"));

	/* Below its limit: the host's symptom, no knob, no lines. */
	tw_view_free(&v);
	make_view(&v, 1500, 10);
	tw_judge_cgroup_figures(&v, &v.cgroups[0], 60, &f);
	tw_judge_cgroup_ticket(&f, &t);
	ck_assert_int_eq(t.sym, TW_SYM_LOW_HIT_REFAULTS);
	ck_assert_str_eq(t.tunable, "");
	ck_assert_str_eq(t.apply, "");
	ck_assert_ptr_null(t.no_apply);
	tw_view_free(&v);
}
END_TEST

/* Well below its limit: the host's memory bounds it, a finding with no
 * knob, still about the service. */
START_TEST(test_observe_below_limit)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s;
	const struct tw_observation *o;

	tw_judge_defaults(&c);
	make_view(&v, 500, 10);
	o = observe_one(&s, &c, &v, TW_SYM_LOW_HIT_REFAULTS, TW_STATE_WARNING, "nginx.service",
	    "");
	ck_assert_str_eq(o->tunable, "");
	ck_assert_ptr_nonnull(strstr(o->evidence, "its own limit does not bound its cache"));
	tw_view_free(&v);
}
END_TEST

START_TEST(test_tracked)
{
	struct tw_judge_config c;
	struct tw_tracker t;
	struct tw_view v, out;
	char id[TW_TICKET_ID_LEN];

	tw_judge_defaults(&c);
	make_view(&v, 1500, 64);
	tw_ticket_id(id, TW_SYM_CGROUP_CACHE_BOUNDED, "nginx.service", "MemoryHigh");
	raise_on_third(&t, &c, &v, 2000, 1, "nginx.service", id, &out);
	ck_assert_str_eq(out.findings[0].symptom, "cgroup-cache-bounded");
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
	tcase_add_test(tc, test_host_and_service_differ);
	tcase_add_test(tc, test_ticket_not_a_unit);
	tcase_add_test(tc, test_tracked);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
