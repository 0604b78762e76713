/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/util/sendq.c: the bound and what it drops, the
 * messages in flight, and a peer that never reads: sending stops before
 * a write could block, whatever is queued. */
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tw_check.h"
#include "util/error.h"
#include "util/sendq.h"

static unsigned freed;

static void
count_free(void *item)
{
	(void)item;
	freed++;
}

/* Distinct non-NULL items; the queue never looks into them. */
static char items[20000];

START_TEST(test_bound_drops_newest)
{
	struct tw_sendq q;
	int fds[2];
	size_t i;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
	freed = 0;
	ck_assert_int_eq(tw_sendq_init(&q, 4, 100, count_free), TW_OK);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(tw_sendq_push(&q, &items[i]), 0);
	ck_assert_int_eq(tw_sendq_push(&q, &items[4]), 1);
	ck_assert_int_eq(tw_sendq_push(&q, &items[5]), 1);
	ck_assert_uint_eq(q.dropped, 2);
	ck_assert_uint_eq(freed, 2);
	/* The oldest go first, in order; the dropped never come. */
	for (i = 0; i < 4; i++) {
		ck_assert_ptr_eq(tw_sendq_next(&q, fds[0]), &items[i]);
		tw_sendq_sent(&q);
	}
	ck_assert_ptr_null(tw_sendq_next(&q, fds[0]));
	ck_assert_uint_eq(q.sent, 4);
	/* Room again: the ring wraps. */
	ck_assert_int_eq(tw_sendq_push(&q, &items[6]), 0);
	ck_assert_ptr_eq(tw_sendq_next(&q, fds[0]), &items[6]);
	tw_sendq_failed(&q);
	ck_assert_uint_eq(q.dropped, 3);
	tw_sendq_free(&q);
	close(fds[0]);
	close(fds[1]);
}
END_TEST

/* Classes: a queue of 9 full of class 0's takes a class 2 item by
 * dropping class 0's newest, up to class 2's share (3); class 0 over its
 * share finds no room; what leaves goes in order; every item counted. */
START_TEST(test_classes_keep_room)
{
	struct tw_sendq q;
	int fds[2];
	size_t i;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
	freed = 0;
	ck_assert_int_eq(tw_sendq_init(&q, 9, 100, count_free), TW_OK);
	for (i = 0; i < 9; i++)
		ck_assert_int_eq(tw_sendq_push_class(&q, &items[i], 0, 3), 0);
	ck_assert_int_eq(tw_sendq_push_class(&q, &items[9], 0, 3), 1);
	for (i = 10; i < 13; i++)
		ck_assert_int_eq(tw_sendq_push_class(&q, &items[i], 2, 3), 0);
	/* Class 2 holds its share: its fourth finds no room. */
	ck_assert_int_eq(tw_sendq_push_class(&q, &items[13], 2, 3), 1);
	ck_assert_int_eq(tw_sendq_push_class(&q, &items[14], 1, 3), 0);
	ck_assert_uint_eq(q.n, 9);
	ck_assert_uint_eq(q.dropped, 6);
	ck_assert_uint_eq(freed, 6);
	/* Class 0's oldest five, then class 2's three, then class 1's. */
	for (i = 0; i < 5; i++)
		ck_assert_ptr_eq(tw_sendq_next(&q, fds[0]), &items[i]);
	for (i = 10; i < 13; i++)
		ck_assert_ptr_eq(tw_sendq_next(&q, fds[0]), &items[i]);
	ck_assert_ptr_eq(tw_sendq_next(&q, fds[0]), &items[14]);
	ck_assert_ptr_null(tw_sendq_next(&q, fds[0]));
	ck_assert_uint_eq(q.held[0] + q.held[1] + q.held[2], 0);
	tw_sendq_free(&q);
	close(fds[0]);
	close(fds[1]);
}
END_TEST

