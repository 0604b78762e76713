/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "probe/probeconf.h"

#include <stdio.h>
#include <string.h>

#include "probe/probe.h"
#include "util/error.h"

static int
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The next word of *s: its start and length; *s moves past it. */
static size_t
word(const char **s, const char **start)
{
	const char *p = *s;
	size_t n = 0;

	while (blank(*p))
		p++;
	*start = p;
	while (p[n] != '\0' && !blank(p[n]))
		n++;
	*s = p + n;
	return n;
}

/* A whole number of at most 9 digits (no sign, no blanks). */
static int
number(const char *s, size_t n, unsigned long *out)
{
	unsigned long v = 0;
	size_t i;

	if (n == 0 || n > 9)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	*out = v;
	return 0;
}

int
tw_probeconf_parse(const char *value, struct tw_probe_spec *out, char *err, size_t errlen)
{
	const char *s = value, *dev, *rate, *extra;
	size_t ndev, nrate, nextra, i;
	unsigned long r = TW_PROBE_DEFAULT_RATE;

	memset(out, 0, sizeof(*out));
	ndev = word(&s, &dev);
	nrate = word(&s, &rate);
	if (ndev == 0) {
		snprintf(err, errlen, "probe wants a device: probe DEVICE [RATE]");
		return TW_E_INVAL;
	}
	if ((nextra = word(&s, &extra)) != 0) {
		snprintf(err, errlen, "probe takes a device and a rate, not '%.*s'",
		    (int)(nextra > 32 ? 32 : nextra), extra);
		return TW_E_INVAL;
	}
	if (ndev >= sizeof(out->device)) {
		snprintf(err, errlen, "probe: the device name is longer than %zu bytes",
		    sizeof(out->device) - 1);
		return TW_E_INVAL;
	}
	for (i = 0; i < ndev; i++) {
		if ((unsigned char)dev[i] < 0x21 || (unsigned char)dev[i] > 0x7e) {
			snprintf(err, errlen, "probe: the device name has a byte that is not "
			    "printable ASCII");
			return TW_E_INVAL;
		}
	}
	if (nrate > 0 && (number(rate, nrate, &r) != 0 || r < 1 || r > TW_PROBE_MAX_RATE)) {
		snprintf(err, errlen, "probe: the rate is 1 to %d reads a second, not '%.*s'",
		    TW_PROBE_MAX_RATE, (int)(nrate > 32 ? 32 : nrate), rate);
		return TW_E_INVAL;
	}
	memcpy(out->device, dev, ndev);
	out->device[ndev] = '\0';
	out->rate = (unsigned)r;
	return TW_OK;
}

int
tw_probeconf_seconds(const char *value, unsigned lo, unsigned hi, unsigned *out)
{
	const char *s = value, *w, *extra;
	size_t n = word(&s, &w);
	unsigned long v;

	if (word(&s, &extra) != 0 || number(w, n, &v) != 0 || v < lo || v > hi)
		return TW_E_INVAL;
	*out = (unsigned)v;
	return TW_OK;
}
