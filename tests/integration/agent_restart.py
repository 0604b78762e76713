#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The master agent comes and goes under a running tunewatchd: restarted
politely and killed with SIGKILL (leaving a stale AgentX socket behind), the
tables answer again within 2 s of snmpd being back, and the log says so once
each way, not at every retry. Then tunewatchd itself is killed: snmpd keeps
answering its own MIBs, a plugin says UNKNOWN in one line, and once
tunewatchd is back the check is OK again."""

import os
import signal
import subprocess
import time

import twtest
from twtest import SYS_UPTIME, oid

DISK_NAME = oid("DISK_NAME", "8.0")


def master_back_then_tables(h, how):
    h.stop(h.snmpd, how)
    down = time.monotonic()
    time.sleep(1.5)                     # a few failed reconnects while it is away
    h.start_snmpd(keep_port=True)       # returns once snmpd answers
    back = time.monotonic()
    twtest.wait_for("twDiskName after the master came back",
                    lambda: (h.try_get([DISK_NAME]) or [twtest.Value("", "", "")])[0].type ==
                    "STRING", timeout=5.0, step=0.02)
    took = time.monotonic() - back
    assert took <= 2.0, "tables answered %.2f s after the master was back" % took
    print("%s: tables back %.2f s after snmpd (down %.1f s)" % (how.name, took, back - down))


def log_lines(h, needle):
    with open(os.path.join(h.dir, "tunewatchd.log"), errors="replace") as fh:
        return [l for l in fh if needle in l]


def check(h):
    return subprocess.run([os.path.join(twtest.TOP_BUILDDIR, "plugins", "check_disklatency"),
                           "-H", "127.0.0.1", "-p", str(h.port), "-t", "5"],
                          capture_output=True, text=True, timeout=20)


def test():
    with twtest.Harness("agent-restart") as h:
        root = h.copy_fixture("agent")
        h.start_snmpd()
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300)
        h.sample_now()

        master_back_then_tables(h, signal.SIGTERM)
        master_back_then_tables(h, signal.SIGKILL)
        # Twice lost, twice back; the failed retries in between said nothing.
        assert len(log_lines(h, "lost the master agent")) == 2, log_lines(h, "master")
        assert len(log_lines(h, "registered with the master agent")) == 3
        assert not log_lines(h, "Failed to connect")

        # tunewatchd goes: snmpd still answers for itself; the plugin says why.
        h.stop(h.agent, signal.SIGKILL)
        assert h.get([SYS_UPTIME])[0].type == "Timeticks"
        r = check(h)
        assert r.returncode == 3, r.stdout
        assert r.stdout.count("\n") == 1, r.stdout
        assert r.stdout.startswith("DISKLATENCY UNKNOWN - tunewatchd is not registered with "
                                   "the SNMP agent at 127.0.0.1:%d" % h.port), r.stdout

        # Back again: OK after its second sample.
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=300)
        assert check(h).returncode == 3, "one sample is not enough for a figure"
        h.sample_now()
        r = check(h)
        assert r.returncode == 0, r.stdout
        assert r.stdout.startswith("DISKLATENCY OK - "), r.stdout


if __name__ == "__main__":
    twtest.main(test)
