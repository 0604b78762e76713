# SPDX-License-Identifier: ISC
"""Icinga 2 and Nagios 4 for the tests of contrib's monitoring files
(config_check.py, notify_config.py): each daemon run as the current user
with everything in a directory of the test's own (nothing under /etc or
/var is read or written), its configuration validated, then run, and
whatever it says in warnings or errors a failure. Also the agent both
tests check against: tunewatchd behind a real snmpd on the agent fixture,
changed so that the checks find something."""

import contextlib
import grp
import json
import os
import pwd
import re
import signal
import subprocess

import plugin_common as pc
import twtest

ICINGA_CONF = os.path.join(twtest.TOP_SRCDIR, "contrib", "icinga2", "tunewatch.conf")
NAGIOS_CFG = os.path.join(twtest.TOP_SRCDIR, "contrib", "nagios", "tunewatch.cfg")
ICINGA_BAD = [r"\b(warning|critical)/"]


def user_group():
    return pwd.getpwuid(os.getuid()).pw_name, grp.getgrgid(os.getgid()).gr_name


def stop_group(p, timeout=15):
    """Stop a daemon this test started, then anything left in its session."""
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if p.poll() is None:
        p.wait(timeout=5)


def complaints(text, patterns):
    return [l for l in text.splitlines() if any(re.search(p, l) for p in patterns)]


def daemons():
    """(icinga2, nagios4) where installed, None where not; Skip when neither is."""
    icinga = twtest.which("icinga2")
    nagios = twtest.which("nagios4") or twtest.which("nagios")
    if not icinga and not nagios:
        raise twtest.Skip("neither icinga2 (Debian: icinga2-bin) nor nagios4 (nagios4-core) is "
                          "installed")
    return icinga, nagios


class Icinga:
    """icinga2 with its directories in d/icinga2 and icinga2.conf there."""

    def __init__(self, binary, d):
        self.bin = binary
        self.d = os.path.join(d, "icinga2")
        self.dirs = {k: os.path.join(self.d, k.lower()) for k in (
            "DataDir", "LogDir", "CacheDir", "SpoolDir", "InitRunDir")}
        for p in self.dirs.values():
            os.makedirs(p)
        user, group = user_group()
        self.defines = []
        for k, p in sorted(self.dirs.items()):
            self.defines += ["--define", "%s=%s" % (k, p)]
        self.defines += ["--define", "RunAsUser=" + user, "--define", "RunAsGroup=" + group]
        self.conf = os.path.join(self.d, "icinga2.conf")
        self.log = os.path.join(self.d, "daemon.log")

    def write(self, includes, objects):
        """icinga2.conf: the ITL, contrib's tunewatch.conf and includes,
        a checker, host tw-host (127.0.0.1, never checked) and objects."""
        with open(self.conf, "w") as fh:
            fh.write('const PluginDir = %s\n' % json.dumps(pc.PLUGINS))
            fh.write('include <itl>\n')
            for f in [ICINGA_CONF] + list(includes):
                fh.write('include %s\n' % json.dumps(f))
            fh.write('\nobject CheckerComponent "checker" { }\n\n')
            fh.write('object Host "tw-host" {\n\taddress = "127.0.0.1"\n'
                     '\tcheck_command = "dummy"\n\tenable_active_checks = false\n}\n')
            fh.write(objects)

    def validate(self):
        """`icinga2 daemon -C`: it must accept the configuration without a
        word of warning. Its output."""
        r = subprocess.run([self.bin, "daemon", "-C", "-c", self.conf] + self.defines,
                           capture_output=True, text=True, timeout=60)
        text = r.stdout + r.stderr
        bad = complaints(text, ICINGA_BAD)
        assert r.returncode == 0 and not bad, "icinga2 daemon -C:\n%s" % text
        return text

    def log_text(self):
        with open(self.log, errors="replace") as fh:
            return fh.read()

    @contextlib.contextmanager
    def running(self):
        """The daemon runs in the body; stopped after it, then its log must
        hold no warning."""
        with open(self.log, "w") as fh:
            p = subprocess.Popen([self.bin, "daemon", "-x", "notice", "-c", self.conf] +
                                 self.defines, stdout=fh, stderr=subprocess.STDOUT,
                                 start_new_session=True)
        try:
            yield p
        finally:
            stop_group(p)
        bad = complaints(self.log_text(), ICINGA_BAD)
        assert not bad, "icinga2 complained:\n%s" % "\n".join(bad)


