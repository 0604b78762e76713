/* SPDX-License-Identifier: ISC */
#include "config.h"

/* Unit tests for lib/reqlat/ without a kernel: the program's bucket
 * arithmetic against the histogram's, the slots given and taken as
 * devices come and go, the decoding of per-CPU map values, the
 * configuration lines, and the source's states where it cannot load. */
#include <linux/types.h>
#include <string.h>
#include <unistd.h>

#include "probe/histogram.h"
#include "reqlat/reqdecode.h"
#include "reqlat/reqlat.h"
#include "reqlat/reqlat_bucket.h"
#include "reqlat/reqlatconf.h"
#include "reqlat/reqslots.h"
#include "tw_check.h"
#include "util/error.h"

/* The program's bucket of every microsecond value is tw_hist_bucket's,
 * whatever the nanoseconds below it. */
START_TEST(test_bucket_is_the_histograms)
{
	uint64_t us;

	for (us = 0; us <= TW_HIST_MAX_US + 5; us += us < (1u << 20) ? 1 : us / 997 + 1) {
		ck_assert_uint_eq(tw_reqlat_bucket(us * 1000), tw_hist_bucket(us));
		ck_assert_uint_eq(tw_reqlat_bucket(us * 1000 + 999), tw_hist_bucket(us));
	}
	ck_assert_uint_eq(tw_reqlat_bucket(UINT64_C(1) << 62), TW_HIST_BUCKETS - 1);
	ck_assert_uint_eq(tw_reqlat_top_bit(1), 0);
	ck_assert_uint_eq(tw_reqlat_top_bit(0xffffffffu), 31);
}
END_TEST

static const struct tw_reqlat_want two[] = { { 7, 0 }, { 8, 0 } };

static size_t
count_op(const struct tw_reqslot_change *ch, size_t n, enum tw_reqslot_op op)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += ch[i].op == op;
	return k;
}

