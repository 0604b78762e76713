/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/advice/advice.c, value.c and rules.c: the table's
 * shape, every rule exercised, each system's names and exact suggestion
 * texts. The arithmetic of the suggestions (doubling, vectors, bounds,
 * units) is in check_advice_values.c. */
#include "tw_advice_fake.h"

#include "collect/blockqueue.h"

/* ---- The table */

START_TEST(test_table_shape)
{
	const struct tw_advice_rule *all, *r;
	size_t nall, total = 0, n, i;
	int sym, os;

	nall = tw_advice_all(&all);
	ck_assert_uint_gt(nall, 0);
	for (sym = 0; sym < TW_SYM_COUNT; sym++) {
		n = tw_advice_rules((enum tw_symptom)sym, &r);
		ck_assert_ptr_nonnull(tw_advice_symptom_name((enum tw_symptom)sym));
		/* A unit's memory limit is no sysctl: advice/advice_cgroup.c advises. */
		if (sym == TW_SYM_CGROUP_CACHE_BOUNDED) {
			ck_assert_uint_eq(n, 0);
			continue;
		}
		ck_assert_msg(n >= 1, "symptom %s has no rule",
		    tw_advice_symptom_name((enum tw_symptom)sym));
		for (i = 0; i < n; i++)
			ck_assert_int_eq(r[i].sym, sym);
		/* The slice really is in the table. */
		ck_assert(r >= all && r + n <= all + nall);
		total += n;
	}
	/* Ordered by symptom: the slices cover the whole table. */
	ck_assert_uint_eq(total, nall);
	ck_assert_uint_eq(tw_advice_rules(TW_SYM_COUNT, &r), 0);
	ck_assert_ptr_null(r);
	ck_assert_uint_eq(tw_advice_rules((enum tw_symptom)-1, &r), 0);
	ck_assert_ptr_null(tw_advice_symptom_name(TW_SYM_COUNT));

	for (i = 0; i < nall; i++) {
		int named = 0;

		ck_assert(all[i].reason != NULL && all[i].reason[0] != '\0');
		ck_assert_ptr_null(strchr(all[i].reason, '\n'));
		for (os = 0; os < TW_OS_COUNT; os++) {
			const struct tw_advice_action *a = &all[i].os[os];

			ck_assert_ptr_eq(tw_advice_name(&all[i], (enum tw_os)os), a->name);
			if (a->name == NULL)
				continue;
			named = 1;
			ck_assert_msg(a->source != NULL && a->source[0] != '\0',
			    "%s has no source", a->name);
			ck_assert(a->min >= 0 && a->max >= 0);
			ck_assert(a->max == 0 || a->max > a->min);
			if (a->op == TW_ADV_DOUBLE)
				ck_assert_int_eq(a->dir, TW_ADV_UP);
			if (a->op == TW_ADV_HALVE)
				ck_assert_int_eq(a->dir, TW_ADV_DOWN);
			if (a->op == TW_ADV_SET_WORD)
				ck_assert(a->dir == TW_ADV_SET && a->set_word != NULL);
			if (a->flags & TW_ADV_ZERO_OFF)
				ck_assert_ptr_nonnull(a->enable);
			if (a->twin != NULL) {
				ck_assert(a->flags & (TW_ADV_TWIN_IF_SET | TW_ADV_TWIN_IF_ZERO));
				ck_assert_int_eq(a->twin->op, a->op);
				ck_assert_ptr_null(a->twin->twin);
			}
			if (os != TW_OS_LINUX)
				ck_assert_msg(a->field == 0, "%s: only Linux has vectors",
				    a->name);
		}
		ck_assert_msg(named, "rule %zu names no tunable anywhere", i);
	}
	ck_assert_ptr_null(tw_advice_name(&all[0], TW_OS_COUNT));
	ck_assert_ptr_null(tw_advice_name(NULL, TW_OS_LINUX));
}
END_TEST

