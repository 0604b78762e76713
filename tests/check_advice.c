#include "config.h"

/* Unit tests for lib/advice/advice.c and lib/advice/rules.c: the table's shape,
 * every rule exercised, each system's names, and exact suggestion texts. */
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>

#include "advice/advice.h"
#include "collect/sysctl.h"
#include "tw_check.h"
#include "util/error.h"

/* ---- A fake tunable table for the lookup. */

struct kv {
	const char *name;
	const char *value;
};

struct env {
	const struct kv *kv;
	const char *fallback;		/* for any other name; may be NULL */
	const char *vector_fallback;	/* for the vector tunables */
};

static int
is_vector(const char *name)
{
	return strcmp(name, "net.ipv4.tcp_mem") == 0 || strcmp(name, "net.ipv4.tcp_rmem") == 0 ||
	    strcmp(name, "net.ipv4.tcp_wmem") == 0 || strcmp(name, "net.ipv4.udp_mem") == 0;
}

static const char *
fake_lookup(void *ctx, const char *name)
{
	const struct env *e = ctx;
	size_t i;

	for (i = 0; e->kv != NULL && e->kv[i].name != NULL; i++)
		if (strcmp(e->kv[i].name, name) == 0)
			return e->kv[i].value;
	return is_vector(name) ? e->vector_fallback : e->fallback;
}

static const struct tw_advice_rule *
rule(enum tw_symptom sym, size_t idx)
{
	const struct tw_advice_rule *r;
	size_t n = tw_advice_rules(sym, &r);

	ck_assert_msg(idx < n, "%s has only %zu rules", tw_advice_symptom_name(sym), n);
	return &r[idx];
}

/* Suggest on os with the given values and format with detail. */
static const char *
advise(enum tw_symptom sym, size_t idx, enum tw_os os, const struct kv *kv,
    const char *detail, struct tw_suggestion *s)
{
	static char line[1024];
	struct env e = { kv, NULL, NULL };

	ck_assert_int_eq(tw_advice_suggest(rule(sym, idx), os, fake_lookup, &e, s), TW_OK);
	ck_assert_int_eq(tw_advice_format(s, detail, line, sizeof(line)), TW_OK);
	return line;
}

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
		ck_assert_msg(n >= 1, "symptom %s has no rule",
		    tw_advice_symptom_name((enum tw_symptom)sym));
		ck_assert_ptr_nonnull(tw_advice_symptom_name((enum tw_symptom)sym));
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

			if (strncmp(n, "queue/", 6) == 0) {
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

/* ---- Exact suggestion texts */

START_TEST(test_double)
{
	static const struct kv kv[] = {
		{ "net.core.netdev_max_backlog", "1000" }, { NULL, NULL },
	};
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_SOFTNET_DROPS, 0, TW_OS_LINUX, kv,
	    "cpu1 dropped 152 packets in the last 60 s", &s),
	    "net.core.netdev_max_backlog 1000 -> 2000 (cpu1 dropped 152 packets in the last "
	    "60 s; Documentation/admin-guide/sysctl/net.rst)");
	ck_assert_str_eq(s.current, "1000");
	ck_assert_str_eq(s.proposed, "2000");
	ck_assert_uint_eq(s.flags, 0);
	/* Without a detail, the rule's reason. */
	ck_assert_str_eq(advise(TW_SYM_SOFTNET_DROPS, 0, TW_OS_LINUX, kv, "", &s),
	    "net.core.netdev_max_backlog 1000 -> 2000 (the per-CPU input queue overflowed "
	    "before the stack drained it; Documentation/admin-guide/sysctl/net.rst)");
}
END_TEST

