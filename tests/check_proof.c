/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/advice/proof.c: a knob is proven by its symptom's row
 * whatever device or cgroup file the ticket names; another symptom's knob,
 * a knob without a row and a finding without a knob are not yet shown; a
 * knob tried in the guest lab says what was measured. */
#include "advice/proof.h"
#include "tw_check.h"

START_TEST(test_find)
{
	char buf[400];

	ck_assert_ptr_nonnull(tw_proof_find(TW_SYM_LISTEN_OVERFLOW, "net.core.somaxconn"));
	/* A cgroup's limit, by whichever file or property the ticket names. */
	ck_assert_ptr_nonnull(tw_proof_find(TW_SYM_CGROUP_CACHE_BOUNDED, "MemoryMax"));
	ck_assert_ptr_nonnull(tw_proof_find(TW_SYM_CGROUP_CACHE_BOUNDED,
	    "memory.limit_in_bytes"));
	ck_assert_ptr_null(tw_proof_find(TW_SYM_CGROUP_CACHE_BOUNDED, "memory.swap.max"));
	/* read_ahead_kb's row went with the whole run of 2026-12-07 14:37 UTC,
	 * where cache-readahead's interval reached down to 1.19. */
	ck_assert_ptr_null(tw_proof_find(TW_SYM_LOW_HIT_SEQUENTIAL,
	    "/sys/block/loop3/queue/read_ahead_kb"));
	/* The knob of another symptom's rule: not proven for this one. */
	ck_assert_ptr_null(tw_proof_find(TW_SYM_UDP_RCVBUF, "net.core.rmem_max"));
	ck_assert_ptr_null(tw_proof_find(TW_SYM_WRITE_LATENCY, "vm.dirty_background_ratio"));
	ck_assert_ptr_null(tw_proof_find(TW_SYM_LISTEN_OVERFLOW, ""));
	ck_assert_ptr_null(tw_proof_find(TW_SYM_LISTEN_OVERFLOW, NULL));
	tw_proof_text(TW_SYM_WRITE_LATENCY, "vm.dirty_background_ratio", buf, sizeof(buf));
	ck_assert_str_eq(buf, "not yet shown on a kernel");
	tw_proof_text(TW_SYM_LISTEN_OVERFLOW, "net.core.somaxconn", buf, sizeof(buf));
	ck_assert_str_eq(buf, "lab scenario net-listen: the share of connections established at "
	    "the first SYN at the new value over the old, 1.46 (1.46-1.46) (95 % interval), beyond "
	    "its margin with a no-change control (doc/LAB.md)");
}
END_TEST

/* A knob tried in the guest and not shown says so beside "not yet shown",
 * with what was measured, for any device; the same knob of another
 * symptom does not. */
START_TEST(test_tried)
{
	char buf[400];

	ck_assert_ptr_null(tw_proof_find(TW_SYM_READ_LATENCY_QUEUE,
	    "/sys/block/sda/queue/scheduler"));
	ck_assert_ptr_nonnull(tw_proof_tried_find(TW_SYM_READ_LATENCY_QUEUE,
	    "/sys/block/sdb/queue/scheduler"));
	ck_assert_ptr_null(tw_proof_tried_find(TW_SYM_NONROT_SCHEDULER,
	    "/sys/block/nvme0n1/queue/scheduler"));
	ck_assert_ptr_null(tw_proof_tried_find(TW_SYM_READ_LATENCY_QUEUE, ""));
	tw_proof_text(TW_SYM_READ_LATENCY_QUEUE, "/sys/block/sda/queue/scheduler", buf,
	    sizeof(buf));
	ck_assert_str_eq(buf, "not yet shown on a kernel; tried in the guest lab's "
	    "guest-disk-hdd-scheduler: the reader's clat p50 (ms): 0.92x (0.77-1.09, 5 pairs), "
	    "no effect beyond noise, on a file-backed disk that does not seek and a queue mostly "
	    "of reads (doc/LAB-GUEST.md)");
	tw_proof_text(TW_SYM_QUEUE_FULL, "/sys/block/vdb/queue/nr_requests", buf, sizeof(buf));
	ck_assert_str_eq(buf, "not yet shown on a kernel; tried in the guest lab's "
	    "guest-disk-virtio-nr-requests: no advice, as written: the queue held reads only, and "
	    "the rule needs reads and writes both (doc/LAB-GUEST.md)");
	tw_proof_text(TW_SYM_NONROT_SCHEDULER, "/sys/block/nvme0n1/queue/scheduler", buf,
	    sizeof(buf));
	ck_assert_str_eq(buf, "not yet shown on a kernel");
}
END_TEST

/* Every row names a symptom's knob once: no two rows claim one finding. */
START_TEST(test_rows_distinct)
{
	const struct tw_proof *rows;
	size_t n = tw_proofs(&rows), i, j;

	ck_assert_uint_gt(n, 0);
	for (i = 0; i < n; i++) {
		ck_assert(rows[i].scenario[0] != '\0' && rows[i].effect[0] != '\0');
		for (j = i + 1; j < n; j++)
			ck_assert(rows[i].sym != rows[j].sym || strcmp(rows[i].knob, rows[j].knob));
	}
}
END_TEST

static Suite *
proof_suite(void)
{
	Suite *s = suite_create("proof");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_find);
	tcase_add_test(tc, test_rows_distinct);
	tcase_add_test(tc, test_tried);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(proof_suite());
}
