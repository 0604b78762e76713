#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""contrib/notify's Icinga 2 NotificationCommand and Nagios command, read
and run by the real daemons (everything in a temporary directory, as
config_check.py does for contrib/icinga2 and contrib/nagios, with the same
set-up: monitoring.py):

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

import agent_walk
import monitoring as mon
import plugin_common as pc
import twtest

NOTIFY_DIR = os.path.join(twtest.TOP_SRCDIR, "contrib", "notify")
SERVICE = "message buffers"


def want_ids(h):
    """The finding ids of the check's output, run directly."""
    out = pc.run("check_dblock", ["-p", str(h.port)])
    ids = [l.split()[1] for l in out.long if l.startswith("  finding: ")]
    # backlog, rmem_max, rmem_default, somaxconn (cpu0's squeezes lost
    # nothing: no finding).
    assert len(ids) == 4, out
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
    ic = mon.Icinga(icinga, h.dir)
    spool = os.path.join(ic.d, "tickets.json")
    ic.write([os.path.join(NOTIFY_DIR, "tunewatch-ticket.conf")],
             'object NotificationComponent "notification" { }\n'
             'object User "tw-admin" { }\n'
             'object Service %s {\n\thost_name = "tw-host"\n'
             '\tcheck_command = "tunewatch-dblock"\n\tvars.tunewatch_port = %d\n'
             '\tmax_check_attempts = 1\n\tcheck_interval = 1s\n\tretry_interval = 1s\n}\n'
             'object Notification "tuning ticket" {\n\thost_name = "tw-host"\n'
             '\tservice_name = %s\n\tcommand = "tunewatch-ticket"\n'
             '\tusers = [ "tw-admin" ]\n\ttypes = [ Problem ]\n\tinterval = 0\n'
             '\tvars.tunewatch_ticket_dir = %s\n\tvars.tunewatch_ticket_file = %s\n}\n'
             % (json.dumps(SERVICE), h.port, json.dumps(SERVICE), json.dumps(NOTIFY_DIR),
                json.dumps(spool)))
    text = ic.validate()
    assert re.search(r"Instantiated 1 NotificationCommand\b", text), text
    assert "Instantiated 1 Notification." in text, text
    with ic.running():
        return check_spool(spool, out, ids, "icinga2")


SERVICE_CFG = """
define service {
	use			tunewatch-service
	host_name		tw-host
	service_description	%(service)s
	check_command		check_tunewatch_dblock!public!0!~:!-p %(port)d
	max_check_attempts	1
}
"""


def check_nagios(nagios, h, out, ids):
    ng = mon.Nagios(nagios, h.dir)
    spool = os.path.join(ng.d, "tickets.json")
    ng.write(SERVICE_CFG % {"service": SERVICE, "port": h.port},
             cfg_files=[os.path.join(NOTIFY_DIR, "tunewatch-ticket.cfg")],
             notify="notify-service-by-tunewatch-ticket!" + spool,
             resources=["$USER2$=" + NOTIFY_DIR])
    ng.validate()
    with ng.running():
        return check_spool(spool, out, ids, "nagios4")


def test():
    icinga, nagios = mon.daemons()
    with twtest.Harness("notify-config") as h:
        agent_walk.start_changed(h)
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
