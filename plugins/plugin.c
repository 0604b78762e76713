#include "config.h"

#include "plugin.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "extraopts.h"
#include "monitor.h"
#include "tw_error.h"

#define DEFAULT_TIMEOUT 10
#define DEFAULT_DELAY 3

/* ---- output that is always whole ---------------------------------------- */

static char timeout_line[512];
static size_t timeout_len;
static int timeout_code = TW_STATE_UNKNOWN;

/* Whether the check has asked for advice, which quotes the tunable table. */
static int advice_asked;

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

static void
arm_timeout(const struct tw_check *chk, const struct tw_plugin *p)
{
	struct sigaction sa;
	int n;

	n = snprintf(timeout_line, sizeof(timeout_line),
	    "%s %s - plugin timed out after %u s%s%s%s\n", chk->service,
	    tw_state_name(p->timeout_result), p->timeout_s,
	    p->local ? "" : " (SNMP agent ", p->local ? "" : p->snmp.host,
	    p->local ? "" : ")");
	timeout_len = n > 0 && (size_t)n < sizeof(timeout_line) ? (size_t)n : 0;
	timeout_code = (int)p->timeout_result;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(p->timeout_s);
}

/* Print and exit in one place, with the timeout disarmed first so that a
 * late alarm cannot interleave a second line. */
static int
finish(const char *text, size_t len, int code)
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
	return finish(line, (size_t)n, (int)st);
}

static int
unknown(const struct tw_check *chk, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vreport(chk, TW_STATE_UNKNOWN, fmt, ap);
	va_end(ap);
	return rc;
}

/* A failure to get the figures: UNKNOWN, but an agent that did not answer
 * in time gets --timeout-result, as a plugin that timed out would. */
static int
fetch_failed(const struct tw_check *chk, const struct tw_plugin *p, int rc, const char *fmt,
    ...)
{
	va_list ap;
	int code;

	va_start(ap, fmt);
	code = vreport(chk, rc == TW_E_TIMEOUT ? p->timeout_result : TW_STATE_UNKNOWN, fmt, ap);
	va_end(ap);
	return code;
}

/* ---- help ------------------------------------------------------------------ */

static void
print_version(const struct tw_check *chk)
{
	printf("%s v%s (tunewatch)\n", chk->progname, PACKAGE_VERSION);
}

static void
print_usage(const struct tw_check *chk)
{
	printf("Usage:\n"
	    " %s [-H host] [-p port] [-P 1|2c|3] [-C community]\n"
	    "   [-L seclevel] [-U secname] [-a authproto] [-A authpasswd] [-x privproto]\n"
	    "   [-X privpasswd] [-w range] [-c range] [options] [-t timeout]\n"
	    "   [--timeout-result state] [-v] [--extra-opts [section][@file]]\n"
	    " %s --local [--delay seconds] [--proc-root dir] [--sys-root dir] [options]\n",
	    chk->progname, chk->progname);
}

