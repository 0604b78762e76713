/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "report.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "util/error.h"

static char timeout_line[512];
static size_t timeout_len;
static int timeout_code = TW_STATE_UNKNOWN;

static void
on_alarm(int sig)
{
	ssize_t n;

	(void)sig;
	/* Only async-signal-safe calls: the line was written beforehand. */
	n = write(STDOUT_FILENO, timeout_line, timeout_len);
	(void)n;
	_exit(timeout_code);
}

void
tw_plugin_arm_timeout(const struct tw_check *chk, const struct tw_plugin *p)
{
	struct sigaction sa;
	int n;

	/* The agent as every other UNKNOWN line names it, host and port:
	 * where start-up is slow (a busy machine) this alarm, and not the
	 * SNMP library's own timeout, ends the check. */
	if (p->local)
		n = snprintf(timeout_line, sizeof(timeout_line),
		    "%s %s - plugin timed out after %u s\n", chk->service,
		    tw_state_name(p->timeout_result), p->timeout_s);
	else
		n = snprintf(timeout_line, sizeof(timeout_line),
		    "%s %s - plugin timed out after %u s (SNMP agent %s:%u)\n",
		    chk->service, tw_state_name(p->timeout_result), p->timeout_s,
		    p->snmp.host, p->snmp.port);
	timeout_len = n > 0 && (size_t)n < sizeof(timeout_line) ? (size_t)n : 0;
	timeout_code = (int)p->timeout_result;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(p->timeout_s);
}

int
tw_plugin_finish(const char *text, size_t len, int code)
{
	size_t off = 0;

	alarm(0);
	while (off < len) {
		ssize_t n = write(STDOUT_FILENO, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	return code;
}

/* One line, "SERVICE STATE - message", and the state as the exit code. */
static int
vreport(const struct tw_check *chk, enum tw_state st, const char *fmt, va_list ap)
{
	char msg[600], line[700];
	int n;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = snprintf(line, sizeof(line), "%s %s - %s\n", chk->service, tw_state_name(st), msg);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1;
	return tw_plugin_finish(line, (size_t)n, (int)st);
}

int
tw_plugin_unknown(const struct tw_check *chk, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vreport(chk, TW_STATE_UNKNOWN, fmt, ap);
	va_end(ap);
	return rc;
}

int
tw_plugin_fetch_failed(const struct tw_check *chk, const struct tw_plugin *p, int rc, const char *fmt,
    ...)
{
	va_list ap;
	int code;

	va_start(ap, fmt);
	code = vreport(chk, rc == TW_E_TIMEOUT ? p->timeout_result : TW_STATE_UNKNOWN, fmt, ap);
	va_end(ap);
	return code;
}

const char *
tw_plugin_num(char *buf, size_t len, double v, unsigned precision)
{
	if (tw_perf_number(v, precision, buf, len) != TW_OK)
		snprintf(buf, len, "?");
	return buf;
}