START_TEST(test_double_saturates)
{
	static const struct kv big[] = {
		{ "net.core.netdev_max_backlog", "1500000000" }, { NULL, NULL },
	};
	static const struct kv top[] = {
		{ "net.core.netdev_max_backlog", "2147483647" }, { NULL, NULL },
	};
	static const struct kv huge[] = {
		{ "net.core.netdev_max_backlog", "9223372036854775807" }, { NULL, NULL },
	};
	static const struct kv wsf[] = {
		{ "vm.watermark_scale_factor", "600" }, { NULL, NULL },
	};
	static const struct kv wsf_top[] = {
		{ "vm.watermark_scale_factor", "1000" }, { NULL, NULL },
	};
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_SOFTNET_DROPS, 0, TW_OS_LINUX, big, "d", &s),
	    "net.core.netdev_max_backlog 1500000000 -> 2147483647 (d; capped at its maximum, "
	    "2147483647; Documentation/admin-guide/sysctl/net.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_SATURATED);
	ck_assert_int_eq(s.limit, INT_MAX);

	ck_assert_str_eq(advise(TW_SYM_SOFTNET_DROPS, 0, TW_OS_LINUX, top, "d", &s),
	    "net.core.netdev_max_backlog 2147483647 is already at its maximum (2147483647) "
	    "(d; Documentation/admin-guide/sysctl/net.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_AT_LIMIT);
	ck_assert_str_eq(s.proposed, "");
	/* INT64_MAX: no overflow, simply past the maximum. */
	advise(TW_SYM_SOFTNET_DROPS, 0, TW_OS_LINUX, huge, "d", &s);
	ck_assert_uint_eq(s.flags, TW_SUG_AT_LIMIT);
	ck_assert_str_eq(s.current, "9223372036854775807");

	/* A documented maximum. */
	ck_assert_str_eq(advise(TW_SYM_MEMORY_PRESSURE, 0, TW_OS_LINUX, wsf, "psi", &s),
	    "vm.watermark_scale_factor 600 -> 1000 (psi; capped at its maximum, 1000; "
	    "Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_str_eq(advise(TW_SYM_MEMORY_PRESSURE, 0, TW_OS_LINUX, wsf_top, "psi", &s),
	    "vm.watermark_scale_factor 1000 is already at its maximum (1000) (psi; "
	    "Documentation/admin-guide/sysctl/vm.rst)");
}
END_TEST