START_TEST(test_inflight)
{
	struct tw_sendq q;
	int fds[2];
	size_t i;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
	freed = 0;
	ck_assert_int_eq(tw_sendq_init(&q, 16, 3, count_free), TW_OK);
	for (i = 0; i < 10; i++)
		tw_sendq_push(&q, &items[i]);
	for (i = 0; i < 3; i++) {
		ck_assert_ptr_nonnull(tw_sendq_next(&q, fds[0]));
		tw_sendq_sent(&q);
	}
	/* Three unanswered: nothing more until an answer comes. */
	ck_assert_ptr_null(tw_sendq_next(&q, fds[0]));
	tw_sendq_answered(&q);
	ck_assert_ptr_eq(tw_sendq_next(&q, fds[0]), &items[3]);
	tw_sendq_sent(&q);
	ck_assert_ptr_null(tw_sendq_next(&q, fds[0]));
	/* The peer went away: what was in flight will not be answered, and
	 * a late answer does not go below nothing. */
	tw_sendq_forget_inflight(&q);
	tw_sendq_answered(&q);
	ck_assert_uint_eq(q.inflight, 0);
	ck_assert_ptr_eq(tw_sendq_next(&q, fds[0]), &items[4]);
	/* No descriptor (no master): nothing goes, nothing is lost. */
	ck_assert_ptr_null(tw_sendq_next(&q, -1));
	ck_assert_uint_eq(q.n, 5);
	ck_assert_uint_eq(q.sent + q.dropped + q.n + 1, 10);	/* +1: items[4], taken */
	tw_sendq_free(&q);
	ck_assert_uint_eq(freed, 5);
	close(fds[0]);
	close(fds[1]);
}
END_TEST

/* The peer never reads and answers everything at once, so only the
 * socket's own room holds messages back: 20,000 of 4 KiB, far more than
 * any socket buffer, are queued and sent with blocking writes. Were a
 * write let through without room, it would block, and the test's
 * timeout would fail it. */
START_TEST(test_peer_never_reads)
{
	static char msg[4096];
	struct tw_sendq q;
	int fds[2], sndbuf = 0;
	socklen_t len = sizeof(sndbuf);
	size_t i, nsent = 0;
	void *item;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
	ck_assert_int_eq(getsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, &len), 0);
	freed = 0;
	ck_assert_int_eq(tw_sendq_init(&q, sizeof(items), 1, count_free), TW_OK);
	for (i = 0; i < sizeof(items); i++)
		ck_assert_int_eq(tw_sendq_push(&q, &items[i]), 0);
	while ((item = tw_sendq_next(&q, fds[0])) != NULL) {
		ck_assert_int_eq(write(fds[0], msg, sizeof(msg)), (ssize_t)sizeof(msg));
		tw_sendq_sent(&q);
		tw_sendq_answered(&q);
		nsent++;
	}
	/* Some went, as far as the buffer took them; the rest wait. */
	ck_assert_uint_gt(nsent, 0);
	ck_assert_uint_lt(nsent * sizeof(msg), (size_t)sndbuf);
	ck_assert_int_eq(tw_fd_writable(fds[0]), 0);
	ck_assert_uint_eq(q.sent, nsent);
	ck_assert_uint_eq(q.n, sizeof(items) - nsent);
	ck_assert_uint_eq(q.dropped, 0);
	/* The peer reads it all: the queue may go on. */
	{
		char buf[65536];
		ssize_t got;

		ck_assert_int_eq(fcntl(fds[1], F_SETFL, O_NONBLOCK), 0);
		while ((got = read(fds[1], buf, sizeof(buf))) > 0)
			;
	}
	ck_assert_int_eq(tw_fd_writable(fds[0]), 1);
	ck_assert_ptr_nonnull(tw_sendq_next(&q, fds[0]));
	/* A peer that hung up: nothing may go. */
	close(fds[1]);
	ck_assert_int_eq(tw_fd_writable(fds[0]), 0);
	tw_sendq_free(&q);
	ck_assert_uint_eq(freed, sizeof(items) - nsent - 1);
	close(fds[0]);
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct tw_sendq q;

	ck_assert_int_eq(tw_sendq_init(&q, 0, 1, count_free), TW_E_INVAL);
	ck_assert_int_eq(tw_sendq_init(&q, 1, 0, count_free), TW_E_INVAL);
	ck_assert_int_eq(tw_sendq_init(&q, 1, 1, NULL), TW_E_INVAL);
	ck_assert_int_eq(tw_fd_writable(-1), 0);
}
END_TEST

static Suite *
sendq_suite(void)
{
	Suite *s = suite_create("sendq");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_bound_drops_newest);
	tcase_add_test(tc, test_inflight);
	tcase_add_test(tc, test_classes_keep_room);
	tcase_add_test(tc, test_peer_never_reads);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(sendq_suite());
}