static void
print_help(const struct tw_check *chk)
{
	print_version(chk);
	printf("Copyright (c) 2026 the tunewatch developers\n\n%s\n\n", chk->purpose);
	print_usage(chk);
	printf("\nOptions:\n"
	    " -h, --help\n"
	    "    Print detailed help screen\n"
	    " -V, --version\n"
	    "    Print version information\n"
	    " --extra-opts=[section][@file]\n"
	    "    Read options from an ini file; see\n"
	    "    https://www.monitoring-plugins.org/doc/extra-opts.html\n"
	    "    Use it for SNMPv3 pass phrases: anything on the command line can be read\n"
	    "    by every local user in the process list (ps).\n"
	    " -H, --hostname=ADDRESS\n"
	    "    Host name or IP address of the SNMP agent (default 127.0.0.1)\n"
	    " -p, --port=INTEGER\n"
	    "    UDP port of the SNMP agent (default 161)\n"
	    " -P, --protocol=[1|2c|3]\n"
	    "    SNMP protocol version (default 2c). SNMPv1 cannot carry Counter64:\n"
	    "    byte rates are then not read and advice that needs them is left out.\n"
	    " -C, --community=STRING\n"
	    "    Community for SNMP v1 and v2c (default public)\n"
	    " -L, --seclevel=[noAuthNoPriv|authNoPriv|authPriv]\n"
	    "    SNMPv3 security level (default noAuthNoPriv)\n"
	    " -U, --secname=USERNAME\n"
	    "    SNMPv3 user name\n"
	    " -a, --authproto=[MD5|SHA|SHA-224|SHA-256|SHA-384|SHA-512]\n"
	    "    SNMPv3 authentication protocol (default SHA)\n"
	    " -A, --authpasswd=PASSWORD\n"
	    "    SNMPv3 authentication pass phrase\n"
	    " -x, --privproto=[DES|AES]\n"
	    "    SNMPv3 privacy protocol (default AES)\n"
	    " -X, --privpasswd=PASSWORD\n"
	    "    SNMPv3 privacy pass phrase\n"
	    " -w, --warning=RANGE\n"
	    "    Warning range for %s%s%s%s\n"
	    " -c, --critical=RANGE\n"
	    "    Critical range for %s%s%s%s\n"
	    "%s"
	    " --local\n"
	    "    Read this host's /proc and /sys instead of SNMP (for NRPE and the Icinga\n"
	    "    agent): two samples --delay seconds apart, computed as tunewatchd does\n"
	    " --delay=SECONDS\n"
	    "    With --local, the time between the two samples (default %d)\n"
	    " --proc-root=DIR, --sys-root=DIR\n"
	    "    With --local, read /proc and /sys from DIR\n"
	    " --os=[linux|freebsd|svr4]\n"
	    "    Name tunables as this system does (default: the agent's system)\n"
	    " -t, --timeout=INTEGER\n"
	    "    Seconds before the plugin gives up (default %d)\n"
	    " --timeout-result=[OK|WARNING|CRITICAL|UNKNOWN]\n"
	    "    State to return on timeout (default UNKNOWN)\n"
	    " -v, --verbose\n"
	    "    -v: OK items too, and the other systems' names of each tunable;\n"
	    "    -vv: SNMP round trips; -vvv: the values read\n"
	    "\nRanges follow the Monitoring Plugins guidelines: N (alert outside 0..N),\n"
	    "N: (below N), ~:N (above N), N:M (outside N..M), @N:M (inside N..M).\n"
	    "\nFor every item that is not OK the plugin prints a line starting with\n"
	    "\"tune:\" that names the tunable to change, its current value as the agent read\n"
	    "it, a suggested value, the evidence and the documentation it comes from; or,\n"
	    "when the figures show no tunable's precondition (a queue knob needs a queue),\n"
	    "a line starting with \"no tunable:\" that says why, with the figures.\n",
	    chk->wc_what, chk->default_warn ? " (default " : "",
	    chk->default_warn ? chk->default_warn : "", chk->default_warn ? ")" : "",
	    chk->wc_what, chk->default_crit ? " (default " : "",
	    chk->default_crit ? chk->default_crit : "", chk->default_crit ? ")" : "",
	    chk->options_help, DEFAULT_DELAY, DEFAULT_TIMEOUT);
	if (chk->notes != NULL)
		printf("\n%s\n", chk->notes);
}

/* ---- options --------------------------------------------------------------- */

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
tw_plugin_range(const char *opt, const char *arg, struct tw_range *r, char *err, size_t errlen)
{
	if (tw_range_parse(arg, r) != TW_OK) {
		snprintf(err, errlen, "%s '%s' is not a range (N, N:, ~:N, N:M or @N:M)", opt, arg);
		return -1;
	}
	return 0;
}

int
tw_plugin_filter(const char *opt, const char *arg, struct tw_devfilter *f,
    enum tw_devfilter_side side, char *err, size_t errlen)
{
	char msg[128];

	if (tw_devfilter_set(f, side, arg, msg, sizeof(msg)) != TW_OK) {
		snprintf(err, errlen, "%s '%s' is not a regular expression: %s", opt, arg, msg);
		return -1;
	}
	return 0;
}