START_TEST(test_vectors)
{
	static const struct kv rmem[] = {
		{ "net.ipv4.tcp_rmem", "4096\t131072\t6291456" }, { NULL, NULL },
	};
	static const struct kv mem[] = {
		{ "net.ipv4.tcp_mem", "188163\t250884\t376326\n" }, { NULL, NULL },
	};
	static const struct kv udp_top[] = {
		{ "net.ipv4.udp_mem", "2147483647 1073741824 1073741823" }, { NULL, NULL },
	};
	static const struct kv short_rmem[] = {
		{ "net.ipv4.tcp_rmem", "4096 131072" }, { NULL, NULL },
	};
	struct tw_suggestion s;

	/* One field (the 3rd), tabs printed as single spaces. */
	ck_assert_str_eq(advise(TW_SYM_TCP_PRUNE, 0, TW_OS_LINUX, rmem, NULL, &s),
	    "net.ipv4.tcp_rmem 4096 131072 6291456 -> 4096 131072 12582912 (receive queues "
	    "were pruned to free memory: data was dropped and must be resent; "
	    "Documentation/networking/ip-sysctl.rst)");
	/* All fields. */
	ck_assert_str_eq(advise(TW_SYM_TCP_MEM, 0, TW_OS_LINUX, mem, "sockstat TCP mem 260000",
	    &s),
	    "net.ipv4.tcp_mem 188163 250884 376326 -> 376326 501768 752652 (sockstat TCP mem "
	    "260000; Documentation/networking/ip-sysctl.rst)");
	/* Each field saturates on its own; the order min <= pressure <= max holds. */
	advise(TW_SYM_UDP_MEM, 0, TW_OS_LINUX, udp_top, NULL, &s);
	ck_assert_str_eq(s.proposed, "2147483647 2147483647 2147483646");
	ck_assert_uint_eq(s.flags, TW_SUG_SATURATED);
	/* A missing field is not guessed. */
	ck_assert_str_eq(advise(TW_SYM_TCP_PRUNE, 0, TW_OS_LINUX, short_rmem, "x", &s),
	    "raise net.ipv4.tcp_rmem (current value unknown; x; "
	    "Documentation/networking/ip-sysctl.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
}
END_TEST

START_TEST(test_halve_and_bounds)
{
	static const struct kv q256[] = { { "queue/nr_requests", "256" }, { NULL, NULL } };
	static const struct kv q6[] = { { "queue/nr_requests", "6" }, { NULL, NULL } };
	static const struct kv q4[] = { { "queue/nr_requests", "4" }, { NULL, NULL } };
	static const struct kv sw1[] = { { "vm.swappiness", "1" }, { NULL, NULL } };
	static const struct kv sw0[] = { { "vm.swappiness", "0" }, { NULL, NULL } };
	static const struct kv vcp[] = { { "vm.vfs_cache_pressure", "100" }, { NULL, NULL } };
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_QUEUE_FULL, 0, TW_OS_LINUX, q256,
	    "sda: r_await 48 ms, aqu-sz 9.1", &s),
	    "queue/nr_requests 256 -> 128 (sda: r_await 48 ms, aqu-sz 9.1; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_PER_DEVICE);
	/* Not below the kernel's minimum of 4. */
	ck_assert_str_eq(advise(TW_SYM_QUEUE_FULL, 0, TW_OS_LINUX, q6, "sda", &s),
	    "queue/nr_requests 6 -> 4 (sda; per device; Documentation/block/queue-sysfs.rst)");
	ck_assert_str_eq(advise(TW_SYM_QUEUE_FULL, 0, TW_OS_LINUX, q4, "sda", &s),
	    "queue/nr_requests 4 is already at its minimum (4) (sda; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_AT_LIMIT | TW_SUG_PER_DEVICE);
	ck_assert_int_eq(s.limit, 4);
	ck_assert_str_eq(s.proposed, "");

	/* swappiness goes up (vm.rst: higher values mean cheaper swap); from 0
	 * it starts at 1. */
	advise(TW_SYM_LOW_HIT_REFAULTS, 0, TW_OS_LINUX, sw1, NULL, &s);
	ck_assert_str_eq(s.proposed, "2");
	ck_assert_int_eq(s.dir, TW_ADV_UP);
	advise(TW_SYM_LOW_HIT_REFAULTS, 0, TW_OS_LINUX, sw0, "r", &s);
	ck_assert_str_eq(s.proposed, "1");
	ck_assert_str_eq(advise(TW_SYM_METADATA_CHURN, 0, TW_OS_LINUX, vcp, "dentries", &s),
	    "vm.vfs_cache_pressure 100 -> 50 (dentries; Documentation/admin-guide/sysctl/vm.rst)");
}
END_TEST

START_TEST(test_set)
{
	static const struct kv ra4096[] = { { "queue/read_ahead_kb", "4096" }, { NULL, NULL } };
	static const struct kv ra128[] = { { "queue/read_ahead_kb", "128" }, { NULL, NULL } };
	static const struct kv ra64[] = { { "queue/read_ahead_kb", "64" }, { NULL, NULL } };
	static const struct kv hz100[] = { { "kern.hz", "100" }, { NULL, NULL } };
	static const struct kv hz1000[] = { { "kern.hz", "1000" }, { NULL, NULL } };
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_RANDOM_READAHEAD, 0, TW_OS_LINUX, ra4096, "sdb", &s),
	    "queue/read_ahead_kb 4096 -> 128 (sdb; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	/* Only a change in the rule's direction. */
	ck_assert_str_eq(advise(TW_SYM_RANDOM_READAHEAD, 0, TW_OS_LINUX, ra128, "sdb", &s),
	    "queue/read_ahead_kb 128 is already at most 128 (sdb; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_NO_CHANGE | TW_SUG_PER_DEVICE);
	advise(TW_SYM_RANDOM_READAHEAD, 0, TW_OS_LINUX, ra64, "sdb", &s);
	ck_assert_uint_eq(s.flags, TW_SUG_NO_CHANGE | TW_SUG_PER_DEVICE);
	ck_assert_str_eq(s.proposed, "");
	/* Unknown: the target is known, the current value is not. */
	ck_assert_str_eq(advise(TW_SYM_RANDOM_READAHEAD, 0, TW_OS_LINUX, NULL, "sdb", &s),
	    "lower queue/read_ahead_kb to 128 (current value unknown; sdb; per device; "
	    "Documentation/block/queue-sysfs.rst)");

	/* polling(4): not below 1000 Hz; Linux has no sysctl for this. */
	ck_assert_str_eq(advise(TW_SYM_INTERRUPT_LOAD, 0, TW_OS_FREEBSD, hz100, "irq", &s),
	    "kern.hz 100 -> 1000 (irq; a loader tunable: takes effect at the next boot; "
	    "polling(4))");
	ck_assert_str_eq(advise(TW_SYM_INTERRUPT_LOAD, 0, TW_OS_FREEBSD, hz1000, "irq", &s),
	    "kern.hz 1000 is already at least 1000 (irq; a loader tunable: takes effect at "
	    "the next boot; polling(4))");
	ck_assert_int_eq(tw_advice_suggest(rule(TW_SYM_INTERRUPT_LOAD, 0), TW_OS_LINUX,
	    fake_lookup, NULL, &s), TW_E_ABSENT);
}
END_TEST

START_TEST(test_scheduler)
{
	static const struct kv none[] = {
		{ "queue/scheduler", "[none] mq-deadline kyber bfq" }, { NULL, NULL },
	};
	static const struct kv bfq[] = {
		{ "queue/scheduler", "mq-deadline kyber [bfq] none\n" }, { NULL, NULL },
	};
	static const struct kv plain[] = { { "queue/scheduler", "mq-deadline" }, { NULL, NULL } };
	static const struct kv list[] = {
		{ "queue/scheduler", "mq-deadline kyber" }, { NULL, NULL },
	};
	static const struct kv nvme[] = {
		{ "queue/scheduler", "[mq-deadline] none" }, { NULL, NULL },
	};
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_QUEUE, 0, TW_OS_LINUX, none, "sda", &s),
	    "queue/scheduler none -> mq-deadline (sda; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	/* bfq is acceptable: no change. */
	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_QUEUE, 0, TW_OS_LINUX, bfq, "sda", &s),
	    "queue/scheduler is already bfq (sda; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_NO_CHANGE | TW_SUG_PER_DEVICE);
	advise(TW_SYM_READ_LATENCY_QUEUE, 0, TW_OS_LINUX, plain, "sda", &s);
	ck_assert_uint_eq(s.flags, TW_SUG_NO_CHANGE | TW_SUG_PER_DEVICE);
	ck_assert_str_eq(s.current, "mq-deadline");
	/* A list without the active one marked says nothing. */
	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_QUEUE, 0, TW_OS_LINUX, list, "sda", &s),
	    "set queue/scheduler to mq-deadline (current value unknown; sda; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	ck_assert_str_eq(advise(TW_SYM_NONROT_SCHEDULER, 0, TW_OS_LINUX, nvme, "nvme0n1", &s),
	    "queue/scheduler mq-deadline -> none (nvme0n1; per device; "
	    "Documentation/block/queue-sysfs.rst)");
	advise(TW_SYM_NONROT_SCHEDULER, 0, TW_OS_LINUX, none, "nvme0n1", &s);
	ck_assert_uint_eq(s.flags, TW_SUG_NO_CHANGE | TW_SUG_PER_DEVICE);
}
END_TEST

