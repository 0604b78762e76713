/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/advice/ticket.c and ticket_lines.c: the symptom
 * tokens, finding ids pinned to values computed outside this code (a
 * changed id orphans every open ticket) and subjects. The apply and
 * persist lines are in check_ticket_lines.c. */

#include "advice/evidence.h"
#include "advice/poolwords.h"
#include "advice/ticket.h"
#include "sample/poolclass.h"
#include "util/error.h"
#include "view/view.h"

#include "tw_check.h"

/* ---- Symptom tokens */

START_TEST(test_tokens_distinct)
{
	int a, b;

	for (a = 0; a < TW_SYM_COUNT; a++) {
		const char *t = tw_symptom_name((enum tw_symptom)a), *p;

		ck_assert_msg(t != NULL && t[0] != '\0', "symptom %d has no token", a);
		/* Lower case, digits and "-": safe in any ticket key. */
		for (p = t; *p != '\0'; p++)
			ck_assert_msg((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
			    *p == '-', "token %s", t);
		for (b = 0; b < a; b++)
			ck_assert_str_ne(t, tw_symptom_name((enum tw_symptom)b));
	}
	ck_assert_ptr_null(tw_symptom_name(TW_SYM_COUNT));
	ck_assert_ptr_null(tw_symptom_name((enum tw_symptom)-1));
}
END_TEST

START_TEST(test_tokens_pinned)
{
	ck_assert_str_eq(tw_symptom_name(TW_SYM_SOFTNET_DROPS), "softnet-drops");
	ck_assert_str_eq(tw_symptom_name(TW_SYM_LOW_HIT_REFAULTS), "low-hit-refaults");
	ck_assert_str_eq(tw_symptom_name(TW_SYM_READ_LATENCY_QUEUE), "read-latency-queue");
	ck_assert_str_eq(tw_symptom_name(TW_SYM_QUEUE_FULL), "queue-full");
	ck_assert_str_eq(tw_symptom_name(TW_SYM_CGROUP_CACHE_BOUNDED), "cgroup-cache-bounded");
}
END_TEST

/* ---- Ids: pinned with a separate FNV-1a 64 (Python, in the commit that
 * added them), so that this code cannot agree with itself by accident. */

START_TEST(test_id_pinned)
{
	char id[TW_TICKET_ID_LEN];

	tw_ticket_id(id, TW_SYM_SOFTNET_DROPS, "cpu1 backlog", "net.core.netdev_max_backlog");
	ck_assert_str_eq(id, "tw-9a42e9720aad");
	tw_ticket_id(id, TW_SYM_LOW_HIT_REFAULTS, TW_TICKET_SUBJECT_CACHE, "vm.swappiness");
	ck_assert_str_eq(id, "tw-8f494446bcee");
	tw_ticket_id(id, TW_SYM_READ_LATENCY_QUEUE, "naa.5000c500a1b2c3d4", "queue/scheduler");
	ck_assert_str_eq(id, "tw-f591b6f06bf6");
	/* No tunable: still an id, for a person's ticket. */
	tw_ticket_id(id, TW_SYM_READ_LATENCY_QUEUE, "sda", "");
	ck_assert_str_eq(id, "tw-da4b13136f47");
	tw_ticket_id(id, TW_SYM_READ_LATENCY_QUEUE, "sda", NULL);
	ck_assert_str_eq(id, "tw-da4b13136f47");
	/* Out of range hashes as "" and still has the shape of an id. */
	tw_ticket_id(id, TW_SYM_COUNT, NULL, NULL);
	ck_assert_str_eq(id, "tw-08328807b4eb");
	ck_assert_uint_eq(strlen(id), TW_TICKET_ID_LEN - 1);
}
END_TEST

START_TEST(test_id_separates_fields)
{
	char a[TW_TICKET_ID_LEN], b[TW_TICKET_ID_LEN];

	/* The NUL between fields: moving a byte across it changes the id. */
	tw_ticket_id(a, TW_SYM_QUEUE_FULL, "sd", "aqueue/nr_requests");
	tw_ticket_id(b, TW_SYM_QUEUE_FULL, "sda", "queue/nr_requests");
	ck_assert_str_ne(a, b);
	tw_ticket_id(a, TW_SYM_QUEUE_FULL, "sda", "queue/nr_requests");
	ck_assert_str_eq(a, b);
	tw_ticket_id(b, TW_SYM_READ_LATENCY_QUEUE, "sda", "queue/nr_requests");
	ck_assert_str_ne(a, b);
	tw_ticket_id(b, TW_SYM_QUEUE_FULL, "sdb", "queue/nr_requests");
	ck_assert_str_ne(a, b);
}
END_TEST

/* ---- Subjects */

START_TEST(test_subject_disk)
{
	struct tw_view_disk d;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "sda");
	ck_assert_str_eq(tw_ticket_subject_disk(&d), "sda");
	snprintf(d.stable_id, sizeof(d.stable_id), "naa.5000c500a1b2c3d4");
	ck_assert_str_eq(tw_ticket_subject_disk(&d), "naa.5000c500a1b2c3d4");
	ck_assert_str_eq(tw_ticket_subject_disk(NULL), "");
}
END_TEST

