/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for tw_sysctl_field (lib/collect/sysctl.c).
 *
 * The first byte picks the field (0xff stands for UINT_MAX, the largest
 * index there is); the rest, up to a NUL, is the value. The answer is
 * checked against a second, independent reading: the n-th blank-separated
 * token, which must be -?[0-9]+ and fit 64 bits, converted with strtoll. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "collect/sysctl.h"
#include "util/error.h"

/* Whether len digits exceed 2^64-1. tw_parse_u64 (lib/util/scan.c) stops with
 * TW_E_RANGE as soon as its digits overflow, before it looks at what
 * follows, so "99999999999999999999x" is out of range, not invalid. */
static int
digits_overflow(const char *d, size_t len)
{
	static const char max[] = "18446744073709551615";
	size_t i = 0;

	while (i + 1 < len && d[i] == '0')
		i++;
	if (len - i != sizeof(max) - 1)
		return len - i > sizeof(max) - 1;
	return memcmp(d + i, max, len - i) > 0;
}

/* The n-th token of text: TW_OK, TW_E_INVAL or TW_E_RANGE, like the code
 * under test, but by other means. */
static int
expected_field(const char *text, unsigned n, long long *out)
{
	const char *p = text, *tok = NULL;
	size_t len = 0, lead, i;
	unsigned k;
	char buf[64], *end;

	for (k = 0;; k++) {
		p += strspn(p, " \t");
		if (*p == '\0')
			return TW_E_INVAL;
		tok = p;
		len = strcspn(p, " \t");
		p += len;
		if (k == n)
			break;
	}
	lead = tok[0] == '-' ? 1 : 0;
	if (lead == len)
		return TW_E_INVAL;
	for (i = lead; i < len; i++)
		if (tok[i] < '0' || tok[i] > '9')
			return digits_overflow(tok + lead, i - lead) ? TW_E_RANGE : TW_E_INVAL;
	/* Leading zeros do not change the value; keep strtoll's input short. */
	if (len >= sizeof(buf)) {
		size_t z = lead;

		while (z + 1 < len && tok[z] == '0')
			z++;
		if (len - z + lead >= sizeof(buf))
			return TW_E_RANGE;
		buf[0] = '-';
		memcpy(buf + lead, tok + z, len - z);
		buf[lead + len - z] = '\0';
	} else {
		memcpy(buf, tok, len);
		buf[len] = '\0';
	}
	errno = 0;
	*out = strtoll(buf, &end, 10);
	FUZZ_ASSERT(*end == '\0');
	return errno == ERANGE ? TW_E_RANGE : TW_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned n;
	char *text;
	int64_t got = 0;
	long long want = 0;
	int rc, want_rc;

	if (size < 1)
		return 0;
	n = data[0] == 0xff ? UINT_MAX : data[0];
	text = fuzz_strndup(data + 1, size - 1);
	rc = tw_sysctl_field(text, n, &got);
	want_rc = expected_field(text, n, &want);
	FUZZ_ASSERT(rc == want_rc);
	if (rc == TW_OK)
		FUZZ_ASSERT(got == (int64_t)want);
	free(text);
	return 0;
}