START_TEST(test_unknown)
{
	static const struct kv junk[] = { { "net.core.somaxconn", "lots" }, { NULL, NULL } };
	static const struct kv neg[] = { { "net.core.somaxconn", "-5" }, { NULL, NULL } };
	static const struct kv big[] = {
		{ "net.core.somaxconn", "99999999999999999999" }, { NULL, NULL },
	};
	struct tw_suggestion s;
	char line[512];

	ck_assert_str_eq(advise(TW_SYM_LISTEN_OVERFLOW, 0, TW_OS_LINUX, NULL, "4 overflows", &s),
	    "raise net.core.somaxconn (current value unknown; 4 overflows; "
	    "Documentation/networking/ip-sysctl.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
	ck_assert_str_eq(s.current, "");
	ck_assert_str_eq(s.proposed, "");
	advise(TW_SYM_LISTEN_OVERFLOW, 0, TW_OS_LINUX, junk, NULL, &s);
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
	advise(TW_SYM_LISTEN_OVERFLOW, 0, TW_OS_LINUX, neg, NULL, &s);
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
	advise(TW_SYM_LISTEN_OVERFLOW, 0, TW_OS_LINUX, big, NULL, &s);
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
	/* No lookup at all. */
	ck_assert_int_eq(tw_advice_suggest(rule(TW_SYM_LISTEN_OVERFLOW, 0), TW_OS_LINUX, NULL,
	    NULL, &s), TW_OK);
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
	ck_assert_int_eq(tw_advice_format(&s, NULL, line, sizeof(line)), TW_OK);
	ck_assert_str_eq(line, "raise net.core.somaxconn (current value unknown; the accept "
	    "queue was full (the application's listen() backlog must follow); "
	    "Documentation/networking/ip-sysctl.rst)");
}
END_TEST

/* A current value that only just fits current[] can have a proposal one
 * digit longer (500000000 doubles to 1000000000). Found by
 * tests/fuzz/fuzz_advice: tw_advice_suggest returned TW_E_TOOBIG, which
 * it does not document, with half a suggestion in *out. Such a value is
 * no tunable's, so it reads as unusable, like one that does not fit. */
START_TEST(test_proposal_too_long)
{
	static const struct kv tight[] = {
		/* 127 characters: 9 + 5 * 20 + 18. */
		{ "net.ipv4.tcp_mem", "500000000 9000000000000000000 9000000000000000000 "
		    "9000000000000000000 9000000000000000000 9000000000000000000 "
		    "90000000000000000" },
		{ NULL, NULL },
	};
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_TCP_MEM, 0, TW_OS_LINUX, tight, NULL, &s),
	    "raise net.ipv4.tcp_mem (current value unknown; TCP entered memory pressure "
	    "and shrank its socket buffers; Documentation/networking/ip-sysctl.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_CURRENT_UNKNOWN);
	ck_assert_str_eq(s.current, "");
	ck_assert_str_eq(s.proposed, "");
}
END_TEST