/* The subject a check and tunewatchd give a finding. */
START_TEST(test_subject_of_finding)
{
	struct tw_view_disk d;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "sda");
	snprintf(d.stable_id, sizeof(d.stable_id), "naa.5000c500a1b2c3d4");
	/* A disk's own finding, whatever its tunable. */
	ck_assert_str_eq(tw_ticket_subject(NULL, &d, "vm.dirty_ratio"), "naa.5000c500a1b2c3d4");
	ck_assert_str_eq(tw_ticket_subject(NULL, &d, NULL), "naa.5000c500a1b2c3d4");
	/* The cache's finding: the cache, but a queue tunable is the disk's. */
	ck_assert_str_eq(tw_ticket_subject("cache", &d, "vm.swappiness"), "cache");
	ck_assert_str_eq(tw_ticket_subject("cache", &d, NULL), "cache");
	ck_assert_str_eq(tw_ticket_subject("cache", &d, "queue/read_ahead_kb"),
	    "naa.5000c500a1b2c3d4");
	ck_assert_str_eq(tw_ticket_subject("cache", NULL, "queue/read_ahead_kb"), "cache");
	ck_assert_str_eq(tw_ticket_subject(NULL, NULL, NULL), "");
}
END_TEST

START_TEST(test_subject_pool)
{
	size_t k;
	int backlog = 0;

	for (k = 0; k < tw_pool_nclasses; k++) {
		const struct tw_pool_class *c = &tw_pool_classes[k];

		if (!tw_pool_words_of(c->id)->judged)
			continue;
		/* Every judged class has a subject, and per-CPU ones are one
		 * subject for all CPUs. */
		ck_assert_msg(tw_ticket_subject_pool(c)[0] != '\0', "class %u", c->id);
		if (c->id == TW_DBLOCK_SOFTNET_BACKLOG) {
			ck_assert_str_eq(tw_ticket_subject_pool(c), "softnet backlog");
			backlog = 1;
		}
		if (c->id == TW_DBLOCK_TCP_MEMORY)
			ck_assert_str_eq(tw_ticket_subject_pool(c), "tcp memory");
	}
	ck_assert(backlog);
	ck_assert_str_eq(tw_ticket_subject_pool(NULL), "");
}
END_TEST

/* A verdict without a tunable names the symptom looked for: its id. */
START_TEST(test_no_tunable_symptom)
{
	struct tw_disk_record d;
	struct tw_cache_record bc;
	struct tw_cache_evidence c;
	struct tw_highorder_figures h;
	struct tw_verdict v;

	tw_disk_record_init(&d);
	d.name = "sda";
	d.r_await_ms = 80;
	d.w_await_ms = 90;
	d.queue_depth = 1;
	d.read_ops_s = 100;
	d.write_ops_s = 0;
	d.rotational = 1;
	ck_assert_int_eq(tw_evidence_disk_read(&(struct tw_disk_evidence){ .rec = &d }, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_int_eq(v.no_tunable_sym, TW_SYM_READ_LATENCY_QUEUE);
	ck_assert_int_eq(tw_evidence_disk_write(&(struct tw_disk_evidence){ .rec = &d }, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_int_eq(v.no_tunable_sym, TW_SYM_WRITE_LATENCY);

	tw_cache_record_init(&bc);
	bc.hit_ratio_pct = 50;
	memset(&c, 0, sizeof(c));
	c.rec = &bc;
	ck_assert_int_eq(tw_evidence_cache_reads(&c, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_int_eq(v.no_tunable_sym, TW_SYM_LOW_HIT_SEQUENTIAL);
	/* Refaults without swap on Linux: the working set does not fit. */
	bc.refaults_s = 5000;
	c.refaults_bad = 1;
	bc.page_in_kib_s = 1000;
	ck_assert_int_eq(tw_evidence_cache_reads(&c, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_int_eq(v.no_tunable_sym, TW_SYM_LOW_HIT_REFAULTS);
	bc.memory_pressure_pct = 5;
	ck_assert_int_eq(tw_evidence_cache_pressure(&c, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_int_eq(v.no_tunable_sym, TW_SYM_MEMORY_PRESSURE);

	memset(&h, 0, sizeof(h));
	h.failures = 10;
	h.have_free = 1;
	h.free_blocks = 1000;
	ck_assert_int_eq(tw_evidence_highorder(&h, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_int_eq(v.no_tunable_sym, TW_SYM_HIGHORDER_FAIL);
}
END_TEST

static Suite *
ticket_suite(void)
{
	Suite *s = suite_create("ticket");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_tokens_distinct);
	tcase_add_test(tc, test_tokens_pinned);
	tcase_add_test(tc, test_id_pinned);
	tcase_add_test(tc, test_id_separates_fields);
	tcase_add_test(tc, test_subject_disk);
	tcase_add_test(tc, test_subject_of_finding);
	tcase_add_test(tc, test_subject_pool);
	tcase_add_test(tc, test_no_tunable_symptom);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(ticket_suite());
}
