/* SPDX-License-Identifier: ISC */
/* What the evidence tests share: a lookup of current values, the knob a
 * check would print for a symptom, and figures that show nothing until a
 * test sets what it is about. Static inline: each test program uses a
 * different part of it. */
#ifndef TW_EVIDENCE_TEST_H
#define TW_EVIDENCE_TEST_H

#include <stdint.h>
#include <string.h>

#include "advice/advice.h"
#include "advice/evidence.h"
#include "tw_check.h"
#include "util/error.h"

struct kv {
	const char *name;
	const char *value;
};

static inline const char *
lookup(void *ctx, const char *name)
{
	const struct kv *kv = ctx;
	size_t i;

	for (i = 0; kv != NULL && kv[i].name != NULL; i++)
		if (strcmp(kv[i].name, name) == 0)
			return kv[i].value;
	return NULL;
}

/* The suggestion a check prints for sym: the first rule with a change. */
static inline const char *
knob(enum tw_symptom sym, enum tw_os os, const struct kv *kv, struct tw_suggestion *s)
{
	static char line[1024];
	const struct tw_advice_rule *r;
	size_t n = tw_advice_rules(sym, &r), i;

	for (i = 0; i < n; i++) {
		if (tw_advice_suggest(&r[i], os, lookup, (void *)kv, s) != TW_OK)
			continue;
		if (s->flags & (TW_SUG_AT_LIMIT | TW_SUG_NO_CHANGE))
			continue;
		ck_assert_int_eq(tw_advice_format(s, "e", line, sizeof(line)), TW_OK);
		return line;
	}
	return NULL;
}

static inline int
has(const struct tw_verdict *v, enum tw_symptom sym)
{
	size_t i;

	for (i = 0; i < v->nfound; i++)
		if (v->found[i].sym == sym)
			return 1;
	return 0;
}

/* sda's record: the figures a disk evidence test starts from. */
static inline struct tw_disk_record
disk(double r_await, double queue, int rotational, const char *sched)
{
	struct tw_disk_record d;

	tw_disk_record_init(&d);
	d.name = "sda";
	d.r_await_ms = r_await;
	d.w_await_ms = 5;
	d.queue_depth = queue;
	d.read_ops_s = 100;
	d.write_ops_s = 10;
	d.read_bytes_s = 100 * 8192;
	d.write_bytes_s = 0;
	d.util_pct = 0;
	d.rotational = rotational;
	d.scheduler = sched;
	d.nr_requests = 64;
	d.read_ahead_kb = 128;
	return d;
}

/* The evidence of the record at r over a window of 60 s, with what a judge
 * adds (designated initializers of struct tw_disk_evidence). */
#define EV(r, ...) (&(struct tw_disk_evidence){ .rec = (r), .window_s = 60, __VA_ARGS__ })

/* ---- Disks: reads */

static inline struct tw_cache_figures
cache(void)
{
	struct tw_cache_figures c;

	memset(&c, 0, sizeof(c));
	c.have_hit = 1;
	c.hit = 75;
	c.have_refaults = 1;
	c.refaults = 999;
	c.pagein_kib = 8000;		/* 999 pages are 3996 KiB: 50 % */
	c.have_swap = 1;
	c.swap_total = UINT64_C(1073741824);
	c.swap_free = UINT64_C(536870912);
	c.disk_read_ahead_kb = -1;
	c.os = TW_OS_LINUX;
	c.window_s = 60;
	return c;
}

/* A host reported thrashing, with swap in use: swappiness up, not down. */

#endif