# What Nagios' sample templates.cfg and objects provide, as far as
# tunewatch-service and a host of the test's own need. %(notify)s is the
# contact's service notification command, notify-nobody for none.
NAGIOS_OBJECTS = """define timeperiod {
	timeperiod_name	24x7
	alias		always
	sunday		00:00-24:00
	monday		00:00-24:00
	tuesday		00:00-24:00
	wednesday	00:00-24:00
	thursday	00:00-24:00
	friday		00:00-24:00
	saturday	00:00-24:00
}

define command {
	command_name	notify-nobody
	command_line	/bin/true
}

define contact {
	contact_name			tw-admin
	host_notifications_enabled	0
	service_notifications_enabled	%(enabled)d
	host_notification_period	24x7
	service_notification_period	24x7
	host_notification_options	n
	service_notification_options	%(options)s
	host_notification_commands	notify-nobody
	service_notification_commands	%(notify)s
}

define service {
	name			generic-service
	check_period		24x7
	notification_period	24x7
	notification_interval	0
	notification_options	%(options)s
	contacts		tw-admin
	register		0
}

define host {
	host_name		tw-host
	address			127.0.0.1
	max_check_attempts	1
	check_period		24x7
	notification_interval	0
	notification_period	24x7
	contacts		tw-admin
	active_checks_enabled	0
}
"""

# nagios.cfg's files, relative to the directory ("" is the directory).
NAGIOS_FILES = {
    "log_file": "nagios.log", "resource_file": "resource.cfg", "status_file": "status.dat",
    "temp_file": "nagios.tmp", "temp_path": "", "lock_file": "nagios.lock",
    "state_retention_file": "retention.dat", "object_cache_file": "objects.cache",
    "precached_object_file": "objects.precache", "command_file": "nagios.cmd",
    "check_result_path": "checkresults", "query_socket": "nagios.qh",
    "debug_file": "nagios.debug", "log_archive_path": "",
}


class Nagios:
    """nagios4 with nagios.cfg, its objects and its state in d/nagios."""

    def __init__(self, binary, d):
        self.bin = binary
        self.d = os.path.join(d, "nagios")
        os.makedirs(os.path.join(self.d, "checkresults"))
        self.cfg = os.path.join(self.d, "nagios.cfg")
        self.status = os.path.join(self.d, "status.dat")

    def write(self, services, cfg_files=(), notify=None, resources=()):
        """nagios.cfg with contrib's tunewatch.cfg and cfg_files, and
        objects.cfg: NAGIOS_OBJECTS, then services. With notify (the
        contact's notification command) notifications are on, with
        environment macros; resources are more $USERn$ lines."""
        user, group = user_group()
        with open(self.cfg, "w") as fh:
            for k, v in NAGIOS_FILES.items():
                fh.write("%s=%s\n" % (k, os.path.join(self.d, v) if v else self.d))
            for f in [os.path.join(self.d, "objects.cfg"), NAGIOS_CFG] + list(cfg_files):
                fh.write("cfg_file=%s\n" % f)
            fh.write("nagios_user=%s\nnagios_group=%s\n" % (user, group))
            # Nagios' own default illegal_macro_output_chars: with
            # notify, the environment macros must get the apply and
            # persist lines through regardless.
            fh.write("retain_state_information=0\nuse_syslog=0\ncheck_external_commands=0\n"
                     "enable_notifications=%d\n%sinterval_length=1\n"
                     "status_update_interval=1\nservice_inter_check_delay_method=n\n"
                     "max_service_check_spread=1\ndebug_level=0\n"
                     "illegal_macro_output_chars=`~$&|'\"<>\n"
                     % (1 if notify else 0, "enable_environment_macros=1\n" if notify else ""))
        with open(os.path.join(self.d, "resource.cfg"), "w") as fh:
            fh.write("$USER1$=%s\n" % pc.PLUGINS)
            for line in resources:
                fh.write(line + "\n")
        with open(os.path.join(self.d, "objects.cfg"), "w") as fh:
            fh.write(NAGIOS_OBJECTS % {"enabled": 1 if notify else 0,
                                       "options": "w,u,c" if notify else "n",
                                       "notify": notify or "notify-nobody"})
            fh.write(services)

    def validate(self):
        """`nagios4 -v`: no warning, no error. Its output."""
        r = subprocess.run([self.bin, "-v", self.cfg], capture_output=True, text=True,
                           timeout=60, cwd=self.d)
        text = r.stdout + r.stderr
        bad = complaints(text, [r"^\s*(Warning|Error)\b", r"Total (Warnings|Errors): *[1-9]"])
        assert r.returncode == 0 and not bad, "nagios4 -v:\n%s" % text
        assert "Total Warnings: 0" in text and re.search(r"Total Errors: +0", text), text
        return text

    @contextlib.contextmanager
    def running(self):
        """The daemon runs in the body; stopped after it, then its log must
        hold no warning or error."""
        p = subprocess.Popen([self.bin, self.cfg], stdout=subprocess.DEVNULL,
                             stderr=subprocess.STDOUT, cwd=self.d, start_new_session=True)
        try:
            yield p
        finally:
            stop_group(p)
        with open(os.path.join(self.d, "nagios.log"), errors="replace") as fh:
            bad = complaints(fh.read(), [r"\b(Warning|Error):"])
        assert not bad, "nagios4 complained:\n%s" % "\n".join(bad)
