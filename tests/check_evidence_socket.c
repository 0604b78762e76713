/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for tw_evidence_socket (lib/advice/sockevidence.c): rmem_max
 * is named only when the socket's buffer is at it; below it, or unknown,
 * no tunable and what to do instead; a receiver short of CPU, no tunable
 * whatever its buffer. */
#include "advice/evidence.h"
#include "tw_check.h"
#include "util/error.h"

static struct tw_socket_figures
syslogd(void)
{
	struct tw_socket_figures f;

	memset(&f, 0, sizeof(f));
	f.proto = "udp";
	f.address = "0.0.0.0";
	f.port = 514;
	f.command = "syslogd";
	f.pid = 412;
	f.recent = 1204;
	f.window_s = 60;
	f.have_rcvbuf = 1;
	f.rcvbuf = 212992;
	f.have_rmem_max = 1;
	f.rmem_max = 212992;
	return f;
}

START_TEST(test_at_rmem_max)
{
	struct tw_socket_figures f = syslogd();
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_SOCKET_RCVBUF);
	ck_assert_str_eq(v.found[0].evidence,
	    "syslogd (pid 412) dropped 1,204 datagrams in the last 60 s, buffer 212992 bytes, at "
	    "net.core.rmem_max 212992: raise rmem_max and its SO_RCVBUF");
	/* Above it (SO_RCVBUF doubled by the kernel) is at it too. */
	f.rcvbuf = 425984;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
}
END_TEST

START_TEST(test_below_rmem_max)
{
	struct tw_socket_figures f = syslogd();
	struct tw_verdict v;

	f.rcvbuf = 2304;
	f.rmem_max = 4194304;
	f.recent = 1234567;
	f.command = NULL;
	f.address = "::1";
	f.proto = "udp6";
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable,
	    "a process not found dropped 1,234,567 datagrams in the last 60 s, buffer 2304 bytes, "
	    "under net.core.rmem_max 4194304: raise the app's own SO_RCVBUF, no sysctl sets it");
	/* The ticket says why it has no apply line. */
	ck_assert_ptr_nonnull(v.no_apply);
	ck_assert_ptr_eq(strstr(v.no_apply, "none: the application's own SO_RCVBUF"), v.no_apply);
	ck_assert_ptr_nonnull(strstr(v.no_apply, "tunewatch cannot apply"));
}
END_TEST

/* While the host's UDP memory pool dropped, a socket's drops are for want
 * of UDP memory whatever its buffer: no buffer knob (neither rmem_max at
 * it, nor rmem_default, nor its SO_RCVBUF below it), the udp memory pool
 * named instead. */
START_TEST(test_udp_memory_dropped)
{
	static const uint64_t buffers[] = { 212992, 425984, 2304 };
	size_t i;

	for (i = 0; i < 3; i++) {
		struct tw_socket_figures f = syslogd();
		struct tw_verdict v;

		f.rcvbuf = buffers[i];
		f.have_rmem_default = 1;
		f.rmem_default = 2304;
		f.udp_mem_failures = 77938;
		ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
		ck_assert_uint_eq(v.nfound, 0);
		ck_assert_int_eq(v.no_tunable_sym, TW_SYM_SOCKET_RCVBUF);
		ck_assert_ptr_null(v.no_apply);
		ck_assert_str_eq(v.no_tunable,
		    "syslogd (pid 412) dropped 1,204 datagrams in the last 60 s while UDP hit its "
		    "memory limit: net.ipv4.udp_mem bounds them (see udp memory), not its buffer");
	}
}
END_TEST

/* A buffer of exactly rmem_default, below rmem_max: what a socket gets
 * that sets no SO_RCVBUF, so rmem_default is the knob (and the socket must
 * be made again); one byte off, or rmem_default unknown, and it is the
 * plain "below rmem_max" line with no tunable. */
START_TEST(test_default_buffer)
{
	struct tw_socket_figures f = syslogd();
	struct tw_verdict v;

	f.rcvbuf = 212992;
	f.rmem_max = 4194304;
	f.have_rmem_default = 1;
	f.rmem_default = 212992;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_SOCKET_RCVBUF_DEFAULT);
	ck_assert_str_eq(v.found[0].evidence,
	    "syslogd (pid 412) dropped 1,204 datagrams in the last 60 s, buffer rmem_default "
	    "212992, given to a socket that sets no SO_RCVBUF when it is made: restart it");
	ck_assert_str_eq(v.no_tunable, "");
	f.rcvbuf = 212993;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_ptr_null(strstr(v.no_tunable, "rmem_default"));
	f.rcvbuf = 212992;
	f.have_rmem_default = 0;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_ptr_null(strstr(v.no_tunable, "rmem_default"));
	/* At rmem_max the rmem_max rule speaks, whatever rmem_default is. */
	f.have_rmem_default = 1;
	f.rmem_max = 212992;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_SOCKET_RCVBUF);
}
END_TEST

