/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "reqlat/reqlatconf.h"

#include <linux/types.h>
#include <stdio.h>
#include <string.h>

#include "reqlat/reqlat.h"
#include "util/error.h"

/* The value without the blanks around it: its start and length. */
static size_t
trim(const char *value, const char **start)
{
	const char *s = value, *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		e--;
	*start = s;
	return (size_t)(e - s);
}

/* The value as an error message quotes it: at most 32 bytes, anything
 * but printable ASCII shown as '?', so that a message stays one line. */
static const char *
quoted(const char *s, size_t n, char *buf, size_t len)
{
	size_t i;

	if (n > 32)
		n = 32;
	if (n >= len)
		n = len - 1;
	for (i = 0; i < n; i++)
		buf[i] = (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f ? s[i] : '?';
	buf[n] = '\0';
	return buf;
}

int
tw_reqlatconf_switch(const char *value, int *on, char *err, size_t errlen)
{
	const char *s;
	size_t n = trim(value, &s);
	char q[40];

	if (n == 3 && memcmp(s, "yes", 3) == 0) {
		*on = 1;
		return TW_OK;
	}
	if (n == 2 && memcmp(s, "no", 2) == 0) {
		*on = 0;
		return TW_OK;
	}
	snprintf(err, errlen, "requestLatency wants yes or no, not '%s'",
	    quoted(s, n, q, sizeof(q)));
	return TW_E_INVAL;
}

int
tw_reqlatconf_clock(const char *value, int *program, char *err, size_t errlen)
{
	const char *s;
	size_t n = trim(value, &s);
	char q[40];

	if (n == 6 && memcmp(s, "kernel", 6) == 0) {
		*program = 0;
		return TW_OK;
	}
	if (n == 7 && memcmp(s, "program", 7) == 0) {
		*program = 1;
		return TW_OK;
	}
	snprintf(err, errlen, "requestLatencyIssueClock wants kernel or program, not '%s'",
	    quoted(s, n, q, sizeof(q)));
	return TW_E_INVAL;
}

int
tw_reqlatconf_devices(const char *value, unsigned *out, char *err, size_t errlen)
{
	const char *s;
	size_t n = trim(value, &s), i;
	unsigned long v = 0;
	char q[40];

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > TW_REQLAT_MAX_DEVICES) {
			v = 0;
			break;
		}
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (n == 0 || v < 1 || v > TW_REQLAT_MAX_DEVICES) {
		snprintf(err, errlen, "requestLatencyDevices wants 1 to %u devices, not '%s'",
		    TW_REQLAT_MAX_DEVICES, quoted(s, n, q, sizeof(q)));
		return TW_E_INVAL;
	}
	*out = (unsigned)v;
	return TW_OK;
}
