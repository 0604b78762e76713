/* SPDX-License-Identifier: ISC */
/* Unit tests for the findings on a service whose cache is bounded by its
 * own limit: judged as check_bufcache --cgroup judges it
 * (lib/finding/judge_cgroup.c), raised by the tracker after raise_after
 * samples with the cgroup's directory as its subject and the id
 * tw_ticket_id gives for the same symptom, subject and knob; the ticket's
 * lines for each kind of owner; two cgroups of one unit name at two
 * places are two findings. */
#include "config.h"

#include <stdint.h>

#include "advice/ticket.h"
#include "finding/judge.h"
#include "finding/observe.h"
#include "finding/tracker.h"
#include "tw_check.h"
#include "tw_findings.h"
#include "util/error.h"
#include "view/record_cgroup.h"
#include "view/view.h"

#define MIB 1048576ULL
#define NGINX "/sys/fs/cgroup/system.slice/nginx.service"

/* nginx.service refaulting refaults pages/s with memory usage_mib of its
 * memory.high of 64 MiB, all but 8 MiB of it page cache, reading a file
 * set of 256 MiB, on a host of 4 GiB. */
static void
make_view(struct tw_view *v, unsigned refaults, unsigned usage_mib)
{
	struct tw_view_cgroup *c;

	tw_view_init(v);
	TW_PUT_CELL(v->bc, TW_OID_BC_MEM_TOTAL, 4096 * MIB);
	ck_assert_int_eq(tw_view_reserve_cgroups(v, 1), TW_OK);
	c = &v->cgroups[0];
	memset(c, 0, sizeof(*c));
	c->index = 1;
	strcpy(c->path, "/system.slice/nginx.service");
	strcpy(c->unit, "nginx.service");
	strcpy(c->limit_name, "memory.high");
	TW_PUT_CELL(*c, TW_OID_CGROUP_VERSION, 2);
	TW_PUT_CELL(*c, TW_OID_CGROUP_MEMORY_USAGE, usage_mib * MIB);
	TW_PUT_CELL(*c, TW_OID_CGROUP_CACHE_BYTES, (usage_mib > 8 ? usage_mib - 8 : 0) * MIB);
	TW_PUT_CELL(*c, TW_OID_CGROUP_FILESET_BYTES, 256 * MIB);
	TW_PUT_CELL(*c, TW_OID_CGROUP_MEMORY_LIMIT, 64 * MIB);
	TW_PUT_CELL(*c, TW_OID_CGROUP_REFAULT_RATE, (uint64_t)refaults * 100);	/* hundredths */
	v->ncgroups = 1;
}

/* Row c's record, as the checks and tunewatchd judge it. */
static const struct tw_cgroup_record *
record(const struct tw_view_cgroup *c)
{
	static struct tw_cgroup_record f;

	tw_view_cgroup_record(c, &f);
	return &f;
}

START_TEST(test_judge)
{
	struct tw_judge_config c;
	struct tw_view v;
	char name[300];

	tw_judge_defaults(&c);
	/* check_bufcache --cgroup's defaults: 100 and 1000 refaults/s. */
	make_view(&v, 50, 64);
	ck_assert_int_eq(tw_judge_cgroup(&c.cg_refault_warn, &c.cg_refault_crit, &c.cg_psi_warn,
	    &c.cg_psi_crit, record(&v.cgroups[0])), TW_STATE_OK);
	v.cgroups[0].col[TW_OID_CGROUP_REFAULT_RATE] = 500 * 100;
	ck_assert_int_eq(tw_judge_cgroup(&c.cg_refault_warn, &c.cg_refault_crit, &c.cg_psi_warn,
	    &c.cg_psi_crit, record(&v.cgroups[0])), TW_STATE_WARNING);
	v.cgroups[0].col[TW_OID_CGROUP_REFAULT_RATE] = 1500 * 100;
	ck_assert_int_eq(tw_judge_cgroup(&c.cg_refault_warn, &c.cg_refault_crit, &c.cg_psi_warn,
	    &c.cg_psi_crit, record(&v.cgroups[0])), TW_STATE_CRITICAL);
	tw_judge_cgroup_name(v.cgroups[0].path, name, sizeof(name));
	ck_assert_str_eq(name, "nginx.service");
	/* A cgroup below the unit's is named by its path. */
	strcpy(v.cgroups[0].path, "/system.slice/nginx.service/worker");
	ck_assert_ptr_null(tw_judge_cgroup_unit(v.cgroups[0].path));
	tw_judge_cgroup_name(v.cgroups[0].path, name, sizeof(name));
	ck_assert_str_eq(name, "/system.slice/nginx.service/worker");
	/* The path decides, not what twCgroupUnit said. */
	strcpy(v.cgroups[0].path, "/twhostile/nginx.service");
	ck_assert_ptr_null(tw_judge_cgroup_unit(v.cgroups[0].path));
	tw_view_free(&v);
}
END_TEST

