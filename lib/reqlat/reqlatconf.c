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

int
tw_reqlatconf_switch(const char *value, int *on, char *err, size_t errlen)
{
	const char *s;
	size_t n = trim(value, &s);

	if (n == 3 && memcmp(s, "yes", 3) == 0) {
		*on = 1;
		return TW_OK;
	}
	if (n == 2 && memcmp(s, "no", 2) == 0) {
		*on = 0;
		return TW_OK;
	}
	snprintf(err, errlen, "requestLatency wants yes or no, not '%.*s'",
	    (int)(n > 32 ? 32 : n), s);
	return TW_E_INVAL;
}

int
tw_reqlatconf_clock(const char *value, int *own, char *err, size_t errlen)
{
	const char *s;
	size_t n = trim(value, &s);

	if (n == 6 && memcmp(s, "kernel", 6) == 0) {
		*own = 0;
		return TW_OK;
	}
	if (n == 7 && memcmp(s, "program", 7) == 0) {
		*own = 1;
		return TW_OK;
	}
	snprintf(err, errlen, "requestLatencyIssueClock wants kernel or program, not '%.*s'",
	    (int)(n > 32 ? 32 : n), s);
	return TW_E_INVAL;
}

int
tw_reqlatconf_devices(const char *value, unsigned *out, char *err, size_t errlen)
{
	const char *s;
	size_t n = trim(value, &s), i;
	unsigned long v = 0;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > TW_REQLAT_MAX_DEVICES) {
			v = 0;
			break;
		}
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (n == 0 || v < 1 || v > TW_REQLAT_MAX_DEVICES) {
		snprintf(err, errlen, "requestLatencyDevices wants 1 to %u devices, not '%.*s'",
		    TW_REQLAT_MAX_DEVICES, (int)(n > 32 ? 32 : n), s);
		return TW_E_INVAL;
	}
	*out = (unsigned)v;
	return TW_OK;
}
