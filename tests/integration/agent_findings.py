#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Findings end to end: a fixture whose CPU input queue drops packets for a
few samples and then stops. tunewatchd raises a finding after
findingRaiseAfter samples, publishes it in twFindingTable, and a real
snmptrapd on 127.0.0.1 (snmpd's trap2sink) receives twFindingRaised with the
finding's columns, then twFindingCleared after findingClearAfter quiet
samples. With the trap sink down, nothing is lost in tunewatchd: the table
still holds the finding. A bad threshold in tunewatchd.conf is reported with
file and line, and ignored.

snmptrapd and snmptt run as trapsink.py sets them up (contrib's
configurations): the line snmptt writes for the raised finding is checked
too (when snmptt is installed). snmptrapd's and snmptt's output are in this
test's log."""

import os
import re
import subprocess
import sys
import time

import agent_walk
import plugin_common as pc
import twtest
from trapsink import CLEARED, FINDINGS, RAISED, TrapSink, col, scalar
from twtest import as_dict

# cpu0 quiet; cpu1 drops `dropped` packets in all (column 2, hex).
SOFTNET = ("0000a000 00000000 00000002 00000000 00000000 00000000 00000000 00000000 "
           "00000000 00000000 00000000 00000000 00000000\n"
           "0000b000 %08x 00000000 00000000 00000000 00000000 00000000 00000000 "
           "00000000 00000000 00000005 00000001\n")


def drops(root, n):
    with open(os.path.join(root, "proc", "net", "softnet_stat"), "w") as fh:
        fh.write(SOFTNET % n)


def check_bad_config(h, conf):
    """A bad range is reported with file and line; the agent runs on."""
    with open(conf) as fh:
        lines = fh.read().splitlines()
    bad = [i + 1 for i, l in enumerate(lines) if l.startswith("readLatencyWarning")]
    with open(os.path.join(h.dir, "tunewatchd.log"), errors="replace") as fh:
        log = fh.read()
    want = "%s: line %d: Error: readLatencyWarning '20:10' is not a range" % (conf, bad[0])
    assert want in log, "no '%s' in the agent's log:\n%s" % (want, log)


def check_example_config(h):
    """contrib/tunewatchd.conf, every finding token in it, reads clean: the
    agent is stopped by a bad window right after reading it, so anything
    it says about the file is in its output."""
    conf = os.path.join(twtest.TOP_SRCDIR, "contrib", "tunewatchd.conf")
    r = subprocess.run([h.agent_bin, "-f", "-Lo", "-C", "-c", conf, "-x", h.socket,
                        "--interval", "10", "--window", "5"], capture_output=True, text=True,
                       timeout=30, env=dict(os.environ, MIBS=""))
    out = r.stdout + r.stderr
    assert r.returncode == 78 and "shorter than the interval" in out, (r.returncode, out)
    assert "Error" not in out and "Unknown token" not in out, out


def test():
    with twtest.Harness("agent-findings") as h:
        sink = TrapSink(h)
        sink.start()
        # The sink is snmpd's; the clientaddr keeps its socket on loopback.
        h.start_snmpd(sink.snmpd_conf())
        root = h.copy_fixture("agent")
        drops(root, 0x10)
        conf = os.path.join(h.dir, "findings.conf")
        with open(conf, "w") as fh:
            fh.write("findingRaiseAfter 2\nfindingClearAfter 2\n"
                     "readLatencyWarning 20:10\n"
                     "notificationsPerMinute 60\n")
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=60, args=["-c", conf])
        check_bad_config(h, conf)
        check_example_config(h)
        v = as_dict(h.walk(FINDINGS))
        assert v[scalar("COUNT")].num == 0 and v[scalar("CAPACITY")].num == 256, v
        assert v[scalar("RAISE_AFTER")].num == 2 and v[scalar("CLEAR_AFTER")].num == 2, v

        # One sample with drops: seen once, not raised.
        drops(root, 0x10 + 152)
        h.sample_now()
        v = as_dict(h.walk(FINDINGS))
        assert v[scalar("COUNT")].num == 0 and not col(v, "ID"), v
        # The second completes the hold-down: raised, in the table and at
        # the sink.
        drops(root, 0x10 + 304)
        t0 = time.monotonic()
        h.sample_now()
        sink.wait(RAISED)
        latency = time.monotonic() - t0
        v = as_dict(h.walk(FINDINGS))
        assert v[scalar("COUNT")].num == 1, v
        ids = col(v, "ID")
        assert len(ids) == 1, ids
        index, fid = next(iter(ids.items()))
        assert re.match(r"^tw-[0-9a-f]{12}$", fid.text), fid
        assert col(v, "SYMPTOM")[index].text == "softnet-drops"
        assert col(v, "SUBJECT")[index].text == "softnet backlog"
        assert col(v, "SEVERITY")[index].num == 1
        # "in the last N s": the span the window's figures cover
        # (twAgentWindowSpan, to the nearest second), as a check reading
        # the same view says it, not the configured 60 s: the samples here
        # are forced, well under a second apart.
        span_ms = pc.agent_span(h)
        last = "in the last %d s" % max(1, int((span_ms + 500) // 1000))
        assert col(v, "EVIDENCE")[index].text == ("cpu1 dropped 152 packets %s "
                                                  "(warning range 0, failures in the "
                                                  "window)" % last), (col(v, "EVIDENCE")[index],
                                                                      span_ms)
        assert col(v, "TUNABLE")[index].text == "net.core.netdev_max_backlog"
        assert col(v, "CURRENT")[index].text == "1000"
        assert col(v, "SUGGESTED")[index].text == "2000"
        assert col(v, "APPLY")[index].text == "sysctl -w net.core.netdev_max_backlog=2000"
        assert "net.core.netdev_max_backlog = 2000" in col(v, "PERSIST")[index].text
        assert col(v, "DOCUMENTATION")[index].text.startswith("Documentation/")
        raised_at = col(v, "RAISED")[index].num
        assert abs(raised_at - time.time()) < 120, raised_at
        assert v[scalar("LAST_CHANGE")].num == raised_at
        # The notification carries the row: its id and apply line.
        text = sink.text()
        assert fid.text in text and "sysctl -w net.core.netdev_max_backlog=2000" in text, text
        if sink.snmptt:
            # $A, the agent's host, is snmptrapd's name for 127.0.0.1; $4,
            # the severity, is "warning" where snmptrapd loads the MIB and
            # 1 where it cannot (no IETF base modules).
            want = re.compile(re.escape(": softnet-drops on softnet backlog (") + "(warning|1)" +
                              re.escape("): cpu1 dropped 152 packets %s (warning "
                                        "range 0, failures in the window); tune " % last +
                                        "net.core.netdev_max_backlog 1000 -> 2000: sysctl -w "
                                        "net.core.netdev_max_backlog=2000 [id %s]" % fid.text))
            twtest.wait_for("snmptt's line", lambda: want.search(sink.text(sink.snmptt_log)))
            assert "Warning \"Status Events\"" in sink.text(sink.snmptt_log)
        else:
            sys.stdout.write("snmptt is not installed: its configuration is not tried\n")

        # Quiet samples: the first keeps the finding, the second clears it.
        h.sample_now()
        v = as_dict(h.walk(FINDINGS))
        assert col(v, "ID") == {index: fid} or col(v, "ID")[index].text == fid.text, v
        h.sample_now()
        sink.wait(CLEARED)
        v = as_dict(h.walk(FINDINGS))
        assert v[scalar("COUNT")].num == 0 and not col(v, "ID"), v
        text = sink.text()
        assert text.index(RAISED) < text.index(CLEARED), text
        assert text.count(RAISED) == 1 and text.count(CLEARED) == 1, text

        # The sink goes down: the symptom comes back and is raised as
        # before, with the same id and a new row; nothing reaches the
        # sink, and nothing is lost in the MIB.
        sink.stop()
        n = 304
        for _ in range(2):
            n += 20
            drops(root, 0x10 + n)
            h.sample_now()
        v = as_dict(h.walk(FINDINGS))
        ids = col(v, "ID")
        assert [x.text for x in ids.values()] == [fid.text], ids
        assert int(next(iter(ids))) > int(index), (ids, index)
        assert v[scalar("SUPPRESSED")].num == 0, v
        assert sink.text().count(RAISED) == 1
        # Many symptoms at once (drops, squeezes, buffer errors, slow
        # disks) under a limit of one notification a minute: every finding
        # is raised in the table, one notification goes out, the rest are
        # counted in twFindingNotificationsSuppressed.
        h.stop(h.agent)
        sink.start()
        before = sink.text().count(RAISED)
        os.rename(root, root + "-first")
        root = h.copy_fixture("agent")
        limit = os.path.join(h.dir, "limit.conf")
        with open(limit, "w") as fh:
            fh.write("findingRaiseAfter 1\nnotificationsPerMinute 1\n")
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=60, args=["-c", limit])
        agent_walk.change_fixture(root)
        h.sample_now()
        v = as_dict(h.walk(FINDINGS))
        count = v[scalar("COUNT")].num
        assert count >= 3, v
        assert v[scalar("SUPPRESSED")].num == count - 1, (count, v[scalar("SUPPRESSED")])
        sink.wait(RAISED, before + 1)
        time.sleep(1)
        assert sink.text().count(RAISED) == before + 1, sink.text()
        sys.stdout.write("%d findings raised at once, 1 notification sent, %d suppressed\n"
                         % (count, count - 1))

        # findings no: no twFindings instance at all, the rest as before.
        h.stop(h.agent)
        off = os.path.join(h.dir, "off.conf")
        with open(off, "w") as fh:
            fh.write("findings no\n")
        h.start_agent(os.path.join(root, "proc"), os.path.join(root, "sys"), interval=60,
                      window=60, args=["-c", off])
        h.sample_now()
        vals = h.walk(FINDINGS)
        assert not [x for x in vals if x.oid.startswith(FINDINGS.lstrip(".") + ".")], vals
        assert h.agent_samples() == 2
        sys.stdout.write("raised finding reached snmptrapd %.3f s after SIGUSR1 asked for the "
                         "sample that completed its hold-down (interval 60 s)\n" % latency)
        assert latency < 60, latency
        sys.stdout.write("---- snmptrapd output ----\n%s\n" % sink.text())
        sys.stdout.write("---- snmptt output ----\n%s\n" % sink.text(sink.snmptt_log))


if __name__ == "__main__":
    twtest.main(test)