START_TEST(test_observe_at_limit)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s;
	const struct tw_finding *o;
	char id[TW_TICKET_ID_LEN];

	tw_judge_defaults(&c);
	make_view(&v, 1500, 64);
	/* Its own symptom: not the host's low-hit-refaults, whose id it had. */
	o = observe_one(&s, &c, &v, TW_SYM_CGROUP_CACHE_BOUNDED, TW_STATE_CRITICAL, NGINX,
	    "MemoryHigh");
	ck_assert_str_eq(o->owner, "system unit nginx.service");
	ck_assert_str_eq(o->tunable, "MemoryHigh");
	ck_assert_str_eq(o->current, "64M");
	/* (8 MiB not cache + a file set of 256 MiB) * 1.25 = 330, whatever
	 * the window. */
	ck_assert_str_eq(o->suggested, "330M");
	ck_assert_str_eq(o->apply, "systemctl set-property --runtime nginx.service MemoryHigh=330M");
	ck_assert_str_eq(o->persist,
	    "/etc/systemd/system/nginx.service.d/90-tunewatch.conf: [Service] MemoryHigh=330M");
	ck_assert_str_eq(o->evidence, "1500 refaults/s, memory 64 of 64 MiB (memory.high), "
	    "in the last 60 s (critical range 1000, refaults/s)");
	tw_ticket_id(id, TW_SYM_LOW_HIT_REFAULTS, NGINX, "MemoryHigh");
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
	TW_PUT_CELL(v.bc, TW_OID_BC_READ_HIT_RATIO, 6000);
	TW_PUT_CELL(v.bc, TW_OID_BC_PAGE_IN_RATE, 4000 * 100);
	TW_PUT_CELL(v.bc, TW_OID_BC_REFAULT_RATE, 800 * 100);
	TW_PUT_CELL(v.bc, TW_OID_BC_SWAP_TOTAL, 1024 * MIB);
	TW_PUT_CELL(v.bc, TW_OID_BC_SWAP_FREE, 512 * MIB);
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
	ck_assert_str_eq(s.o[service].subject, NGINX);
	ck_assert_str_eq(s.o[host].owner, "");
	ck_assert_str_ne(s.o[host].id, s.o[service].id);
	ck_assert_str_ne(tw_symptom_name(s.o[host].sym), tw_symptom_name(s.o[service].sym));
	tw_view_free(&v);
}
END_TEST

/* The ticket of evidence e with the cgroup at path, on cgroup version. */
static void
ticket_at(struct tw_view *v, const char *path, int version, struct tw_advice_cgroup_evidence *e,
    struct tw_finding *t)
{
	strcpy(v->cgroups[0].path, path);
	v->cgroups[0].col[TW_OID_CGROUP_VERSION] = (uint64_t)version;
	strcpy(v->cgroups[0].limit_name, version == 1 ? "memory.limit_in_bytes" : "memory.high");
	tw_judge_cgroup_evidence(v, record(&v->cgroups[0]), 60, e);
	tw_judge_cgroup_finding(e, t);
}

/* A cgroup below a unit's (or a container's) is a plain cgroup: its own
 * file is written, and nothing persists it. */
