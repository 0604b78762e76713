#!/usr/bin/env python3
"""contrib/notify's Icinga 2 NotificationCommand and Nagios command, read
and run by the real daemons (everything in a temporary directory, as
config_check.py does for contrib/icinga2 and contrib/nagios):

1. Icinga 2: `icinga2 daemon -C` accepts tunewatch-ticket.conf beside the
   ITL and tunewatch.conf, with a Notification that uses it; then the
   daemon runs check_dblock against tunewatchd (a WARNING with five
   findings), notifies, and the spool file holds one ticket per finding id
   of the check's own output, keyed tw-host!message buffers!id.
2. Nagios: `nagios4 -v` accepts tunewatch-ticket.cfg (with
   enable_environment_macros=1, as its comment asks); nagios4 runs the same
   check, notifies, and the spool holds the same tickets, apply and persist
   lines intact (quotes and '>' survive the environment).
Any warning or error from either daemon fails the test; a part whose
daemon is not installed is skipped, with a message."""

import json
import os
import re
import subprocess

import agent_walk
import config_check as cc
import plugin_common as pc
import twtest

NOTIFY_DIR = os.path.join(twtest.TOP_SRCDIR, "contrib", "notify")
SERVICE = "message buffers"


def want_ids(h):
    """The finding ids of the check's output, run directly."""
    out = pc.run("check_dblock", ["-p", str(h.port)])
    ids = [l.split()[1] for l in out.long if l.startswith("  finding: ")]
    assert len(ids) == 5, out
    return out, ids


def spooled(path):
    """The JSON documents appended so far (one a line)."""
    try:
        with open(path) as fh:
            return [json.loads(l) for l in fh if l.strip()]
    except FileNotFoundError:
        return []


def check_spool(path, out, ids, daemon):
    docs = twtest.wait_for("%s to notify" % daemon, lambda: spooled(path), timeout=40, step=0.2)
    doc = docs[0]
    assert doc["host"] == "tw-host" and doc["service"] == SERVICE, doc
    assert doc["state"] == "WARNING" and doc["notification_type"] == "PROBLEM", doc
    assert [t["finding"] for t in doc["tickets"]] == ids, (doc, ids)
    assert [t["key"] for t in doc["tickets"]] == ["tw-host!%s!%s" % (SERVICE, i) for i in ids]
    # The apply and persist lines are the check's own, character for character.
    for t in doc["tickets"]:
        i = out.long.index("  finding: " + t["finding"])
        assert out.long[i + 1] == "  apply: " + t["apply"], (daemon, t)
        assert out.long[i + 2] == "  persist: " + t["persist"], (daemon, t)
    return doc