/* Every Linux name is a per-device queue attribute or a sysctl that the
 * agent reads (lib/collect/sysctl.h): otherwise no value could ever be looked up. */

START_TEST(test_linux_names_known)
{
	const struct tw_advice_rule *all;
	size_t nall = tw_advice_all(&all), i;

	for (i = 0; i < nall; i++) {
		const struct tw_advice_action *a = &all[i].os[TW_OS_LINUX];
		const struct tw_advice_action *names[2] = { a, a->twin };
		size_t k;

		if (a->name == NULL)
			continue;
		for (k = 0; k < 2 && names[k] != NULL; k++) {
			const char *n = names[k]->name;

			if (tw_queue_attr(n) != NULL) {
				ck_assert_msg(names[k]->flags & TW_ADV_PER_DEVICE,
				    "%s is per device", n);
				continue;
			}
			ck_assert_msg(tw_sysctl_lookup(n) >= 0, "%s is not in lib/collect/sysctl.h", n);
			ck_assert(!(names[k]->flags & TW_ADV_PER_DEVICE));
		}
	}
}
END_TEST

/* Each rule, on each system where it names a tunable, with a plausible
 * current value: a suggestion that moves the value the rule's way. */

START_TEST(test_every_rule)
{
	static const struct kv values[] = {
		{ "queue/scheduler", "[kyber] mq-deadline bfq none" },
		{ "queue/read_ahead_kb", "4096" },
		{ "kern.hz", "100" },				/* set 1000 */
		{ "vm.dirty_background_bytes", "0" },
		{ "vm.dirty_bytes", "0" },
		/* The raising rules move to these ratios, at most 100. */
		{ "vm.dirty_ratio", "20" },
		{ "vm.dirty_background_ratio", "10" },
		{ "vm.watermark_scale_factor", "100" },		/* max 1000 */
		{ "vm.swappiness", "40" },			/* max 100 */
		{ "vm.min_free_kbytes", "67584" },		/* max 262144 */
		{ "net.core.somaxconn", "4096" },		/* max 65535 */
		{ "kern.ipc.soacceptqueue", "1024" },		/* max 65535 */
		{ "kern.polling.burst_max", "150" },		/* max 1000 */
		{ "net.isr.maxqlimit", "10240" },
		{ "net.isr.defaultqlimit", "256" },
		{ "net.inet.ip.intr_queue_maxlen", "256" },
		{ "vfs.lorunningspace", "1000000" },
		{ "NBUF", "1000" },				/* max 450000 */
		{ NULL, NULL },
	};
	/* Room to double, and above every halving floor (1 MiB at most). */
	struct env e = { values, "4000000", "1000 2000 3000" };
	const struct tw_advice_rule *all;
	size_t nall = tw_advice_all(&all), i, exercised = 0;
	int os;

	for (i = 0; i < nall; i++) {
		for (os = 0; os < TW_OS_COUNT; os++) {
			const struct tw_advice_action *a = &all[i].os[os];
			struct tw_suggestion s;
			char line[1024];
			int64_t cur, next;

			if (a->name == NULL) {
				ck_assert_int_eq(tw_advice_suggest(&all[i], (enum tw_os)os,
				    fake_lookup, &e, &s), TW_E_ABSENT);
				continue;
			}
			ck_assert_int_eq(tw_advice_suggest(&all[i], (enum tw_os)os, fake_lookup,
			    &e, &s), TW_OK);
			ck_assert_ptr_eq(s.rule, &all[i]);
			ck_assert_int_eq(s.os, os);
			/* A ratio/bytes rule may move to its twin. */
			ck_assert(s.action == a || (a->twin != NULL && s.action == a->twin));
			a = s.action;
			ck_assert_str_eq(s.name, a->name);
			ck_assert_msg(!(s.flags & (TW_SUG_CURRENT_UNKNOWN | TW_SUG_AT_LIMIT |
			    TW_SUG_NO_CHANGE)), "%s: flags %#x", a->name, s.flags);
			ck_assert_msg(s.proposed[0] != '\0', "%s: nothing proposed", a->name);
			ck_assert_int_eq(tw_advice_format(&s, NULL, line, sizeof(line)), TW_OK);
			ck_assert(strncmp(line, a->name, strlen(a->name)) == 0);
			ck_assert_ptr_nonnull(strstr(line, all[i].reason));
			ck_assert_ptr_nonnull(strstr(line, a->source));
			ck_assert_int_eq((s.flags & TW_SUG_PER_DEVICE) != 0,
			    (a->flags & TW_ADV_PER_DEVICE) != 0);
			ck_assert_int_eq((s.flags & TW_SUG_NEEDS_REBOOT) != 0,
			    (a->flags & (TW_ADV_BOOT | TW_ADV_RELINK)) != 0);
			if (os == TW_OS_SVR4)
				ck_assert(s.flags & TW_SUG_RELINK);
			exercised++;
			if (a->op == TW_ADV_SET_WORD) {
				ck_assert_str_eq(s.current, "kyber");
				ck_assert_str_eq(s.proposed, a->set_word);
				continue;
			}
			if (a->field != 0) {
				/* Vectors: 1000 2000 3000. */
				ck_assert_str_eq(s.current, "1000 2000 3000");
				ck_assert_str_eq(s.proposed, a->field == TW_ADV_ALL_FIELDS ?
				    "2000 4000 6000" : "1000 2000 6000");
				continue;
			}
			ck_assert_int_eq(sscanf(s.current, "%" SCNd64, &cur), 1);
			ck_assert_int_eq(sscanf(s.proposed, "%" SCNd64, &next), 1);
			switch (a->op) {
			case TW_ADV_DOUBLE:
				ck_assert_int_eq(next, cur * 2);
				break;
			case TW_ADV_HALVE:
				ck_assert_int_eq(next, cur / 2 < a->min ? a->min : cur / 2);
				break;
			case TW_ADV_SET_NUM:
				ck_assert_int_eq(next, a->set_num);
				break;
			case TW_ADV_SET_WORD:
				break;
			}
		}
	}
	ck_assert_uint_ge(exercised, nall);
}
END_TEST