START_TEST(test_ticket_plain_cgroup)
{
	struct tw_advice_cgroup_evidence e;
	struct tw_finding t;
	struct tw_view v;
	char id[TW_TICKET_ID_LEN];

	make_view(&v, 1500, 64);
	ticket_at(&v, "/system.slice/docker-4f1c.scope/app", 2, &e, &t);
	ck_assert_int_eq(t.sym, TW_SYM_CGROUP_CACHE_BOUNDED);
	ck_assert_str_eq(t.subject, "/sys/fs/cgroup/system.slice/docker-4f1c.scope/app");
	ck_assert_str_eq(t.owner, "plain cgroup below system unit docker-4f1c.scope, no systemd "
	    "unit's own");
	ck_assert_str_eq(t.tunable, "memory.high");
	ck_assert_str_eq(t.suggested, "330M");
	ck_assert_str_eq(t.apply,
	    "echo 346030080 > /sys/fs/cgroup/system.slice/docker-4f1c.scope/app/memory.high");
	ck_assert_ptr_null(t.no_apply);
	ck_assert_str_eq(t.persist, "");
	ck_assert_ptr_nonnull(t.no_persist);
	ck_assert_ptr_nonnull(strstr(t.no_persist, "nothing keeps a plain cgroup's limit"));
	tw_ticket_id(id, TW_SYM_CGROUP_CACHE_BOUNDED, t.subject, "memory.high");
	ck_assert_str_eq(t.id, id);

	/* On v1, below the memory controller's mount. */
	ticket_at(&v, "/twhostile/system.slice", 1, &e, &t);
	ck_assert_str_eq(t.subject, "/sys/fs/cgroup/memory/twhostile/system.slice");
	ck_assert_str_eq(t.tunable, "memory.limit_in_bytes");
	ck_assert_str_eq(t.apply,
	    "echo 346030080 > /sys/fs/cgroup/memory/twhostile/system.slice/memory.limit_in_bytes");
	ck_assert_ptr_null(strstr(t.apply, "systemctl"));
	ck_assert_str_eq(t.owner, "plain cgroup, no systemd unit's own: not where systemd puts a "
	    "unit");

	/* A path a shell would read otherwise: no command, and why. */
	ticket_at(&v, "/system.slice/a;reboot.service", 2, &e, &t);
	ck_assert_str_eq(t.subject, "/sys/fs/cgroup/system.slice/a;reboot.service");
	ck_assert_str_eq(t.apply, "");
	ck_assert_ptr_nonnull(strstr(t.no_apply, "unsafe"));
	ck_assert_ptr_nonnull(t.no_persist);
	ticket_at(&v, "/twhostile/x'$(reboot)", 1, &e, &t);
	ck_assert_str_eq(t.apply, "");
	ck_assert_ptr_nonnull(strstr(t.no_apply, "unsafe"));
	tw_view_free(&v);

	/* Below its limit: the host's symptom, no knob, no lines. */
	make_view(&v, 1500, 10);
	ticket_at(&v, "/twhostile/system.slice", 1, &e, &t);
	ck_assert_int_eq(t.sym, TW_SYM_LOW_HIT_REFAULTS);
	ck_assert_str_eq(t.tunable, "");
	ck_assert_str_eq(t.apply, "");
	ck_assert_ptr_null(t.no_apply);
	ck_assert_ptr_null(t.no_persist);
	tw_view_free(&v);
}
END_TEST

/* A system unit's own cgroup: systemctl and a drop-in; a scope has no
 * file; a name unsafe in a shell gets no command at all. */