/* Only one of each ratio/bytes pair is in force; the other reads 0. */
START_TEST(test_ratio_bytes)
{
	static const struct kv ratio[] = {
		{ "vm.dirty_background_ratio", "10" }, { "vm.dirty_background_bytes", "0" },
		{ NULL, NULL },
	};
	static const struct kv bytes[] = {
		{ "vm.dirty_background_ratio", "0" },
		{ "vm.dirty_background_bytes", "268435456" }, { NULL, NULL },
	};
	static const struct kv ratio_only[] = {
		{ "vm.dirty_background_ratio", "10" }, { NULL, NULL },
	};
	static const struct kv zero_ratio_only[] = {
		{ "vm.dirty_background_ratio", "0" }, { NULL, NULL },
	};
	static const struct kv dirty[] = {
		{ "vm.dirty_ratio", "0" }, { "vm.dirty_bytes", "400000" }, { NULL, NULL },
	};
	static const struct kv dirty_min[] = {
		{ "vm.dirty_ratio", "0" }, { "vm.dirty_bytes", "131072" }, { NULL, NULL },
	};
	static const struct kv dirty_ratio[] = {
		{ "vm.dirty_ratio", "20" }, { "vm.dirty_bytes", "0" }, { NULL, NULL },
	};
	struct tw_suggestion s;

	/* A rule on the ratio. */
	ck_assert_str_eq(advise(TW_SYM_DIRTY_BURST, 0, TW_OS_LINUX, ratio, "burst", &s),
	    "vm.dirty_background_ratio 10 -> 5 (burst; Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_str_eq(advise(TW_SYM_DIRTY_BURST, 0, TW_OS_LINUX, bytes, "burst", &s),
	    "vm.dirty_background_bytes 268435456 -> 134217728 (burst; "
	    "Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_str_eq(s.name, "vm.dirty_background_bytes");
	/* Bytes unknown: the ratio's own value tells. */
	advise(TW_SYM_DIRTY_BURST, 0, TW_OS_LINUX, ratio_only, "burst", &s);
	ck_assert_str_eq(s.name, "vm.dirty_background_ratio");
	ck_assert_str_eq(s.proposed, "5");
	ck_assert_str_eq(advise(TW_SYM_DIRTY_BURST, 0, TW_OS_LINUX, zero_ratio_only, "b", &s),
	    "lower vm.dirty_background_bytes (current value unknown; b; "
	    "Documentation/admin-guide/sysctl/vm.rst)");

	/* dirty_ratio / dirty_bytes, with the kernel's two-page floor. */
	ck_assert_str_eq(advise(TW_SYM_DIRTY_BURST, 1, TW_OS_LINUX, dirty_ratio, "w", &s),
	    "vm.dirty_ratio 20 -> 10 (w; Documentation/admin-guide/sysctl/vm.rst)");
	/* Two pages are 131072 bytes with 64 KiB pages: the floor that every
	 * page size accepts. */
	ck_assert_str_eq(advise(TW_SYM_DIRTY_BURST, 1, TW_OS_LINUX, dirty, "w", &s),
	    "vm.dirty_bytes 400000 -> 200000 (w; Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_str_eq(advise(TW_SYM_WRITE_LATENCY, 1, TW_OS_LINUX, dirty_min, "w", &s),
	    "vm.dirty_bytes 131072 is already at its minimum (131072) (w; "
	    "Documentation/admin-guide/sysctl/vm.rst)");

	/* A rule on the bytes switches to the ratio when bytes reads 0. */
	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_WRITEBACK, 1, TW_OS_LINUX, ratio, "r", &s),
	    "vm.dirty_background_ratio 10 -> 5 (r; Documentation/admin-guide/sysctl/vm.rst)");
	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_WRITEBACK, 1, TW_OS_LINUX, bytes, "r", &s),
	    "vm.dirty_background_bytes 268435456 -> 134217728 (r; "
	    "Documentation/admin-guide/sysctl/vm.rst)");
}
END_TEST

