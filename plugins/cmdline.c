/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "cmdline.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "help.h"
#include "util/error.h"

enum {
	OPT_LOCAL = 500,
	OPT_DELAY,
	OPT_PROC_ROOT,
	OPT_SYS_ROOT,
	OPT_OS,
	OPT_TIMEOUT_RESULT,
	OPT_EXTRA_OPTS,
};

static const struct option common_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "hostname", required_argument, NULL, 'H' },
	{ "port", required_argument, NULL, 'p' },
	{ "protocol", required_argument, NULL, 'P' },
	{ "community", required_argument, NULL, 'C' },
	{ "seclevel", required_argument, NULL, 'L' },
	{ "secname", required_argument, NULL, 'U' },
	{ "authproto", required_argument, NULL, 'a' },
	{ "authpasswd", required_argument, NULL, 'A' },
	{ "privproto", required_argument, NULL, 'x' },
	{ "privpasswd", required_argument, NULL, 'X' },
	{ "warning", required_argument, NULL, 'w' },
	{ "critical", required_argument, NULL, 'c' },
	{ "timeout", required_argument, NULL, 't' },
	{ "timeout-result", required_argument, NULL, OPT_TIMEOUT_RESULT },
	{ "local", no_argument, NULL, OPT_LOCAL },
	{ "delay", required_argument, NULL, OPT_DELAY },
	{ "proc-root", required_argument, NULL, OPT_PROC_ROOT },
	{ "sys-root", required_argument, NULL, OPT_SYS_ROOT },
	{ "os", required_argument, NULL, OPT_OS },
	{ "extra-opts", optional_argument, NULL, OPT_EXTRA_OPTS },
};

#define NCOMMON (sizeof(common_longopts) / sizeof(common_longopts[0]))

void
tw_plugin_defaults(const struct tw_check *chk, struct tw_plugin *p)
{
	memset(p, 0, sizeof(*p));
	p->snmp.host = "127.0.0.1";
	p->snmp.port = 161;
	p->snmp.version = 2;
	p->snmp.community = "public";
	p->timeout_s = TW_PLUGIN_DEFAULT_TIMEOUT;
	p->timeout_result = TW_STATE_UNKNOWN;
	p->delay_s = TW_PLUGIN_DEFAULT_DELAY;
	p->os = TW_OS_COUNT;		/* not given: the agent's */
	if (chk->default_warn != NULL)
		tw_threshold_parse(&p->warn, chk->default_warn);
	if (chk->default_crit != NULL)
		tw_threshold_parse(&p->crit, chk->default_crit);
}