def check_icinga(icinga, h, out, ids):
    d = os.path.join(h.dir, "icinga2")
    dirs = {k: os.path.join(d, k.lower()) for k in ("DataDir", "LogDir", "CacheDir", "SpoolDir",
                                                   "InitRunDir")}
    for p in dirs.values():
        os.makedirs(p)
    user, group = cc.user_group()
    defines = []
    for k, p in sorted(dirs.items()):
        defines += ["--define", "%s=%s" % (k, p)]
    defines += ["--define", "RunAsUser=" + user, "--define", "RunAsGroup=" + group]
    spool = os.path.join(d, "tickets.json")
    conf = os.path.join(d, "icinga2.conf")
    with open(conf, "w") as fh:
        fh.write('const PluginDir = %s\n' % json.dumps(pc.PLUGINS))
        fh.write('include <itl>\n')
        fh.write('include %s\n' % json.dumps(cc.ICINGA_CONF))
        fh.write('include %s\n\n' % json.dumps(os.path.join(NOTIFY_DIR, "tunewatch-ticket.conf")))
        fh.write('object CheckerComponent "checker" { }\n')
        fh.write('object NotificationComponent "notification" { }\n')
        fh.write('object User "tw-admin" { }\n')
        fh.write('object Host "tw-host" {\n\taddress = "127.0.0.1"\n\tcheck_command = "dummy"\n'
                 '\tenable_active_checks = false\n}\n')
        fh.write('object Service %s {\n\thost_name = "tw-host"\n'
                 '\tcheck_command = "tunewatch-dblock"\n\tvars.tunewatch_port = %d\n'
                 '\tmax_check_attempts = 1\n\tcheck_interval = 1s\n\tretry_interval = 1s\n}\n'
                 % (json.dumps(SERVICE), h.port))
        fh.write('object Notification "tuning ticket" {\n\thost_name = "tw-host"\n'
                 '\tservice_name = %s\n\tcommand = "tunewatch-ticket"\n'
                 '\tusers = [ "tw-admin" ]\n\ttypes = [ Problem ]\n\tinterval = 0\n'
                 '\tvars.tunewatch_ticket_dir = %s\n\tvars.tunewatch_ticket_file = %s\n}\n'
                 % (json.dumps(SERVICE), json.dumps(NOTIFY_DIR), json.dumps(spool)))

    r = subprocess.run([icinga, "daemon", "-C", "-c", conf] + defines, capture_output=True,
                       text=True, timeout=60)
    text = r.stdout + r.stderr
    bad = cc.complaints(text, [r"\b(warning|critical)/"])
    assert r.returncode == 0 and not bad, "icinga2 daemon -C:\n%s" % text
    assert re.search(r"Instantiated 1 NotificationCommand\b", text), text
    assert "Instantiated 1 Notification." in text, text

    log = os.path.join(d, "daemon.log")
    with open(log, "w") as fh:
        p = subprocess.Popen([icinga, "daemon", "-x", "notice", "-c", conf] + defines,
                             stdout=fh, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        doc = check_spool(spool, out, ids, "icinga2")
    finally:
        cc.stop_group(p)
    with open(log, errors="replace") as fh:
        bad = cc.complaints(fh.read(), [r"\b(warning|critical)/"])
    assert not bad, "icinga2 complained:\n%s" % "\n".join(bad)
    return doc


OBJECTS = """define timeperiod {
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
	service_notifications_enabled	1
	host_notification_period	24x7
	service_notification_period	24x7
	host_notification_options	n
	service_notification_options	w,u,c
	host_notification_commands	notify-nobody
	service_notification_commands	notify-service-by-tunewatch-ticket!%(spool)s
}

define service {
	name			generic-service
	check_period		24x7
	notification_period	24x7
	notification_interval	0
	notification_options	w,u,c
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

define service {
	use			tunewatch-service
	host_name		tw-host
	service_description	%(service)s
	check_command		check_tunewatch_dblock!public!0!~:!-p %(port)d
	max_check_attempts	1
}
"""


def check_nagios(nagios, h, out, ids):
    d = os.path.join(h.dir, "nagios")
    os.makedirs(os.path.join(d, "checkresults"))
    user, group = cc.user_group()
    spool = os.path.join(d, "tickets.json")
    cfg = os.path.join(d, "nagios.cfg")
    settings = {
        "log_file": "nagios.log", "resource_file": "resource.cfg", "status_file": "status.dat",
        "temp_file": "nagios.tmp", "temp_path": "", "lock_file": "nagios.lock",
        "state_retention_file": "retention.dat", "object_cache_file": "objects.cache",
        "precached_object_file": "objects.precache", "command_file": "nagios.cmd",
        "check_result_path": "checkresults", "query_socket": "nagios.qh",
        "debug_file": "nagios.debug", "log_archive_path": "",
    }
    with open(cfg, "w") as fh:
        for k, v in settings.items():
            fh.write("%s=%s\n" % (k, os.path.join(d, v) if v else d))
        fh.write("cfg_file=%s\ncfg_file=%s\ncfg_file=%s\n" % (
            os.path.join(d, "objects.cfg"), cc.NAGIOS_CFG,
            os.path.join(NOTIFY_DIR, "tunewatch-ticket.cfg")))
        fh.write("nagios_user=%s\nnagios_group=%s\n" % (user, group))
        # Nagios' own default illegal_macro_output_chars: the environment
        # macros must get the apply and persist lines through regardless.
        fh.write("retain_state_information=0\nuse_syslog=0\ncheck_external_commands=0\n"
                 "enable_notifications=1\nenable_environment_macros=1\ninterval_length=1\n"
                 "status_update_interval=1\nservice_inter_check_delay_method=n\n"
                 "max_service_check_spread=1\ndebug_level=0\n"
                 "illegal_macro_output_chars=`~$&|'\"<>\n")
    with open(os.path.join(d, "resource.cfg"), "w") as fh:
        fh.write("$USER1$=%s\n$USER2$=%s\n" % (pc.PLUGINS, NOTIFY_DIR))
    with open(os.path.join(d, "objects.cfg"), "w") as fh:
        fh.write(OBJECTS % {"spool": spool, "service": SERVICE, "port": h.port})

    r = subprocess.run([nagios, "-v", cfg], capture_output=True, text=True, timeout=60, cwd=d)
    text = r.stdout + r.stderr
    bad = cc.complaints(text, [r"^\s*(Warning|Error)\b", r"Total (Warnings|Errors): *[1-9]"])
    assert r.returncode == 0 and not bad, "nagios4 -v:\n%s" % text
    assert "Total Warnings: 0" in text and re.search(r"Total Errors: +0", text), text

    p = subprocess.Popen([nagios, cfg], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                         cwd=d, start_new_session=True)
    try:
        doc = check_spool(spool, out, ids, "nagios4")
    finally:
        cc.stop_group(p)
    with open(os.path.join(d, "nagios.log"), errors="replace") as fh:
        bad = cc.complaints(fh.read(), [r"\b(Warning|Error):"])
    assert not bad, "nagios4 complained:\n%s" % "\n".join(bad)
    return doc


def test():
    icinga = twtest.which("icinga2")
    nagios = twtest.which("nagios4") or twtest.which("nagios")
    if not icinga and not nagios:
        raise twtest.Skip("neither icinga2 (Debian: icinga2-bin) nor nagios4 (nagios4-core) is "
                          "installed")
    with twtest.Harness("notify-config") as h:
        root = pc.writable(h.copy_fixture("agent"))
        h.start_snmpd()
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300)
        agent_walk.change_fixture(root)
        h.sample_now()
        out, ids = want_ids(h)
        docs, skipped = [], []
        if icinga:
            docs.append(check_icinga(icinga, h, out, ids))
        else:
            skipped.append("icinga2 is not installed (Debian: icinga2-bin)")
        if nagios:
            docs.append(check_nagios(nagios, h, out, ids))
        else:
            skipped.append("nagios4 is not installed (Debian: nagios4-core)")
        # Both daemons hand over the same output: the same tickets.
        if len(docs) == 2:
            assert docs[0]["tickets"] == docs[1]["tickets"], docs
        if skipped:
            raise twtest.Skip("; ".join(skipped) + ": that part was not checked")


if __name__ == "__main__":
    twtest.main(test)