START_TEST(test_unknown_buffer)
{
	struct tw_socket_figures f = syslogd();
	struct tw_verdict v;

	f.have_rcvbuf = 0;
	f.recent = 7;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable,
	    "syslogd (pid 412) dropped 7 datagrams in the last 60 s, buffer unknown (compare ss "
	    "-u -a -m's rb with net.core.rmem_max, 212992)");
	f.address = NULL;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_E_INVAL);
}
END_TEST

/* The lab's neg-udp-cpu: a receiver that ran or waited to run 90 % of a
 * CPU or more while its queue was full in 80 % of the window or more is
 * short of CPU: no tunable, at rmem_max or at rmem_default alike. Short
 * of any of it, or with its owner unknown, the buffer's advice stands. */
START_TEST(test_short_of_cpu)
{
	struct tw_socket_figures f = syslogd();
	struct tw_verdict v;

	f.window_s = 10;
	f.have_full = f.have_cpu = 1;
	f.owner_cpu = 15.4;
	f.owner_cpu_wait = 83;
	f.full_share = 90;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_int_eq(v.no_tunable_sym, TW_SYM_SOCKET_RCVBUF);
	ck_assert_str_eq(v.no_tunable,
	    "syslogd (pid 412) is short of CPU: ran 15% and waited 83% of a CPU as it dropped in "
	    "the last 10 s, queue full: a bigger buffer only delays drops");
	ck_assert_ptr_nonnull(v.no_apply);
	/* At rmem_default (below rmem_max) too. */
	f.rmem_max = 4194304;
	f.have_rmem_default = 1;
	f.rmem_default = f.rcvbuf;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_ptr_nonnull(strstr(v.no_tunable, "is short of CPU"));
	/* Many threads: more than one CPU, the most shown 9999 %. */
	f.owner_cpu = 2.5e6;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_ptr_nonnull(strstr(v.no_tunable, "ran 9999% and waited 83%"));

	/* Absent: each condition short, or the owner unknown. */
	f = syslogd();
	f.have_full = f.have_cpu = 1;
	f.owner_cpu = 50;
	f.owner_cpu_wait = 39.9;
	f.full_share = 100;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_SOCKET_RCVBUF);
	f.owner_cpu_wait = 40;
	f.full_share = 79.9;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	f.full_share = 80;
	f.have_full = 0;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	f.have_full = 1;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);		/* 80 % full, 90 % busy: short */
	ck_assert_ptr_nonnull(strstr(v.no_tunable, "is short of CPU"));
	/* Full as it dropped, its CPU not known (not read yet, or its owner
	 * not found yet): a steady excess all the same, no knob, and not
	 * called short of CPU. Below 80 % full: the buffer's advice. */
	f.have_cpu = 0;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "syslogd (pid 412) dropped 1,204 datagrams in the last 60 s "
	    "with its queue full: a bigger buffer only delays them (its CPU not known)");
	f.have_cpu = 1;
	f.command = NULL;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable, "a process not found dropped 1,204 datagrams in the last "
	    "60 s with its queue full: a bigger buffer only delays them (its CPU not known)");
	f.command = "syslogd";
	f.have_cpu = 0;
	f.full_share = 79.9;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	f.full_share = 80;
	f.have_cpu = 1;
	/* UDP memory first: a socket drops then whatever its receiver. */
	f.udp_mem_failures = 1;
	ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
	ck_assert_ptr_nonnull(strstr(v.no_tunable, "net.ipv4.udp_mem"));
}
END_TEST

/* The host's pool: rmem_max and rmem_default unless every socket that
 * dropped is known and below rmem_max. */
