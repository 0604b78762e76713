#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""A change of a cgroup's limit finds its ticket by the finding's id, on
every path into a ticket system (issue 34, hole 2), never by a unit's name
that a user's unit may share.

- tunewatch-alertmanager turns a firing TunewatchChangeEvaluated whose
  twChangeFindingId is set into a change: line begun by that id and the
  cgroup's directory, as the checks print it; a finding's document carries
  its subject;
- tunewatch_changes.py (tunewatch-rt's) reads that line, the checks' own
  (a directory with a blank in it included), and a twTunableChangeEvaluated
  trap with twChangeFindingId, as a change with that finding id; a host
  sysctl's line and trap carry none and still match by tunable;
- a cgroup's ticket (an owner: note, or a subject under /sys/fs/cgroup) gets
  no TunewatchTunable, so that its unit's name matches nothing; a sysctl's
  ticket keeps its tunable.
Before (6900ab4) the user's change "web.service of user 1000 MemoryMax ..."
was read as a change of "web.service", the system unit's ticket's tunable."""

import json
import os
import subprocess
import sys
import tempfile
import urllib.request

import promtest
import twtest

NOTIFY = os.path.join(twtest.TOP_SRCDIR, "contrib", "notify")
sys.path.insert(0, NOTIFY)
sys.dont_write_bytecode = True
import tunewatch_changes as tc  # noqa: E402

USER_DIR = ("/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/"
            "web.service")
SYS_DIR = "/sys/fs/cgroup/system.slice/web.service"
ARC = tc.ARC


def alertmanager_lines(tmp):
    """The change: lines tunewatch-alertmanager spools for two evaluated
    changes, the user's cgroup's (with its finding id) and a sysctl's."""
    spool = os.path.join(tmp, "spool", "docs.json")
    port = promtest.free_tcp_port()
    log = open(os.path.join(tmp, "am.log"), "w")
    p = subprocess.Popen(["python3", os.path.join(NOTIFY, "tunewatch-alertmanager"),
                          "--listen", "127.0.0.1:%d" % port, "--append", spool],
                         stdout=log, stderr=subprocess.STDOUT)
    try:
        twtest.wait_for("tunewatch-alertmanager", lambda: p.poll() is not None or
                        "listening" in open(log.name).read())
        alerts = [{"status": "firing", "startsAt": "2026-12-07T10:14:00Z", "labels": {
            "alertname": "TunewatchChangeEvaluated", "instance": "web1",
            "twChangeTunable": "MemoryMax", "twChangeSubject": USER_DIR,
            "twChangeFindingId": "tw-0123456789ab", "twChangeOldValue": "64M",
            "twChangeNewValue": "128M", "twChangeFigure": "cgroup refaults",
            "twChangeFigureUnit": "pages/s"}, "annotations": {"before": "4467.00",
                                                               "after": "0.00"}},
                  {"status": "firing", "startsAt": "2026-12-07T10:15:00Z", "labels": {
                      "alertname": "TunewatchChangeEvaluated", "instance": "web1",
                      "twChangeTunable": "net.core.netdev_max_backlog",
                      "twChangeSubject": "host", "twChangeOldValue": "1000",
                      "twChangeNewValue": "2000", "twChangeFigure": "cpu1 backlog",
                      "twChangeFigureUnit": "failures/min"},
                   "annotations": {"before": "152.00", "after": "0.00"}},
                  {"status": "firing", "labels": {
                      "alertname": "TunewatchFindingWarning", "instance": "web1",
                      "twFindingId": "tw-0123456789ab", "twFindingSymptom":
                      "cgroup-cache-bounded", "twFindingSubject": USER_DIR,
                      "twFindingTunable": "MemoryMax"},
                   "annotations": {"suggestion": "web.service MemoryMax 64M -> 128M"}}]
        req = urllib.request.Request("http://127.0.0.1:%d/" % port,
                                     data=json.dumps({"alerts": alerts}).encode(),
                                     method="POST")
        with urllib.request.urlopen(req, timeout=30) as r:
            assert r.status == 200
    finally:
        p.terminate()
        p.wait(timeout=10)
        log.close()
    with open(spool) as fh:
        docs = [json.loads(l) for l in fh]
    lines = [l for d in docs for l in d["changes"]]
    tickets = [t for d in docs for t in d["tickets"]]
    return lines, tickets


def test():
    with tempfile.TemporaryDirectory(prefix="tw-change-ids-") as tmp:
        lines, tickets = alertmanager_lines(tmp)
    assert lines[0] == ("change: tw-0123456789ab %s MemoryMax 64M -> 128M at 10:14; cgroup "
                        "refaults 4467 pages/s before, 0 pages/s after" % USER_DIR), lines
    user = tc.parse_change_line(lines[0])
    assert user["finding"] == "tw-0123456789ab" and user["what"] == USER_DIR + " MemoryMax", \
        user
    assert (user["old"], user["new"], user["before"], user["after"]) == ("64M", "128M", 4467,
                                                                         0), user
    host = tc.parse_change_line(lines[1])
    assert host["finding"] is None and host["what"] == "net.core.netdev_max_backlog", host
    # The checks' own line, the directory with a blank in it.
    check = tc.parse_change_line("change: tw-00000000abcd /sys/fs/cgroup/my app/web.service "
                                 "memory.max 8M -> 16M at 2026-12-06 23:59; cgroup refaults "
                                 "12.5 pages/s before, 1 pages/s after")
    assert check["finding"] == "tw-00000000abcd" and check["what"] == (
        "/sys/fs/cgroup/my app/web.service memory.max") and check["old"] == "8M", check
    # The old form of the line, a unit's name first: no finding id.
    old = tc.parse_change_line("change: web.service of user 1000 MemoryMax 64M -> 128M at "
                               "10:14; cgroup refaults 4467 pages/s before, 0 pages/s after")
    assert old["finding"] is None and old["what"] == "web.service", old
    # A trap with twChangeFindingId, and one of a sysctl without.
    trap = "\n".join([
        "web1", "UDP: [127.0.0.1]:161->[127.0.0.1]:162",
        ".1.3.6.1.6.3.1.1.4.1.0 .%s.0.5" % ARC,
        ".%s.1.7.1.2.4294967295 \"MemoryMax\"" % ARC,
        ".%s.1.7.1.3.4294967295 \"%s\"" % (ARC, SYS_DIR),
        ".%s.1.7.1.10.4294967295 446776" % ARC,
        ".%s.1.7.1.11.4294967295 100" % ARC,
        ".%s.1.7.1.12.4294967295 \"tw-fedcba987654\"" % ARC])
    _, ch = tc.parse_trap(trap)
    assert ch["finding"] == "tw-fedcba987654", ch
    _, ch = tc.parse_trap(trap.rsplit("\n", 1)[0])
    assert ch["finding"] is None and ch["what"] == "MemoryMax", ch
    # A cgroup's ticket keys on its id alone; a sysctl's on its tunable.
    cg = [t for t in tickets if t["finding"] == "tw-0123456789ab"][0]
    assert tc.advice_tunable(cg["advice"], cg) is None, cg
    assert tc.advice_tunable("tune: web.service MemoryMax=64M -> 128M (...)", {
        "notes": ["owner: system unit web.service"]}) is None
    assert tc.advice_tunable("tune: net.core.netdev_max_backlog 1000 -> 2000 (...)",
                             {"notes": []}) == "net.core.netdev_max_backlog"
    print("alertmanager: %s" % lines[0])


if __name__ == "__main__":
    twtest.main(test)
