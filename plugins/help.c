/* SPDX-License-Identifier: ISC */
#include "config.h"

#include "help.h"

#include <stdio.h>

#include "check.h"

void
tw_plugin_print_version(const struct tw_check *chk)
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

void
tw_plugin_print_help(const struct tw_check *chk)
{
	tw_plugin_print_version(chk);
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
	    chk->options_help, TW_PLUGIN_DEFAULT_DELAY, TW_PLUGIN_DEFAULT_TIMEOUT);
	if (chk->notes != NULL)
		printf("\n%s\n", chk->notes);
}