START_TEST(test_host_pool)
{
	struct tw_udp_rcvbuf_figures f = { .failures = 1204, .window_s = 60 };
	struct tw_verdict v;

	ck_assert_int_eq(tw_evidence_udp_rcvbuf(&f, &v), TW_OK);	/* no socket table */
	ck_assert_uint_eq(v.nfound, 1);
	ck_assert_int_eq(v.found[0].sym, TW_SYM_UDP_RCVBUF);
	ck_assert_str_eq(v.found[0].evidence,
	    "1,204 datagrams were dropped on full receive buffers in the last 60 s");
	f.sockets = 2;
	ck_assert_int_eq(tw_evidence_udp_rcvbuf(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_int_eq(v.no_tunable_sym, TW_SYM_UDP_RCVBUF);
	ck_assert_str_eq(v.no_tunable,
	    "1,204 datagrams were dropped on full receive buffers in the last 60 s, by 2 sockets "
	    "whose buffer is below net.core.rmem_max: raise the application's SO_RCVBUF (see "
	    "each socket's line)");
	f.at_max = 1;
	ck_assert_int_eq(tw_evidence_udp_rcvbuf(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	f.at_max = 0;
	f.unknown = 1;
	ck_assert_int_eq(tw_evidence_udp_rcvbuf(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	/* Every socket's receiver short of CPU: no buffer helps. One at
	 * rmem_max beside it keeps the finding. */
	f.unknown = 0;
	f.cannot_keep_up = 2;
	ck_assert_int_eq(tw_evidence_udp_rcvbuf(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_str_eq(v.no_tunable,
	    "1,204 datagrams were dropped on full receive buffers in the last 60 s, by 2 sockets "
	    "whose receiver cannot keep up: a bigger buffer only delays the drops (see each "
	    "socket's line)");
	f.sockets = 3;
	f.at_max = 1;
	ck_assert_int_eq(tw_evidence_udp_rcvbuf(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	/* A knob changed within the window: only when no socket open now
	 * dropped does it hold the knobs back. */
	f.changed = "net.core.rmem_default";
	ck_assert_int_eq(tw_evidence_udp_rcvbuf(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 1);
	memset(&f, 0, sizeof(f));
	f.failures = UINT64_MAX;
	f.window_s = 86400;
	f.changed = "net.core.rmem_default";
	ck_assert_int_eq(tw_evidence_udp_rcvbuf(&f, &v), TW_OK);
	ck_assert_uint_eq(v.nfound, 0);
	ck_assert_int_eq(v.no_tunable_sym, TW_SYM_UDP_RCVBUF);
	ck_assert_ptr_nonnull(v.no_apply);
	/* The longest, with the pool's note, fits twFindingEvidence. */
	ck_assert_str_eq(v.no_tunable, "18,446,744,073,709,551,615 datagrams were dropped on "
	    "full receive buffers in the last 86400 s, by no socket open now: those closed "
	    "since net.core.rmem_default changed; its change history says if that helped");
	ck_assert_uint_le(strlen(v.no_tunable) + strlen(" (critical range 10000, failures in "
	    "the window)"), 255);
	ck_assert_int_eq(tw_evidence_udp_rcvbuf(NULL, &v), TW_E_INVAL);
}
END_TEST

/* The longest evidence each case can give: a 15-character command (the
 * kernel's comm), the largest pid and buffers the MIB's Unsigned32 holds,
 * 20 digits of drops, the longest window tunewatchd takes and the longest
 * address (the subject's, IPv6 with a scope). Each must fit the MIB's
 * 255-character twFindingEvidence with the note tunewatchd appends (a
 * threshold of five digits), and carry nothing snmptt strips. */
#define NOTE " (critical range 10000, drops in the window)"

START_TEST(test_worst_case_fits_with_note)
{
	static const struct {
		int have_rcvbuf, have_default;
		uint64_t rcvbuf, rmem_max;
	} cases[] = {
		{ 0, 0, 0, UINT32_MAX },			/* unknown */
		{ 1, 1, UINT32_MAX - 1, UINT32_MAX },		/* rmem_default */
		{ 1, 0, UINT32_MAX - 1, UINT32_MAX },		/* below rmem_max */
		{ 1, 0, UINT32_MAX, UINT32_MAX },		/* at it */
		{ 2, 0, UINT32_MAX, UINT32_MAX },		/* UDP memory dropped */
		{ 3, 0, UINT32_MAX, UINT32_MAX },		/* short of CPU */
		{ 4, 0, UINT32_MAX, UINT32_MAX },		/* full, CPU unknown */
	};
	size_t i, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (k = 0; k < 2; k++) {
		struct tw_socket_figures f = syslogd();
		struct tw_verdict v;
		const char *ev;

		f.proto = "udplite6";
		f.address = "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff%enx0123456789ab";
		f.port = 65535;
		f.command = k == 0 ? "kworker/u64:123" : NULL;
		f.pid = INT32_MAX;
		f.recent = UINT64_MAX;
		f.window_s = 86400;
		f.have_rcvbuf = cases[i].have_rcvbuf != 0;
		f.udp_mem_failures = cases[i].have_rcvbuf == 2 ? UINT64_MAX : 0;
		f.rcvbuf = cases[i].rcvbuf;
		f.have_rmem_max = 1;
		f.rmem_max = cases[i].rmem_max;
		f.have_rmem_default = cases[i].have_default;
		f.rmem_default = cases[i].rcvbuf;
		f.have_full = cases[i].have_rcvbuf >= 3;
		f.have_cpu = cases[i].have_rcvbuf == 3;
		f.owner_cpu = f.owner_cpu_wait = 42949672.95;	/* TwHundredths' most */
		f.full_share = 100;
		ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
		ev = v.nfound > 0 ? v.found[0].evidence : v.no_tunable;
		ck_assert_msg(strlen(ev) + strlen(NOTE) <= 255, "%zu + %zu: %s", strlen(ev),
		    strlen(NOTE), ev);
		/* Short of CPU says how much, not the drops: the threshold's
		 * note (its figure) does. Without its owner, not short. */
		if (f.have_cpu && k == 0)
			ck_assert_ptr_nonnull(strstr(ev, "is short of CPU: ran 9999%"));
		else
			ck_assert_ptr_nonnull(strstr(ev, "18,446,744,073,709,551,615 datagrams"));
		ck_assert_msg(strpbrk(ev, ";[]<>$&*|?") == NULL, "snmptt would change: %s", ev);
	}
}
END_TEST

/* A comm of 15 bytes that are all control characters is 60 characters
 * shown (\x01 each): the evidence keeps "(pid N)" whole and cuts the
 * name, at a whole escape, marked "...", in every case. Before, the name
 * and pid shared 64 bytes and the pid was what was cut. */
START_TEST(test_escaped_name_keeps_pid)
{
	char shown[64] = "";
	size_t i, k;

	for (i = 0; i < 15; i++)
		strcat(shown, "\\x01");
	for (k = 0; k < 3; k++) {
		struct tw_socket_figures f = syslogd();
		struct tw_verdict v;
		const char *ev, *cut;

		f.command = shown;
		f.pid = INT32_MAX;
		f.have_rcvbuf = k != 2;
		f.rcvbuf = k == 0 ? f.rmem_max : f.rmem_max / 2;
		ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
		ev = v.nfound > 0 ? v.found[0].evidence : v.no_tunable;
		ck_assert_msg(strstr(ev, "... (pid 2147483647) dropped ") != NULL, "%s", ev);
		ck_assert_msg(strncmp(ev, "\\x01\\x01", 8) == 0, "%s", ev);
		/* Whole escapes before the mark: the name's length is a
		 * multiple of four. */
		cut = strstr(ev, "...");
		ck_assert_uint_eq((size_t)(cut - ev) % 4, 0);
		ck_assert_uint_gt((size_t)(cut - ev), 0);
		ck_assert_msg(strlen(ev) + strlen(NOTE) <= 255, "%s", ev);
	}
	/* A name that fits is not marked. */
	{
		struct tw_socket_figures f = syslogd();
		struct tw_verdict v;

		f.command = "kworker/u64:123";
		f.pid = INT32_MAX;
		ck_assert_int_eq(tw_evidence_socket(&f, &v), TW_OK);
		ck_assert_msg(strncmp(v.found[0].evidence, "kworker/u64:123 (pid 2147483647) "
		    "dropped", 40) == 0, "%s", v.found[0].evidence);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("evidence_socket");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_at_rmem_max);
	tcase_add_test(tc, test_below_rmem_max);
	tcase_add_test(tc, test_udp_memory_dropped);
	tcase_add_test(tc, test_default_buffer);
	tcase_add_test(tc, test_unknown_buffer);
	tcase_add_test(tc, test_worst_case_fits_with_note);
	tcase_add_test(tc, test_host_pool);
	tcase_add_test(tc, test_short_of_cpu);
	tcase_add_test(tc, test_escaped_name_keeps_pid);
	suite_add_tcase(s, tc);
	return tw_run_suite(s);
}