static int
parse_args(const struct tw_check *chk, struct tw_plugin *p, int argc, char **argv, char *err,
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
			print_help(chk);
			exit(TW_STATE_UNKNOWN);
		case 'V':
			print_version(chk);
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
			if (tw_plugin_range("-w", optarg, &p->warn, err, errlen) != 0)
				return -1;
			p->has_warn = 1;
			break;
		case 'c':
			if (tw_plugin_range("-c", optarg, &p->crit, err, errlen) != 0)
				return -1;
			p->has_crit = 1;
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

/* ---- getting the view -------------------------------------------------------- */

static int
sleep_seconds(unsigned s)
{
	struct timespec ts = { (time_t)s, 0 };

	while (nanosleep(&ts, &ts) != 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static int
local_view(const struct tw_plugin *p, struct tw_monitor *m, char *err, size_t errlen)
{
	struct tw_sampler_config cfg;
	int rc;

	memset(&cfg, 0, sizeof(cfg));
	cfg.proc_root = p->proc_root;
	cfg.sys_root = p->sys_root;
	cfg.procio = 1;
	rc = tw_monitor_open(m, &cfg, p->delay_s, p->delay_s, PACKAGE_VERSION, err, errlen);
	if (rc != TW_OK)
		return rc;
	if ((rc = tw_monitor_sample(m)) != TW_OK || sleep_seconds(p->delay_s) != 0 ||
	    (rc = tw_monitor_sample(m)) != TW_OK) {
		snprintf(err, errlen, "cannot sample %s: %s", p->proc_root ? p->proc_root : "/proc",
		    tw_strerror(rc));
		return rc != TW_OK ? rc : TW_E_IO;
	}
	return TW_OK;
}

/* ---- advice ---------------------------------------------------------------------- */

/* The agent's kernel release, "6.1.0-18-amd64" out of "Linux 6.1.0-18-amd64",
 * for the bounds that changed with a release. */
static const char *
osrelease(const struct tw_view *v)
{
	const char *sp;

	if (!(v->agent.has & TW_VIEW_BIT(TW_OID_AGENT_SYSTEM)) ||
	    strncmp(v->agent.system, "Linux ", 6) != 0)
		return NULL;
	sp = v->agent.system + 6;
	return *sp != '\0' ? sp : NULL;
}

const char *
tw_plugin_view_lookup(void *ctx, const char *name)
{
	if (strcmp(name, TW_ADVICE_OSRELEASE) == 0)
		return osrelease(ctx);
	return tw_view_tunable(ctx, name);
}

const char *
tw_plugin_device_lookup(void *ctx, const char *name)
{
	struct tw_device_lookup *c = ctx;
	const struct tw_view_disk *d = c->d;
	unsigned col;

	if (strcmp(name, "queue/scheduler") == 0)
		return (d->has & TW_VIEW_BIT(TW_OID_DISK_SCHEDULER)) ? d->scheduler : NULL;
	if (strcmp(name, "queue/nr_requests") == 0)
		col = TW_OID_DISK_NR_REQUESTS;
	else if (strcmp(name, "queue/read_ahead_kb") == 0)
		col = TW_OID_DISK_READ_AHEAD_KB;
	else if (strcmp(name, "queue/wbt_lat_usec") == 0)
		col = TW_OID_DISK_WBT_LATENCY;
	else if (strncmp(name, "queue/", 6) == 0)
		return NULL;
	else
		return tw_plugin_view_lookup((void *)c->v, name);
	if (!(d->has & TW_VIEW_BIT(col)))
		return NULL;
	snprintf(c->buf, sizeof(c->buf), "%llu", (unsigned long long)d->col[col]);
	return c->buf;
}

const char *
tw_plugin_num(char *buf, size_t len, double v, unsigned precision)
{
	if (tw_perf_number(v, precision, buf, len) != TW_OK)
		snprintf(buf, len, "?");
	return buf;
}

/* Format s, naming a per-device tunable by its sysfs path. */
static int
advice_line(struct tw_suggestion *s, const char *device, const char *detail, char *line,
    size_t len)
{
	char path[160];

	if (device != NULL && strncmp(s->name, "queue/", 6) == 0) {
		snprintf(path, sizeof(path), "/sys/block/%s/%s", device, s->name);
		s->name = path;
	}
	return tw_advice_format(s, detail, line, len);
}

int
tw_plugin_advise(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    enum tw_symptom sym, tw_advice_lookup_fn lookup, void *ctx, const char *device,
    const char *detail)
{
	const struct tw_advice_rule *rules;
	size_t n = tw_advice_rules(sym, &rules), i;
	int printed = 0, fallback = -1, last = -1;

	advice_asked = 1;
	if (lookup == NULL) {
		lookup = tw_plugin_view_lookup;
		ctx = (void *)v;
	}
	/* The first rule with something to change is the advice; -v shows
	 * every rule. A rule that is already satisfied is shown only when
	 * nothing else applies, so the reader still learns why. */
	for (i = 0; i < n; i++) {
		struct tw_suggestion s;
		char line[512];
		int quiet;

		if (tw_advice_name(&rules[i], p->os) == NULL)
			continue;
		if (tw_advice_suggest(&rules[i], p->os, lookup, ctx, &s) != TW_OK)
			continue;
		quiet = (s.flags & (TW_SUG_AT_LIMIT | TW_SUG_NO_CHANGE)) != 0;
		if (quiet && p->verbose == 0) {
			if (fallback < 0)
				fallback = (int)i;
			continue;
		}
		/* One rule is the advice, and a rule that belongs with it
		 * (rmem_default beside rmem_max) comes along. */
		if (printed > 0 && p->verbose == 0 &&
		    !((rules[i].flags & TW_RULE_WITH_PREV) && last == (int)i - 1))
			break;
		if (advice_line(&s, device, detail, line, sizeof(line)) == TW_OK) {
			tw_out_line(out, "tune: %s", line);
			printed++;
			last = (int)i;
		}
		if (p->verbose > 0) {
			const char *fb = tw_advice_name(&rules[i], TW_OS_FREEBSD);
			const char *sv = tw_advice_name(&rules[i], TW_OS_SVR4);

			tw_out_line(out, "  elsewhere: FreeBSD %s; SVR4 %s", fb ? fb : "-",
			    sv ? sv : "-");
		}
	}
	if (printed == 0 && fallback < 0 && n > 0 && p->os != TW_OS_LINUX) {
		/* Nothing to turn on this system: say so, and what Linux has. */
		const char *linux_name = tw_advice_name(&rules[0], TW_OS_LINUX);

		tw_out_line(out, "tune: %s has no tunable for this (%s; on Linux: %s)",
		    p->os == TW_OS_FREEBSD ? "FreeBSD" : "SVR4",
		    detail != NULL && detail[0] != '\0' ? detail : rules[0].reason,
		    linux_name != NULL ? linux_name : "none either");
		printed++;
	}
	if (printed == 0 && fallback >= 0) {
		struct tw_suggestion s;
		char line[512];

		if (tw_advice_suggest(&rules[fallback], p->os, lookup, ctx, &s) == TW_OK &&
		    advice_line(&s, device, detail, line, sizeof(line)) == TW_OK) {
			tw_out_line(out, "tune: %s", line);
			printed++;
		}
	}
	return printed;
}

int
tw_plugin_verdict(const struct tw_plugin *p, const struct tw_view *v, struct tw_out *out,
    const struct tw_verdict *verdict, tw_advice_lookup_fn lookup, void *ctx, const char *device)
{
	size_t i;
	int printed = 0;

	for (i = 0; i < verdict->nfound; i++)
		printed += tw_plugin_advise(p, v, out, verdict->found[i].sym, lookup, ctx, device,
		    verdict->found[i].evidence);
	if (verdict->nfound == 0 && verdict->no_tunable[0] != '\0') {
		tw_out_line(out, "no tunable: %s", verdict->no_tunable);
		printed++;
	}
	return printed;
}

/* ---- main ---------------------------------------------------------------------------- */

/* Read the tunable table into v (which has everything else already). */
static int
fetch_tunables(struct tw_plugin *p, struct tw_view *v, char *err, size_t errlen)
{
	struct tw_snmp_stats more;
	struct tw_view t;
	struct tw_view_tunable *rows;
	size_t n, cap;
	int rc;

	tw_view_init(&t);
	rc = tw_snmp_fetch(&p->snmp, TW_FETCH_TUNABLES, &t, &more, err, errlen);
	p->stats.requests += more.requests;
	p->stats.varbinds += more.varbinds;
	if (rc == TW_OK) {
		rows = v->tunables;
		n = v->ntunables;
		cap = v->tunables_cap;
		v->tunables = t.tunables;
		v->ntunables = t.ntunables;
		v->tunables_cap = t.tunables_cap;
		t.tunables = rows;
		t.ntunables = n;
		t.tunables_cap = cap;
	}
	tw_view_free(&t);
	return rc;
}

static enum tw_os
os_of(const struct tw_view *v)
{
	if ((v->agent.has & TW_VIEW_BIT(TW_OID_AGENT_SYSTEM)) &&
	    strncmp(v->agent.system, "FreeBSD", 7) == 0)
		return TW_OS_FREEBSD;
	return TW_OS_LINUX;
}

int
tw_plugin_main(const struct tw_check *chk, int argc, char **argv)
{
	struct tw_plugin p;
	struct tw_monitor m;
	struct tw_view fetched;
	const struct tw_view *v;
	struct tw_out out;
	const char *text;
	char err[512];
	char **args = NULL;
	int nargs, rc, os_given, deferred = 0;
	unsigned samples, what;
	size_t len;
	enum tw_state st;

	memset(&p, 0, sizeof(p));
	p.snmp.host = "127.0.0.1";
	p.snmp.port = 161;
	p.snmp.version = 2;
	p.snmp.community = "public";
	p.timeout_s = DEFAULT_TIMEOUT;
	p.timeout_result = TW_STATE_UNKNOWN;
	p.delay_s = DEFAULT_DELAY;
	p.os = TW_OS_COUNT;
	if (chk->default_warn != NULL && tw_range_parse(chk->default_warn, &p.warn) == TW_OK)
		p.has_warn = 1;
	if (chk->default_crit != NULL && tw_range_parse(chk->default_crit, &p.crit) == TW_OK)
		p.has_crit = 1;

	rc = tw_extraopts_expand(argc, argv, chk->progname, NULL, &nargs, &args, err, sizeof(err));
	if (rc != TW_OK)
		return unknown(chk, "%s", err);
	if (parse_args(chk, &p, nargs, args, err, sizeof(err)) != 0) {
		tw_extraopts_free(args);
		return unknown(chk, "%s", err);
	}
	os_given = p.os != TW_OS_COUNT;
	/* Two tries within the time allowed, leaving room to print. */
	p.snmp.retries = 1;
	p.snmp.timeout_ms = p.timeout_s * 1000 * 2 / 5;
	arm_timeout(chk, &p);

	memset(&m, 0, sizeof(m));
	tw_view_init(&fetched);
	if (p.local) {
		rc = local_view(&p, &m, err, sizeof(err));
		v = &m.view;
	} else {
		/* The tunable table is read for advice only, and only a check
		 * that is not OK gives advice: leave it until then, so that an
		 * OK check costs one round trip less. -v shows more, so read
		 * everything at once. */
		what = chk->fetch;
		if ((what & TW_FETCH_TUNABLES) && p.verbose == 0) {
			what &= ~TW_FETCH_TUNABLES;
			deferred = 1;
		}
		rc = tw_snmp_fetch(&p.snmp, what, &fetched, &p.stats, err, sizeof(err));
		v = &fetched;
	}
	if (rc != TW_OK) {
		rc = fetch_failed(chk, &p, rc, "%s", err);
		goto out;
	}
	samples = (v->agent.has & TW_VIEW_BIT(TW_OID_AGENT_WINDOW_SAMPLES)) ?
	    (unsigned)v->agent.col[TW_OID_AGENT_WINDOW_SAMPLES] : 0;
	if (samples < 2) {
		rc = unknown(chk, "tunewatchd's window holds %u sample%s; figures come with the "
		    "next sample (every %u s)", samples, samples == 1 ? "" : "s",
		    (unsigned)v->agent.col[TW_OID_AGENT_INTERVAL]);
		goto out;
	}
	/* "in the last N s": the time the figures really cover. */
	p.window_s = (unsigned)((v->agent.col[TW_OID_AGENT_WINDOW_SPAN] + 500) / 1000);
	if (p.window_s == 0)
		p.window_s = 1;
	if (!os_given)
		p.os = os_of(v);

	tw_out_init(&out, chk->service);
	advice_asked = 0;
	st = chk->run(&p, v, &out);
	if (deferred && advice_asked) {
		/* Now the advice needs the tunables' current values: read them
		 * and judge again, with the same figures. */
		tw_out_free(&out);
		if ((rc = fetch_tunables(&p, &fetched, err, sizeof(err))) != TW_OK) {
			rc = fetch_failed(chk, &p, rc, "%s", err);
			goto out;
		}
		tw_out_init(&out, chk->service);
		st = chk->run(&p, v, &out);
	}
	if (p.verbose >= 2 && !p.local)
		tw_out_line(&out, "snmp: %u round trips, %u values from %s:%u", p.stats.requests,
		    p.stats.varbinds, p.snmp.host, p.snmp.port);
	if (tw_out_finish(&out, st, &text, &len) == TW_OK)
		rc = finish(text, len, (int)st);
	else
		rc = unknown(chk, "out of memory while writing the output");
	tw_out_free(&out);
out:
	if (p.local)
		tw_monitor_close(&m);
	tw_view_free(&fetched);
	tw_extraopts_free(args);
	return rc;
}