START_TEST(test_ticket_system_unit)
{
	struct tw_advice_cgroup_evidence e;
	struct tw_finding t;
	struct tw_view v;

	make_view(&v, 1500, 64);
	ticket_at(&v, "/system.slice/nginx.service", 1, &e, &t);
	ck_assert_str_eq(t.subject, "/sys/fs/cgroup/memory/system.slice/nginx.service");
	ck_assert_str_eq(t.owner, "system unit nginx.service");
	ck_assert_str_eq(t.apply, "systemctl set-property --runtime nginx.service MemoryLimit=330M");
	ck_assert_str_eq(t.persist,
	    "/etc/systemd/system/nginx.service.d/90-tunewatch.conf: [Service] MemoryLimit=330M");

	ticket_at(&v, "/system.slice/docker-4f1c.scope", 2, &e, &t);
	ck_assert_str_eq(t.apply,
	    "systemctl set-property --runtime docker-4f1c.scope MemoryHigh=330M");
	ck_assert_str_eq(t.persist, "");
	ck_assert_ptr_nonnull(strstr(t.no_persist, "scope"));

	/* systemd allows a backslash in a name (shown "\x5c"); a shell must
	 * not see it bare. */
	ticket_at(&v, "/system.slice/a\\x5cnreboot.service", 2, &e, &t);
	ck_assert_str_eq(t.owner, "system unit a\\x5cnreboot.service");
	ck_assert_str_eq(t.apply, "");
	ck_assert_str_eq(t.persist, "");
	ck_assert_ptr_nonnull(strstr(t.no_apply, "unsafe"));
	tw_view_free(&v);
}
END_TEST

/* A unit of a user's manager: that user's systemctl on cgroup v2, none on
 * v1 (the user's manager has no memory controller there). */
START_TEST(test_ticket_user_unit)
{
	struct tw_advice_cgroup_evidence e;
	struct tw_finding t;
	struct tw_view v;

	make_view(&v, 1500, 64);
	ticket_at(&v, "/user.slice/user-1000.slice/user@1000.service/app.slice/web.service", 2,
	    &e, &t);
	ck_assert_str_eq(t.owner, "unit web.service of user 1000's manager (user@1000.service)");
	ck_assert_str_eq(t.tunable, "MemoryHigh");
	ck_assert_str_eq(t.apply,
	    "systemctl --user -M 1000@ set-property --runtime web.service MemoryHigh=330M");
	ck_assert_str_eq(t.persist, "~/.config/systemd/user/web.service.d/90-tunewatch.conf (in "
	    "the home of user 1000): [Service] MemoryHigh=330M");

	ticket_at(&v, "/user.slice/user-1000.slice/user@1000.service/app.slice/web.service", 1,
	    &e, &t);
	ck_assert_str_eq(t.tunable, "MemoryLimit");
	ck_assert_str_eq(t.apply, "");
	ck_assert_str_eq(t.persist, "");
	ck_assert_ptr_nonnull(strstr(t.no_apply, "cgroup v1"));
	ck_assert_ptr_nonnull(strstr(t.no_persist, "cgroup v1"));

	/* The UIDs disagree: no one's unit, and no systemctl for anyone. */
	ticket_at(&v, "/user.slice/user-1000.slice/user@0.service/app.slice/sshd.service", 2, &e,
	    &t);
	ck_assert_ptr_null(strstr(t.apply, "systemctl"));
	ck_assert_str_eq(t.apply, "echo 346030080 > /sys/fs/cgroup/user.slice/user-1000.slice/"
	    "user@0.service/app.slice/sshd.service/memory.high");
	tw_view_free(&v);
}
END_TEST

/* A victim's /twvictim/web.service and an attacker's
 * /twhostile/web.service: two findings, two ids, two rows, each with its
 * own figures; neither gets a command for web.service. */
