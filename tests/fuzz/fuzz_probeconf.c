/* SPDX-License-Identifier: ISC */
#include "config.h"

/* libFuzzer target for the probe's text: the probe, probeTimeout and
 * probeIdleTime lines of tunewatchd.conf (lib/probe/probeconf.c) and the
 * sysfs files a probed device is watched through (lib/probe/probedev.c:
 * block/<dev>/dev and block/<dev>/stat).
 *
 * The first byte picks the parser; the rest is the text, copied with a
 * terminator of its own (Net-SNMP hands the config parsers a C string).
 * It checks that an accepted probe line has a printable device without
 * blanks and a rate of 1 to 10 and that the line printed back parses to
 * itself; that seconds are within their bounds; and that an accepted
 * "major:minor" prints back as itself. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "probe/probe.h"
#include "probe/probeconf.h"
#include "probe/probedev.h"
#include "util/error.h"

static void
probe_line(const char *text)
{
	struct tw_probe_spec spec, again;
	char err[200], line[TW_PROBE_SPEC_LEN + 16];
	size_t i, n;
	int rc = tw_probeconf_parse(text, &spec, err, sizeof(err));

	FUZZ_ASSERT(rc == TW_OK || rc == TW_E_INVAL);
	if (rc != TW_OK) {
		FUZZ_ASSERT(err[0] != '\0' && strchr(err, '\n') == NULL);
		return;
	}
	n = strlen(spec.device);
	FUZZ_ASSERT(n > 0 && n < sizeof(spec.device));
	for (i = 0; i < n; i++)
		FUZZ_ASSERT(spec.device[i] > ' ' && spec.device[i] < 0x7f);
	FUZZ_ASSERT(spec.rate >= 1 && spec.rate <= TW_PROBE_MAX_RATE);
	snprintf(line, sizeof(line), "%s %u", spec.device, spec.rate);
	FUZZ_ASSERT(tw_probeconf_parse(line, &again, err, sizeof(err)) == TW_OK);
	FUZZ_ASSERT(strcmp(again.device, spec.device) == 0 && again.rate == spec.rate);
}

static void
seconds(const char *text, unsigned lo, unsigned hi)
{
	unsigned v = 12345678;

	if (tw_probeconf_seconds(text, lo, hi, &v) == TW_OK)
		FUZZ_ASSERT(v >= lo && v <= hi);
	else
		FUZZ_ASSERT(v == 12345678);
}

static void
dev(const char *text)
{
	uint32_t maj, min, maj2, min2;
	char back[32];

	if (tw_probedev_parse_dev(text, &maj, &min) != TW_OK)
		return;
	snprintf(back, sizeof(back), "%u:%u", maj, min);
	FUZZ_ASSERT(tw_probedev_parse_dev(back, &maj2, &min2) == TW_OK);
	FUZZ_ASSERT(maj == maj2 && min == min2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t ios;
	char *text;

	if (size < 1)
		return 0;
	text = malloc(size);
	if (text == NULL)
		abort();
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] % 4) {
	case 0:
		probe_line(text);
		break;
	case 1:
		seconds(text, 1, TW_PROBE_MAX_TIMEOUT_S);
		seconds(text, 0, 604800);
		break;
	case 2:
		dev(text);
		break;
	default:
		if (tw_probedev_parse_stat(text, &ios) != TW_OK)
			ios = 0;
		break;
	}
	free(text);
	return 0;
}