START_TEST(test_zero_means_off)
{
	static const struct kv off[] = { { "queue/wbt_lat_usec", "0" }, { NULL, NULL } };
	static const struct kv on[] = { { "queue/wbt_lat_usec", "75000" }, { NULL, NULL } };
	struct tw_suggestion s;

	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_WRITEBACK, 0, TW_OS_LINUX, off, "sda", &s),
	    "queue/wbt_lat_usec 0 -> -1 (sda; 0 means off, -1 restores the default; "
	    "per device; Documentation/block/queue-sysfs.rst)");
	ck_assert_uint_eq(s.flags, TW_SUG_ENABLE | TW_SUG_PER_DEVICE);
	ck_assert_str_eq(advise(TW_SYM_READ_LATENCY_WRITEBACK, 0, TW_OS_LINUX, on, "sda", &s),
	    "queue/wbt_lat_usec 75000 -> 37500 (sda; per device; "
	    "Documentation/block/queue-sysfs.rst)");
}
END_TEST

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
	tcase_add_test(tc, test_double);
	tcase_add_test(tc, test_double_saturates);
	tcase_add_test(tc, test_vectors);
	tcase_add_test(tc, test_halve_and_bounds);
	tcase_add_test(tc, test_set);
	tcase_add_test(tc, test_scheduler);
	tcase_add_test(tc, test_unknown);
	tcase_add_test(tc, test_proposal_too_long);
	tcase_add_test(tc, test_ratio_bytes);
	tcase_add_test(tc, test_zero_means_off);
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
