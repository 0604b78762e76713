/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for what the request-latency source parses and keeps:
 * its tunewatchd.conf lines (lib/reqlat/reqlatconf.c), the map values the
 * kernel hands back (lib/reqlat/reqdecode.c) as a byte stream of entries
 * that then go through the window (lib/reqlat/reqwin.c) into the view's
 * tables (lib/view/viewreqlat.c), and the slots given and taken as wanted
 * devices come and go (lib/reqlat/reqslots.c).
 *
 * The first byte picks the part. Checked: a line that parses prints back
 * to itself; decoded entries never crash and keep the buckets' sum
 * modulo 2^32; the view's rows are only the view's disks', their
 * percentiles ordered below the maximum, the histogram's counts growing
 * to the +Inf row, which is the row's count; after every sync each wanted
 * device has a slot or was counted as left without, and no slot or table
 * entry is shared. */
#include <linux/types.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "reqlat/reqdecode.h"
#include "reqlat/reqlat.h"
#include "reqlat/reqlatconf.h"
#include "reqlat/reqslots.h"
#include "util/error.h"
#include "view/view.h"
#include "reqlat/reqwin.h"
#include "view/build_priv.h"

static void
conf_lines(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[200], back[16];
	unsigned n, again;
	int on, program, x;

	if (text == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	if (tw_reqlatconf_switch(text, &on, err, sizeof(err)) == TW_OK) {
		FUZZ_ASSERT(on == 0 || on == 1);
		FUZZ_ASSERT(tw_reqlatconf_switch(on ? "yes" : "no", &x, err, sizeof(err)) == TW_OK &&
		    x == on);
	} else {
		FUZZ_ASSERT(err[0] != '\0' && strchr(err, '\n') == NULL);
	}
	if (tw_reqlatconf_clock(text, &program, err, sizeof(err)) == TW_OK)
		FUZZ_ASSERT(program == 0 || program == 1);
	if (tw_reqlatconf_devices(text, &n, err, sizeof(err)) == TW_OK) {
		FUZZ_ASSERT(n >= 1 && n <= TW_REQLAT_MAX_DEVICES);
		snprintf(back, sizeof(back), "%u", n);
		FUZZ_ASSERT(tw_reqlatconf_devices(back, &again, err, sizeof(err)) == TW_OK &&
		    again == n);
	} else {
		FUZZ_ASSERT(strchr(err, '\n') == NULL);
	}
	free(text);
}

static void
check_view(const struct tw_view *v)
{
	size_t i, k = 0;

	for (i = 0; i < v->nreqlats; i++) {
		const struct tw_view_reqlat *r = &v->reqlats[i];
		uint64_t count = r->col[TW_OID_REQLAT_COUNT], last = 0;
		int found = 0;
		size_t d;

		for (d = 0; d < v->ndisks; d++)
			found |= v->disks[d].major == r->major && v->disks[d].minor == r->minor;
		FUZZ_ASSERT(found);
		if (tw_view_has(r, TW_OID_REQLAT_P99)) {
			FUZZ_ASSERT(r->col[TW_OID_REQLAT_P50] <= r->col[TW_OID_REQLAT_P90]);
			FUZZ_ASSERT(r->col[TW_OID_REQLAT_P90] <= r->col[TW_OID_REQLAT_P99]);
			FUZZ_ASSERT(r->col[TW_OID_REQLAT_P99] <= r->col[TW_OID_REQLAT_MAX]);
		}
		if (count == 0)
			continue;
		/* Its histogram rows follow, in order, up to +Inf. */
		for (; k < v->nreqhists && v->reqhists[k].major == r->major &&
		    v->reqhists[k].minor == r->minor && v->reqhists[k].dir == r->dir; k++) {
			FUZZ_ASSERT(v->reqhists[k].col[TW_OID_REQHIST_COUNT] >= last);
			last = v->reqhists[k].col[TW_OID_REQHIST_COUNT];
		}
		FUZZ_ASSERT(k > 0 && v->reqhists[k - 1].bound == TW_REQHIST_INF);
		FUZZ_ASSERT(last == (count > UINT32_MAX ? UINT32_MAX : count));
	}
	FUZZ_ASSERT(k == v->nreqhists);
}

/* Entries of ncpus values each, for up to two devices read in turn; every
 * fourth entry a new reading pushed into the window. */
static void
map_entries(const uint8_t *data, size_t size)
{
	static struct tw_reqlat_device devs[2];
	struct tw_reqlat_reading rd = { devs, 0, 2, 0, 0 };
	unsigned ncpus, k = 0;
	uint32_t epoch;
	uint64_t now = 1000;
	struct tw_reqwin w;
	struct tw_view v;
	size_t len, off;

	if (size < 5)
		return;
	ncpus = 1 + data[0] % 4;
	memcpy(&epoch, data + 1, sizeof(epoch));
	data += 5;
	size -= 5;
	len = (size_t)ncpus * TW_REQLAT_STRIDE;
	memset(devs, 0, sizeof(devs));
	devs[0].major = 7;
	devs[1].major = 8;
	FUZZ_ASSERT(tw_reqwin_init(&w, 3) == TW_OK);
	tw_view_init(&v);
	FUZZ_ASSERT(tw_view_reserve_disks(&v, 1) == TW_OK);
	memset(&v.disks[0], 0, sizeof(v.disks[0]));
	v.disks[0].major = 7;
	v.ndisks = 1;
	/* A short tail is a short value, which the decoder refuses. */
	if (size % len != 0)
		FUZZ_ASSERT(tw_reqlat_decode(data + size - size % len, size % len, ncpus, epoch,
		    &devs[0].s[0][0]) == TW_E_INVAL);
	for (off = 0; off + len <= size; off += len, k++) {
		struct tw_reqlat_series *s = &devs[(k / 4) & 1].s[(k / 2) & 1][k & 1];
		uint32_t sum = 0, want = 0;
		unsigned b, cpu;

		FUZZ_ASSERT(tw_reqlat_decode(data + off, len, ncpus, epoch + k, s) == TW_OK);
		for (cpu = 0; cpu < ncpus; cpu++)
			for (b = 0; b < TW_REQLAT_BUCKETS; b++) {
				uint32_t x;

				memcpy(&x, data + off + cpu * TW_REQLAT_STRIDE +
				    offsetof(struct tw_reqlat_hist, bucket) + b * sizeof(x), sizeof(x));
				want += x;
			}
		for (b = 0; b < TW_HIST_BUCKETS; b++)
			sum += s->bucket[b];
		FUZZ_ASSERT(sum == want);
		if (k % 4 == 3) {
			/* A device's slot number from the stream: sometimes new. */
			devs[k & 4 ? 1 : 0].gen = data[off] & 1;
			rd.count = 1 + (data[off + 1] & 1);
			FUZZ_ASSERT(tw_reqwin_push(&w, &rd, now) == TW_OK);
			now += 1 + data[off + 2];
			FUZZ_ASSERT(tw_view_build_reqlat(&v, &w, 1) == TW_OK);
			check_view(&v);
		}
	}
	tw_view_free(&v);
	tw_reqwin_free(&w);
}

/* Each byte a device (major 8, minor its value) wanted or not, a sync per
 * 16 bytes. */
static void
slots(const uint8_t *data, size_t size)
{
	static struct tw_reqslots s;
	struct tw_reqslot_change ch[TW_REQSLOTS_MAX_CHANGES];
	struct tw_reqlat_want want[16];
	size_t off, n, nch, left, i, j;

	if (size < 1)
		return;
	FUZZ_ASSERT(tw_reqslots_init(&s, 1 + data[0] % 8) == TW_OK);
	for (off = 1; off < size; off += 16) {
		uint8_t seen[256] = { 0 };
		size_t have = 0;

		n = 0;
		for (i = off; i < size && i < off + 16; i++)
			seen[data[i]] = 1;
		for (i = 0; i < 256; i++)
			if (seen[i] && n < 16)
				want[n++] = (struct tw_reqlat_want){ 8, (uint32_t)i };
		FUZZ_ASSERT(tw_reqslots_sync(&s, want, n, ch, &nch, &left) == TW_OK);
		FUZZ_ASSERT(nch <= TW_REQSLOTS_MAX_CHANGES);
		for (i = 0; i < n; i++)
			have += tw_reqslots_find(&s, 8, want[i].minor, NULL) >= 0;
		FUZZ_ASSERT(have + left == n);
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				int a = tw_reqslots_find(&s, 8, want[i].minor, NULL);

				FUZZ_ASSERT(a < 0 || a != tw_reqslots_find(&s, 8, want[j].minor, NULL));
			}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	switch (data[0] % 3) {
	case 0:
		conf_lines(data + 1, size - 1);
		break;
	case 1:
		map_entries(data + 1, size - 1);
		break;
	default:
		slots(data + 1, size - 1);
		break;
	}
	return 0;
}