START_TEST(test_same_unit_name_two_findings)
{
	struct tw_judge_config c;
	struct tw_tracker t;
	struct tw_view v, out;
	struct seen s = { .n = 0 };
	char victim[TW_TICKET_ID_LEN], hostile[TW_TICKET_ID_LEN];
	int i;

	tw_judge_defaults(&c);
	make_view(&v, 1500, 48);
	ck_assert_int_eq(tw_view_reserve_cgroups(&v, 2), TW_OK);
	v.cgroups[0].col[TW_OID_CGROUP_MEMORY_LIMIT] = 48 * MIB;
	v.cgroups[1] = v.cgroups[0];
	v.cgroups[1].index = 2;
	v.cgroups[1].col[TW_OID_CGROUP_MEMORY_USAGE] = 8 * MIB;
	v.cgroups[1].col[TW_OID_CGROUP_MEMORY_LIMIT] = 8 * MIB;
	v.cgroups[1].col[TW_OID_CGROUP_CACHE_BYTES] = 4 * MIB;
	v.cgroups[1].col[TW_OID_CGROUP_FILESET_BYTES] = 4096 * MIB;
	v.ncgroups = 2;
	strcpy(v.cgroups[0].path, "/twvictim/web.service");
	strcpy(v.cgroups[1].path, "/twhostile/web.service");
	for (i = 0; i < 2; i++) {
		v.cgroups[i].col[TW_OID_CGROUP_VERSION] = 1;
		strcpy(v.cgroups[i].limit_name, "memory.limit_in_bytes");
	}
	ck_assert_int_eq(tw_observe(&c, &v, 60, TW_OS_LINUX, collect, &s), 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_str_eq(s.o[0].subject, "/sys/fs/cgroup/memory/twvictim/web.service");
	ck_assert_str_eq(s.o[1].subject, "/sys/fs/cgroup/memory/twhostile/web.service");
	tw_ticket_id(victim, TW_SYM_CGROUP_CACHE_BOUNDED, s.o[0].subject, "memory.limit_in_bytes");
	tw_ticket_id(hostile, TW_SYM_CGROUP_CACHE_BOUNDED, s.o[1].subject,
	    "memory.limit_in_bytes");
	ck_assert_str_eq(s.o[0].id, victim);
	ck_assert_str_eq(s.o[1].id, hostile);
	ck_assert_str_ne(victim, hostile);
	/* Each sized from its own figures: the victim's file set with
	 * headroom ((8 + 256) * 1.25), the attacker's 4 GiB capped at 16
	 * times its 8 MiB. */
	ck_assert_str_eq(s.o[0].suggested, "330M");
	ck_assert_str_eq(s.o[1].suggested, "128M");
	for (i = 0; i < 2; i++) {
		ck_assert_ptr_null(strstr(s.o[i].apply, "systemctl"));
		ck_assert_ptr_nonnull(strstr(s.o[i].owner, "plain cgroup"));
	}
	ck_assert_str_eq(s.o[1].apply,
	    "echo 134217728 > /sys/fs/cgroup/memory/twhostile/web.service/memory.limit_in_bytes");

	/* Both raised, both published, each with its own suggestion. */
	tw_view_init(&out);
	ck_assert_int_eq(tw_tracker_init(&t, 3, 3), TW_OK);
	for (i = 0; i < 3; i++)
		ck_assert_uint_eq(feed_tracker(&t, &c, &v, 100 + (uint64_t)i), i < 2 ? 0 : 2);
	ck_assert_int_eq(publish_findings(&t, &out), TW_OK);
	ck_assert_uint_eq(out.nfindings, 2);
	ck_assert_str_eq(out.findings[0].id, victim);
	ck_assert_str_eq(out.findings[0].suggested, "330M");
	ck_assert_str_eq(out.findings[1].id, hostile);
	ck_assert_str_eq(out.findings[1].suggested, "128M");
	tw_tracker_free(&t);
	tw_view_free(&v);
	tw_view_free(&out);
}
END_TEST

/* Well below its limit: the host's memory bounds it, a finding with no
 * knob, still about the service. */
START_TEST(test_observe_below_limit)
{
	struct tw_judge_config c;
	struct tw_view v;
	struct seen s;
	const struct tw_finding *o;

	tw_judge_defaults(&c);
	make_view(&v, 500, 10);
	o = observe_one(&s, &c, &v, TW_SYM_LOW_HIT_REFAULTS, TW_STATE_WARNING, NGINX, "");
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
	tw_ticket_id(id, TW_SYM_CGROUP_CACHE_BOUNDED, NGINX, "MemoryHigh");
	raise_on_third(&t, &c, &v, 2000, 1, NGINX, id, &out);
	ck_assert_str_eq(out.findings[0].symptom, "cgroup-cache-bounded");
	ck_assert_str_eq(out.findings[0].owner, "system unit nginx.service");
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
	tcase_add_test(tc, test_ticket_plain_cgroup);
	tcase_add_test(tc, test_ticket_system_unit);
	tcase_add_test(tc, test_ticket_user_unit);
	tcase_add_test(tc, test_same_unit_name_two_findings);
	tcase_add_test(tc, test_tracked);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