START_TEST(test_names_per_system)
{
	const struct tw_advice_rule *r;

	r = rule(TW_SYM_SOFTNET_DROPS, 0);
	ck_assert_str_eq(tw_advice_name(r, TW_OS_LINUX), "net.core.netdev_max_backlog");
	ck_assert_str_eq(tw_advice_name(r, TW_OS_FREEBSD), "net.isr.defaultqlimit");
	ck_assert_ptr_null(tw_advice_name(r, TW_OS_SVR4));

	r = rule(TW_SYM_MBUF_DENIED, 0);
	ck_assert_ptr_null(tw_advice_name(r, TW_OS_LINUX));
	ck_assert_str_eq(tw_advice_name(r, TW_OS_FREEBSD), "kern.ipc.nmbclusters");
	ck_assert_str_eq(tw_advice_name(r, TW_OS_SVR4), "NBLKnnnn");
	ck_assert_str_eq(tw_advice_name(rule(TW_SYM_MBUF_DENIED, 1), TW_OS_SVR4), "NSTRPAGES");
	ck_assert_str_eq(tw_advice_name(rule(TW_SYM_TCP_MEM, 0), TW_OS_FREEBSD),
	    "kern.ipc.nmbclusters");
	ck_assert_str_eq(tw_advice_name(rule(TW_SYM_HIGHORDER_FAIL, 0), TW_OS_SVR4), "NBLKnnnn");

	ck_assert_str_eq(tw_advice_name(rule(TW_SYM_LOW_HIT_REFAULTS, 0), TW_OS_LINUX),
	    "vm.swappiness");
	ck_assert_ptr_null(tw_advice_name(rule(TW_SYM_LOW_HIT_REFAULTS, 1), TW_OS_FREEBSD));
	ck_assert_str_eq(tw_advice_name(rule(TW_SYM_LOW_HIT_REFAULTS, 1), TW_OS_SVR4), "NBUF");
	ck_assert_str_eq(tw_advice_name(rule(TW_SYM_LOW_HIT_REFAULTS, 2), TW_OS_SVR4), "NHBUF");
	ck_assert_str_eq(tw_advice_name(rule(TW_SYM_METADATA_CHURN, 1), TW_OS_SVR4), "NINODE");

	r = rule(TW_SYM_DIRTY_BURST, 0);
	ck_assert_str_eq(tw_advice_name(r, TW_OS_LINUX), "vm.dirty_background_ratio");
	ck_assert_str_eq(tw_advice_name(r, TW_OS_FREEBSD), "vfs.hirunningspace");
	ck_assert_str_eq(tw_advice_name(r, TW_OS_SVR4), "NAUTOUP");
	ck_assert_str_eq(tw_advice_name(rule(TW_SYM_DIRTY_BURST, 1), TW_OS_SVR4), "BDFLUSHR");
	ck_assert_str_eq(tw_advice_name(rule(TW_SYM_QUEUE_FULL, 0), TW_OS_FREEBSD),
	    "vfs.hirunningspace");
	ck_assert_str_eq(tw_advice_name(rule(TW_SYM_QUEUE_FULL, 0), TW_OS_LINUX),
	    "queue/nr_requests");
	ck_assert_str_eq(tw_advice_name(rule(TW_SYM_READ_LATENCY_QUEUE, 0), TW_OS_LINUX),
	    "queue/scheduler");
	ck_assert_str_eq(tw_advice_name(rule(TW_SYM_LISTEN_OVERFLOW, 0), TW_OS_FREEBSD),
	    "kern.ipc.soacceptqueue");
}
END_TEST