START_TEST(test_slots_come_and_go)
{
	static struct tw_reqslots s;
	struct tw_reqslot_change ch[TW_REQSLOTS_MAX_CHANGES];
	static const struct tw_reqlat_want one[] = { { 8, 0 } };
	static const struct tw_reqlat_want swap[] = { { 8, 0 }, { 9, 0 } };
	size_t n, left;
	uint64_t gen7, gen8, gen;
	int slot7, slot8;

	ck_assert_int_eq(tw_reqslots_init(&s, 2), TW_OK);
	ck_assert_int_eq(tw_reqslots_sync(&s, two, 2, ch, &n, &left), TW_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(count_op(ch, n, TW_REQSLOT_GIVE), 2);
	ck_assert_uint_eq(left, 0);
	ck_assert_uint_eq(ch[0].dev, TW_REQLAT_DEV(7, 0));
	ck_assert_uint_eq(s.table[ch[0].entry].dev, TW_REQLAT_DEV(7, 0));
	slot7 = tw_reqslots_find(&s, 7, 0, &gen7);
	slot8 = tw_reqslots_find(&s, 8, 0, &gen8);
	ck_assert_int_ge(slot7, 0);
	ck_assert_int_ge(slot8, 0);
	ck_assert_int_ne(slot7, slot8);
	ck_assert_uint_ne(gen7, gen8);
	/* The same devices again: nothing to change. */
	ck_assert_int_eq(tw_reqslots_sync(&s, two, 2, ch, &n, &left), TW_OK);
	ck_assert_uint_eq(n, 0);
	/* 7:0 leaves: its slot is taken, its entry cleared. */
	ck_assert_int_eq(tw_reqslots_sync(&s, one, 1, ch, &n, &left), TW_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(ch[0].op, TW_REQSLOT_TAKE);
	ck_assert_int_eq(tw_reqslots_find(&s, 7, 0, NULL), -1);
	ck_assert_int_eq(tw_reqslots_find(&s, 8, 0, &gen), slot8);
	ck_assert_uint_eq(gen, gen8);
	/* A sync later it has a slot again, with a new number, so that the
	 * window starts its histograms afresh. */
	ck_assert_int_eq(tw_reqslots_sync(&s, two, 2, ch, &n, &left), TW_OK);
	ck_assert_uint_eq(count_op(ch, n, TW_REQSLOT_GIVE), 1);
	ck_assert_uint_eq(left, 0);
	ck_assert_int_eq(tw_reqslots_find(&s, 7, 0, &gen), slot7);
	ck_assert_uint_gt(gen, gen8);
	/* A slot taken is not given again in the same sync: 9:0 arriving
	 * as 7:0 leaves waits for the next. */
	ck_assert_int_eq(tw_reqslots_sync(&s, swap, 2, ch, &n, &left), TW_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(ch[0].op, TW_REQSLOT_TAKE);
	ck_assert_uint_eq(left, 1);
	ck_assert_int_eq(tw_reqslots_find(&s, 9, 0, NULL), -1);
	ck_assert_int_eq(tw_reqslots_sync(&s, swap, 2, ch, &n, &left), TW_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(ch[0].op, TW_REQSLOT_GIVE);
	ck_assert_int_eq(tw_reqslots_find(&s, 9, 0, NULL), slot7);
}
END_TEST

START_TEST(test_slots_refuse_and_limit)
{
	static struct tw_reqslots s;
	struct tw_reqslot_change ch[TW_REQSLOTS_MAX_CHANGES];
	static const struct tw_reqlat_want unsorted[] = { { 8, 0 }, { 7, 0 } };
	static const struct tw_reqlat_want odd[] = { { 0, 0 }, { 8, 1u << 20 }, { 5000, 0 } };
	struct tw_reqlat_want many[40];
	size_t n, left, i;

	ck_assert_int_eq(tw_reqslots_init(&s, 0), TW_E_INVAL);
	ck_assert_int_eq(tw_reqslots_init(&s, TW_REQLAT_MAX_DEVICES + 1), TW_E_INVAL);
	ck_assert_int_eq(tw_reqslots_init(&s, 4), TW_OK);
	ck_assert_int_eq(tw_reqslots_sync(&s, unsorted, 2, ch, &n, &left), TW_E_INVAL);
	ck_assert_uint_eq(n, 0);
	/* Numbers no dev_t holds, and 0:0 (a free entry), get no slot. */
	ck_assert_int_eq(tw_reqslots_sync(&s, odd, 3, ch, &n, &left), TW_OK);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(left, 3);
	/* More devices than slots: the first four have one. */
	for (i = 0; i < 40; i++)
		many[i] = (struct tw_reqlat_want){ 8, (uint32_t)i * 16 };
	ck_assert_int_eq(tw_reqslots_sync(&s, many, 40, ch, &n, &left), TW_OK);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(left, 36);
	for (i = 0; i < 4; i++)
		ck_assert_int_ge(tw_reqslots_find(&s, 8, (uint32_t)i * 16, NULL), 0);
	ck_assert_int_eq(tw_reqslots_find(&s, 8, 4 * 16, NULL), -1);
}
END_TEST

/* Devices whose dev_t hash to the same entry: each finds its own within
 * the probe, and the program's lookup (the same arithmetic) finds it. */
START_TEST(test_slots_share_a_hash)
{
	static struct tw_reqslots s;
	struct tw_reqslot_change ch[TW_REQSLOTS_MAX_CHANGES];
	struct tw_reqlat_want same[TW_REQLAT_DEV_PROBE + 1];
	uint32_t h0 = TW_REQLAT_DEV_HASH(TW_REQLAT_DEV(8, 0));
	size_t n, left, k = 0;
	uint32_t minor;

	for (minor = 0; k < TW_REQLAT_DEV_PROBE + 1 && minor < (1u << 20); minor++)
		if (TW_REQLAT_DEV_HASH(TW_REQLAT_DEV(8, minor)) == h0)
			same[k++] = (struct tw_reqlat_want){ 8, minor };
	ck_assert_uint_eq(k, TW_REQLAT_DEV_PROBE + 1);
	ck_assert_int_eq(tw_reqslots_init(&s, 16), TW_OK);
	ck_assert_int_eq(tw_reqslots_sync(&s, same, k, ch, &n, &left), TW_OK);
	ck_assert_uint_eq(n, TW_REQLAT_DEV_PROBE);
	ck_assert_uint_eq(left, 1);
	for (k = 0; k < TW_REQLAT_DEV_PROBE; k++) {
		ck_assert_uint_eq(ch[k].entry, (h0 + k) % TW_REQLAT_DEV_ENTRIES);
		ck_assert_int_ge(tw_reqslots_find(&s, 8, same[k].minor, NULL), 0);
	}
}
END_TEST

static void
put_hist(unsigned char *buf, unsigned cpu, const struct tw_reqlat_hist *h)
{
	memcpy(buf + cpu * TW_REQLAT_STRIDE, h, sizeof(*h));
}

START_TEST(test_decode_sums_cpus)
{
	static unsigned char buf[3 * TW_REQLAT_STRIDE];
	static struct tw_reqlat_hist a, b, c;
	static struct tw_reqlat_series out;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	a.bucket[5] = 3;
	a.bucket[100] = 0xfffffffeu;	/* wrapping: counters modulo 2^32 */
	a.sum_ns = 1000;
	a.max_epoch[1] = 7;
	a.max_ns[1] = 900;
	b.bucket[5] = 2;
	b.bucket[100] = 5;
	b.sum_ns = 2000;
	b.max_epoch[1] = 7;
	b.max_ns[1] = 1500;
	/* c's largest request is of another epoch: not this interval's. */
	c.max_epoch[1] = 5;
	c.max_ns[1] = 99999;
	c.max_epoch[0] = 8;
	c.max_ns[0] = 88888;
	put_hist(buf, 0, &a);
	put_hist(buf, 1, &b);
	put_hist(buf, 2, &c);
	ck_assert_int_eq(tw_reqlat_decode(buf, sizeof(buf), 3, 7, &out), TW_OK);
	ck_assert_uint_eq(out.bucket[5], 5);
	ck_assert_uint_eq(out.bucket[100], 3);
	ck_assert_uint_eq(out.sum_ns, 3000);
	ck_assert_uint_eq(out.max_ns, 1500);
	ck_assert_int_eq(tw_reqlat_decode(buf, sizeof(buf), 3, 8, &out), TW_OK);
	ck_assert_uint_eq(out.max_ns, 88888);
	/* A length that is not ncpus values. */
	ck_assert_int_eq(tw_reqlat_decode(buf, sizeof(buf) - 1, 3, 7, &out), TW_E_INVAL);
	ck_assert_uint_eq(out.sum_ns, 0);
	ck_assert_int_eq(tw_reqlat_decode(buf, sizeof(buf), 2, 7, &out), TW_E_INVAL);
	ck_assert_int_eq(tw_reqlat_decode(buf, 0, 0, 7, &out), TW_E_INVAL);
}
END_TEST

START_TEST(test_decode_counter)
{
	uint64_t v[2] = { 5, 7 }, out;

	ck_assert_int_eq(tw_reqlat_decode_counter(v, sizeof(v), 2, &out), TW_OK);
	ck_assert_uint_eq(out, 12);
	ck_assert_int_eq(tw_reqlat_decode_counter(v, sizeof(v), 3, &out), TW_E_INVAL);
}
END_TEST

START_TEST(test_conf_lines)
{
	char err[160];
	unsigned n;
	int on;

	ck_assert_int_eq(tw_reqlatconf_switch(" yes ", &on, err, sizeof(err)), TW_OK);
	ck_assert_int_eq(on, 1);
	ck_assert_int_eq(tw_reqlatconf_switch("no", &on, err, sizeof(err)), TW_OK);
	ck_assert_int_eq(on, 0);
	ck_assert_int_eq(tw_reqlatconf_switch("yes please", &on, err, sizeof(err)), TW_E_INVAL);
	ck_assert_str_eq(err, "requestLatency wants yes or no, not 'yes please'");
	ck_assert_int_eq(tw_reqlatconf_switch("", &on, err, sizeof(err)), TW_E_INVAL);
	/* A message stays one line, whatever the value holds. */
	ck_assert_int_eq(tw_reqlatconf_switch("y\nes\x01", &on, err, sizeof(err)), TW_E_INVAL);
	ck_assert_str_eq(err, "requestLatency wants yes or no, not 'y?es?'");
	ck_assert_int_eq(tw_reqlatconf_devices("64", &n, err, sizeof(err)), TW_OK);
	ck_assert_uint_eq(n, 64);
	ck_assert_int_eq(tw_reqlatconf_devices("1", &n, err, sizeof(err)), TW_OK);
	ck_assert_int_eq(tw_reqlatconf_devices("128", &n, err, sizeof(err)), TW_OK);
	ck_assert_int_eq(tw_reqlatconf_devices("129", &n, err, sizeof(err)), TW_E_INVAL);
	ck_assert_str_eq(err, "requestLatencyDevices wants 1 to 128 devices, not '129'");
	ck_assert_int_eq(tw_reqlatconf_devices("0", &n, err, sizeof(err)), TW_E_INVAL);
	ck_assert_int_eq(tw_reqlatconf_devices("99999999999999999999", &n, err, sizeof(err)),
	    TW_E_INVAL);
	ck_assert_int_eq(tw_reqlatconf_devices("-3", &n, err, sizeof(err)), TW_E_INVAL);
	ck_assert_int_eq(tw_reqlatconf_devices("12 4", &n, err, sizeof(err)), TW_E_INVAL);
	ck_assert_uint_eq(n, 128);
	ck_assert_int_eq(tw_reqlatconf_clock("program", &on, err, sizeof(err)), TW_OK);
	ck_assert_int_eq(on, 1);
	ck_assert_int_eq(tw_reqlatconf_clock(" kernel", &on, err, sizeof(err)), TW_OK);
	ck_assert_int_eq(on, 0);
	ck_assert_int_eq(tw_reqlatconf_clock("tsc", &on, err, sizeof(err)), TW_E_INVAL);
	ck_assert_str_eq(err, "requestLatencyIssueClock wants kernel or program, not 'tsc'");
}
END_TEST

/* Turned off, the source loads nothing and says why; its sample reads
 * nothing. */
START_TEST(test_off)
{
	struct tw_reqlat_config c = { .off = 1, .off_reason = "requestLatency no" };
	struct tw_reqlat *r = tw_reqlat_open(&c);
	struct tw_reqlat_reading rd;
	const char *why;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(tw_reqlat_state(r, &why), TW_REQLAT_OFF);
	ck_assert_str_eq(why, "requestLatency no");
	tw_reqlat_reading_init(&rd);
	ck_assert_int_eq(tw_reqlat_sample(r, two, 2, &rd), TW_E_ABSENT);
	ck_assert_uint_eq(rd.count, 0);
	tw_reqlat_reading_free(&rd);
	tw_reqlat_close(r);
	ck_assert_str_eq(tw_reqlat_state_name(TW_REQLAT_NO_PERMISSION), "no-permission");
	ck_assert_str_eq(tw_reqlat_state_name(TW_REQLAT_NSTATES), "unknown");
}
END_TEST

#ifdef TW_HAVE_BPF
/* A kernel without BTF (a path where there is none), and a process that
 * may not load (not root): a state that says so, without a load. */
START_TEST(test_cannot_load)
{
	struct tw_reqlat_config c = { .btf_path = "/nonexistent/tw-i22-btf" };
	struct tw_reqlat *r = tw_reqlat_open(&c);
	const char *why;
	enum tw_reqlat_state st;

	ck_assert_ptr_nonnull(r);
	st = tw_reqlat_state(r, &why);
	if (geteuid() == 0) {
		ck_assert_int_eq(st, TW_REQLAT_NO_BTF);
		ck_assert_msg(strstr(why, "/nonexistent/tw-i22-btf") != NULL, "%s", why);
	} else {
		ck_assert_int_eq(st, TW_REQLAT_NO_PERMISSION);
		ck_assert_msg(strstr(why, "CAP_BPF") != NULL, "%s", why);
	}
	tw_reqlat_close(r);
	c.btf_path = NULL;
	c.devices = TW_REQLAT_MAX_DEVICES + 1;
	r = tw_reqlat_open(&c);
	ck_assert_int_eq(tw_reqlat_state(r, &why), TW_REQLAT_LOAD_FAILED);
	tw_reqlat_close(r);
}
END_TEST
#else
/* A build without libbpf: a source that says so, and reads nothing. */
START_TEST(test_not_built)
{
	struct tw_reqlat *r = tw_reqlat_open(NULL);
	struct tw_reqlat_reading rd;
	const char *why;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(tw_reqlat_state(r, &why), TW_REQLAT_NOT_BUILT);
	ck_assert_ptr_nonnull(strstr(why, "built without libbpf"));
	tw_reqlat_reading_init(&rd);
	ck_assert_int_eq(tw_reqlat_sample(r, two, 2, &rd), TW_E_ABSENT);
	tw_reqlat_reading_free(&rd);
	tw_reqlat_close(r);
}
END_TEST
#endif

START_TEST(test_map_bytes)
{
	/* 32 devices, 2 CPUs: 4 histograms of 1504 bytes each a CPU, the
	 * 256 KiB of starts, the device table. */
	ck_assert_uint_eq(TW_REQLAT_STRIDE, 1504);
	ck_assert_uint_eq(tw_reqlat_map_bytes(32, 2), 32 * 4 * 2 * 1504 + 8 + 256 * 8 +
	    4096 * 4 * 16 + 2 * 8);
}
END_TEST

static Suite *
reqlat_suite(void)
{
	Suite *s = suite_create("reqlat");
	TCase *tc = tcase_create("core");

	/* A hang detector, as CK_DEFAULT_TIMEOUT (tests/local.mk): 60 s was
	 * passed at a load average of 21. */
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_bucket_is_the_histograms);
	tcase_add_test(tc, test_slots_come_and_go);
	tcase_add_test(tc, test_slots_refuse_and_limit);
	tcase_add_test(tc, test_slots_share_a_hash);
	tcase_add_test(tc, test_decode_sums_cpus);
	tcase_add_test(tc, test_decode_counter);
	tcase_add_test(tc, test_conf_lines);
	tcase_add_test(tc, test_off);
#ifdef TW_HAVE_BPF
	tcase_add_test(tc, test_cannot_load);
#else
	tcase_add_test(tc, test_not_built);
#endif
	tcase_add_test(tc, test_map_bytes);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tw_run_suite(reqlat_suite());
}