static int
parse_uint(const char *arg, unsigned min, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v;

	if (arg == NULL || *arg < '0' || *arg > '9')
		return -1;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

int
tw_plugin_threshold(const char *opt, const char *arg, struct tw_threshold *t, char *err,
    size_t errlen)
{
	/* Empty: no threshold, so that a command of fixed arguments (Nagios'
	 * $ARG2$) can leave one out. */
	if (arg[0] == '\0') {
		memset(t, 0, sizeof(*t));
		return 0;
	}
	if (tw_threshold_parse(t, arg) != TW_OK) {
		snprintf(err, errlen, "%s '%s' is not a range (N, N:, ~:N, N:M or @N:M)", opt, arg);
		return -1;
	}
	return 0;
}

int
tw_plugin_filter(const char *opt, const char *arg, struct tw_namefilter *f,
    enum tw_namefilter_side side, char *err, size_t errlen)
{
	char msg[128];

	if (tw_namefilter_set(f, side, arg, msg, sizeof(msg)) != TW_OK) {
		snprintf(err, errlen, "%s '%s' is not a regular expression: %s", opt, arg, msg);
		return -1;
	}
	return 0;
}

int
tw_plugin_parse_args(const struct tw_check *chk, struct tw_plugin *p, int argc, char **argv, char *err,
    size_t errlen)
{
	struct option longopts[NCOMMON + 32];
	size_t n = 0, i;
	unsigned port;
	int c;

	for (i = 0; i < NCOMMON; i++)
		longopts[n++] = common_longopts[i];
	for (i = 0; chk->longopts != NULL && chk->longopts[i].name != NULL && n < NCOMMON + 31; i++)
		longopts[n++] = chk->longopts[i];
	memset(&longopts[n], 0, sizeof(longopts[n]));

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hVvH:p:P:C:L:U:a:A:x:X:w:c:t:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'h':
			tw_plugin_print_help(chk);
			exit(TW_STATE_UNKNOWN);
		case 'V':
			tw_plugin_print_version(chk);
			exit(TW_STATE_UNKNOWN);
		case 'v':
			p->verbose++;
			break;
		case 'H':
			if (optarg[0] == '\0') {
				snprintf(err, errlen, "-H needs a host name or address");
				return -1;
			}
			p->snmp.host = optarg;
			break;
		case 'p':
			if (parse_uint(optarg, 1, 65535, &port) != 0) {
				snprintf(err, errlen, "-p '%s' is not a port (1 to 65535)", optarg);
				return -1;
			}
			p->snmp.port = port;
			break;
		case 'P':
			if (strcmp(optarg, "1") == 0)
				p->snmp.version = 1;
			else if (strcmp(optarg, "2c") == 0 || strcmp(optarg, "2") == 0)
				p->snmp.version = 2;
			else if (strcmp(optarg, "3") == 0)
				p->snmp.version = 3;
			else {
				snprintf(err, errlen, "-P '%s' is not an SNMP version (1, 2c or 3)",
				    optarg);
				return -1;
			}
			break;
		case 'C':
			p->snmp.community = optarg;
			break;
		case 'L':
			if (strcmp(optarg, "noAuthNoPriv") != 0 && strcmp(optarg, "authNoPriv") != 0 &&
			    strcmp(optarg, "authPriv") != 0) {
				snprintf(err, errlen, "-L '%s' is not a security level (noAuthNoPriv, "
				    "authNoPriv or authPriv)", optarg);
				return -1;
			}
			p->snmp.seclevel = optarg;
			break;
		case 'U':
			p->snmp.secname = optarg;
			break;
		case 'a':
			p->snmp.authproto = optarg;
			break;
		case 'A':
			p->snmp.authpass = optarg;
			break;
		case 'x':
			p->snmp.privproto = optarg;
			break;
		case 'X':
			p->snmp.privpass = optarg;
			break;
		case 'w':
			if (tw_plugin_threshold("-w", optarg, &p->warn, err, errlen) != 0)
				return -1;
			break;
		case 'c':
			if (tw_plugin_threshold("-c", optarg, &p->crit, err, errlen) != 0)
				return -1;
			break;
		case 't':
			if (parse_uint(optarg, 1, 3600, &p->timeout_s) != 0) {
				snprintf(err, errlen, "-t '%s' is not a timeout (1 to 3600 seconds)",
				    optarg);
				return -1;
			}
			break;
		case OPT_TIMEOUT_RESULT:
			if (tw_state_parse(optarg, &p->timeout_result) != TW_OK) {
				snprintf(err, errlen, "--timeout-result '%s' is not a state (OK, "
				    "WARNING, CRITICAL or UNKNOWN)", optarg);
				return -1;
			}
			break;
		case OPT_LOCAL:
			p->local = 1;
			break;
		case OPT_DELAY:
			if (parse_uint(optarg, 1, 3600, &p->delay_s) != 0) {
				snprintf(err, errlen, "--delay '%s' is not a number of seconds", optarg);
				return -1;
			}
			break;
		case OPT_PROC_ROOT:
			p->proc_root = optarg;
			break;
		case OPT_SYS_ROOT:
			p->sys_root = optarg;
			break;
		case OPT_OS:
			if (strcmp(optarg, "linux") == 0)
				p->os = TW_OS_LINUX;
			else if (strcmp(optarg, "freebsd") == 0)
				p->os = TW_OS_FREEBSD;
			else if (strcmp(optarg, "svr4") == 0)
				p->os = TW_OS_SVR4;
			else {
				snprintf(err, errlen, "--os '%s' is not linux, freebsd or svr4",
				    optarg);
				return -1;
			}
			break;
		case OPT_EXTRA_OPTS:
			/* tw_extraopts_expand() has already read it. */
			break;
		case ':':
			snprintf(err, errlen, "option '%s' needs an argument", argv[optind - 1]);
			return -1;
		case '?':
			snprintf(err, errlen, "unknown option '%s' (try --help)", argv[optind - 1]);
			return -1;
		default:
			if (c >= TW_OPT_CHECK && chk->option != NULL) {
				if (chk->option(c, optarg, err, errlen) != 0)
					return -1;
				break;
			}
			snprintf(err, errlen, "unknown option '%s' (try --help)", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (try --help)", argv[optind]);
		return -1;
	}
	if (p->local && p->delay_s >= p->timeout_s) {
		snprintf(err, errlen, "--delay (%u s) must be shorter than -t (%u s)", p->delay_s,
		    p->timeout_s);
		return -1;
	}
	return 0;
}