/* ---- Other systems, and the line when the buffer is too small */

START_TEST(test_other_systems)
{
	static const struct kv bsd[] = {
		{ "kern.ipc.nmbclusters", "262144" }, { "vfs.hirunningspace", "16777216" },
		{ "vfs.lorunningspace", "11206656" }, { "net.isr.defaultqlimit", "256" },
		{ NULL, NULL },
	};
	static const struct kv bsd_low[] = {
		{ "vfs.hirunningspace", "1048576" }, { NULL, NULL },
	};
	static const struct kv sco[] = {
		{ "NBUF", "250" }, { "NHBUF", "64" }, { "NBLKnnnn", "32" }, { "NAUTOUP", "10" },
		{ NULL, NULL },
	};
	struct tw_suggestion s;
	char line[256];

	/* Raised at run time (kern_mbuf.c), not only at boot. */
	ck_assert_str_eq(advise(TW_SYM_MBUF_DENIED, 0, TW_OS_FREEBSD, bsd,
	    "1024 requests for mbufs denied", &s),
	    "kern.ipc.nmbclusters 262144 -> 524288 (1024 requests for mbufs denied; "
	    "tuning(7))");
	ck_assert_uint_eq(s.flags, 0);
	advise(TW_SYM_SOFTNET_DROPS, 0, TW_OS_FREEBSD, bsd, "q", &s);
	ck_assert_str_eq(s.proposed, "512");
	ck_assert_uint_eq(s.flags, TW_SUG_NEEDS_REBOOT);
	/* Never below lorunningspace, which vfs_bio.c would refuse. */
	ck_assert_str_eq(advise(TW_SYM_DIRTY_BURST, 0, TW_OS_FREEBSD, bsd, "reads wait", &s),
	    "vfs.hirunningspace 16777216 -> 11206656 (reads wait; vfs_bio.c)");
	advise(TW_SYM_QUEUE_FULL, 0, TW_OS_FREEBSD, bsd_low, "q", &s);
	ck_assert_uint_eq(s.flags, TW_SUG_AT_LIMIT);
	ck_assert_int_eq(s.limit, 1048576);

	/* The documented 386/ix change went 250/64 -> 1000/512: one doubling
	 * at a time, and watch. */
	ck_assert_str_eq(advise(TW_SYM_LOW_HIT_REFAULTS, 1, TW_OS_SVR4, sco, "hit 62%", &s),
	    "NBUF 250 -> 500 (hit 62%; needs a kernel relink and a reboot; "
	    "SCO OpenServer Performance Guide)");
	ck_assert_uint_eq(s.flags, TW_SUG_NEEDS_REBOOT | TW_SUG_RELINK);
	advise(TW_SYM_LOW_HIT_REFAULTS, 2, TW_OS_SVR4, sco, NULL, &s);
	ck_assert_str_eq(s.current, "64");
	ck_assert_str_eq(s.proposed, "128");
	ck_assert_str_eq(advise(TW_SYM_MBUF_DENIED, 0, TW_OS_SVR4, sco, "NBLK4096 fail 17", &s),
	    "NBLKnnnn 32 -> 64 (NBLK4096 fail 17; nnnn is the failing block size; "
	    "needs a kernel relink and a reboot; SCO OpenServer Performance Guide)");
	advise(TW_SYM_DIRTY_BURST, 0, TW_OS_SVR4, sco, NULL, &s);
	ck_assert_str_eq(s.proposed, "5");

	/* Nothing to turn there. */
	ck_assert_int_eq(tw_advice_suggest(rule(TW_SYM_SOFTNET_DROPS, 0), TW_OS_SVR4, fake_lookup,
	    NULL, &s), TW_E_ABSENT);
	ck_assert_int_eq(tw_advice_suggest(rule(TW_SYM_MBUF_DENIED, 0), TW_OS_LINUX, fake_lookup,
	    NULL, &s), TW_E_ABSENT);
	ck_assert_int_eq(tw_advice_suggest(rule(TW_SYM_MBUF_DENIED, 0), TW_OS_COUNT, NULL, NULL,
	    &s), TW_E_INVAL);
	ck_assert_int_eq(tw_advice_suggest(NULL, TW_OS_LINUX, NULL, NULL, &s), TW_E_INVAL);
	ck_assert_int_eq(tw_advice_suggest(rule(TW_SYM_MBUF_DENIED, 0), TW_OS_LINUX, NULL, NULL,
	    NULL), TW_E_INVAL);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(tw_advice_format(&s, NULL, line, sizeof(line)), TW_E_INVAL);
}
END_TEST

