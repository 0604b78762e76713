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

/* The host's cache as its evidence reads it: the cache's record, the
 * disks a judge would have chosen (e.disk and e.writer point to them when
 * a test chooses them) and the evidence. */
struct cache_case {
	struct tw_cache_record rec;
	struct tw_disk_record disk, writer;
	struct tw_cache_evidence e;
};

/* Thrashing on Linux: 999 refaults/s against 8000 KiB/s paged in (999
 * pages are 3996 KiB: 50 %), half of 1 GiB of swap in use, no disk
 * chosen. */
static inline void
cache(struct cache_case *c)
{
	tw_cache_record_init(&c->rec);
	c->rec.hit_ratio_pct = 75;
	c->rec.refaults_s = 999;
	c->rec.page_in_kib_s = 8000;
	c->rec.swap_total_bytes = 1073741824.0;
	c->rec.swap_free_bytes = 536870912.0;
	tw_disk_record_init(&c->disk);
	tw_disk_record_init(&c->writer);
	memset(&c->e, 0, sizeof(c->e));
	c->e.rec = &c->rec;
	c->e.os = TW_OS_LINUX;
	c->e.window_s = 60;
}

/* A host reported thrashing, with swap in use: swappiness up, not down. */

#endif