START_TEST(test_format_too_small)
{
	static const struct kv kv[] = {
		{ "net.core.netdev_max_backlog", "1000" }, { NULL, NULL },
	};
	const char *want = "net.core.netdev_max_backlog 1000 -> 2000 (d; "
	    "Documentation/admin-guide/sysctl/net.rst)";
	struct tw_suggestion s;
	char line[128];

	advise(TW_SYM_SOFTNET_DROPS, 0, TW_OS_LINUX, kv, "d", &s);
	ck_assert_int_eq(tw_advice_format(&s, "d", line, strlen(want) + 1), TW_OK);
	ck_assert_str_eq(line, want);
	ck_assert_int_eq(tw_advice_format(&s, "d", line, strlen(want)), TW_E_TOOBIG);
	ck_assert_str_eq(line, "");
	ck_assert_int_eq(tw_advice_format(&s, "d", line, 0), TW_E_TOOBIG);
}
END_TEST

static Suite *
advice_suite(void)
{
	Suite *s = suite_create("advice");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_table_shape);
	tcase_add_test(tc, test_linux_names_known);
	tcase_add_test(tc, test_every_rule);
	tcase_add_test(tc, test_names_per_system);
	tcase_add_test(tc, test_other_systems);
	tcase_add_test(tc, test_format_too_small);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(advice_suite());
}
