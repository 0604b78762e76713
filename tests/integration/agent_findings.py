#!/usr/bin/env python3
"""Findings end to end: a fixture whose CPU input queue drops packets for a
few samples and then stops. tunewatchd raises a finding after
findingRaiseAfter samples, publishes it in twFindingTable, and a real
snmptrapd on 127.0.0.1 (snmpd's trap2sink) receives twFindingRaised with the
finding's columns, then twFindingCleared after findingClearAfter quiet
samples. With the trap sink down, nothing is lost in tunewatchd: the table
still holds the finding. A bad threshold in tunewatchd.conf is reported with
file and line, and ignored.

snmptrapd runs with contrib/snmptrapd/snmptrapd.conf, whose traphandle
hands each notification to snmptt with contrib/snmptt/tunewatch.conf: the
line snmptt writes for the raised finding is checked too (when snmptt is
installed). snmptrapd's and snmptt's output are in this test's log.
snmptrapd loads TUNEWATCH-MIB where the IETF base modules are
(../shared/mibs or /usr/share/snmp/mibs/ietf) and prints numeric OIDs
otherwise."""

import os
import re
import subprocess
import sys
import time

import agent_walk
import twtest
from twtest import as_dict

H = twtest._H
FINDINGS = "%s.%d" % (twtest.OBJECTS, H["TW_OID_FINDINGS"][0])
ENTRY = "%s.%d.%d" % (FINDINGS, H["TW_OID_FINDING_TABLE"][0], H["TW_OID_FINDING_ENTRY"][0])
NOTIFY = "%s.%d" % (twtest.ARC, H["TW_OID_NOTIFICATIONS"][0])
RAISED = "%s.%d" % (NOTIFY, H["TW_NOTIFY_FINDING_RAISED"][0])
CLEARED = "%s.%d" % (NOTIFY, H["TW_NOTIFY_FINDING_CLEARED"][0])

# cpu0 quiet; cpu1 drops `dropped` packets in all (column 2, hex).
SOFTNET = ("0000a000 00000000 00000002 00000000 00000000 00000000 00000000 00000000 "
           "00000000 00000000 00000000 00000000 00000000\n"
           "0000b000 %08x 00000000 00000000 00000000 00000000 00000000 00000000 "
           "00000000 00000000 00000005 00000001\n")


def scalar(name):
    return "%s.%d.0" % (FINDINGS, H["TW_OID_FINDING_" + name][0])


def col(v, name):
    """{index: value} of one twFindingTable column."""
    prefix = "%s.%d." % (ENTRY, H["TW_OID_FINDING_" + name][0])
    return {k[len(prefix):]: x for k, x in v.items() if k.startswith(prefix)}


def drops(root, n):
    with open(os.path.join(root, "proc", "net", "softnet_stat"), "w") as fh:
        fh.write(SOFTNET % n)


class TrapSink:
    """A real snmptrapd on 127.0.0.1 that accepts v2c traps and prints them."""

    def __init__(self, h):
        self.h = h
        self.bin = twtest.which("snmptrapd")
        if not self.bin:
            raise twtest.Skip("snmptrapd is needed (Debian: apt-get install snmptrapd)")
        self.port = twtest.free_port()
        self.logs = []		# one a start: snmptrapd -Lf truncates its file
        self.proc = None
        self.snmptt = twtest.which("snmptt")
        self.snmptt_log = os.path.join(h.dir, "snmptt.log")

    def snmptt_ini(self):
        """An snmptt.ini of the test's own: standalone, numeric, its log
        here, contrib/snmptt/tunewatch.conf as the event definitions."""
        ini = os.path.join(self.h.dir, "snmptt.ini")
        with open(ini, "w") as fh:
            fh.write("[General]\nmode = standalone\nnet_snmp_perl_enable = 0\n"
                     "dns_enable = 0\nmultiple_event = 1\n"
                     "[Logging]\nstdout_enable = 0\nlog_enable = 1\nlog_file = %s\n"
                     "unknown_trap_log_enable = 1\nunknown_trap_log_file = %s.unknown\n"
                     "syslog_enable = 0\nsyslog_system_enable = 0\nlog_system_enable = 0\n"
                     "[Debugging]\nDEBUGGING = 0\n"
                     "[TrapFiles]\nsnmptt_conf_files = <<END\n%s\nEND\n"
                     % (self.snmptt_log, self.snmptt_log,
                        os.path.join(twtest.TOP_SRCDIR, "contrib", "snmptt", "tunewatch.conf")))
        return ini

    def start(self):
        # contrib's snmptrapd.conf, pointed at this test's snmptt.ini.
        conf = os.path.join(self.h.dir, "snmptrapd.conf")
        with open(os.path.join(twtest.TOP_SRCDIR, "contrib", "snmptrapd", "snmptrapd.conf")) as fh:
            text = fh.read()
        if self.snmptt:
            text = text.replace("/usr/sbin/snmptt --ini=/etc/snmp/snmptt.ini",
                                "%s --ini=%s" % (self.snmptt, self.snmptt_ini()))
        else:
            text = "\n".join(l for l in text.splitlines() if not l.startswith("traphandle"))
        with open(conf, "w") as fh:
            fh.write(text + "\ndoNotRetainNotificationLogs yes\n")
        self.logs.append(os.path.join(self.h.dir, "snmptrapd-%d.log" % (len(self.logs) + 1)))
        argv = [self.bin, "-f", "-Lf", self.logs[-1], "-C", "-c", conf, "-On"]
        base = twtest.base_mib_dirs()
        if base:
            argv += ["-M", "%s:/usr/share/snmp/mibs:%s" % (base, os.path.join(twtest.TOP_SRCDIR,
                                                                              "mib")),
                     "-m", "TUNEWATCH-MIB"]
        else:
            argv += ["-m", ""]
        env = dict(os.environ, SNMP_PERSISTENT_DIR=os.path.join(self.h.dir, "trap-persist"),
                   MIBS="")
        self.proc = subprocess.Popen(argv + ["udp:127.0.0.1:%d" % self.port],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=env)
        self.h.procs.append(self.proc)
        twtest.wait_for("snmptrapd to start",
                        lambda: "NET-SNMP version" in self.text(self.logs[-1]) or
                        self.proc.poll() is not None)
        assert self.proc.poll() is None, "snmptrapd exited: " + self.text()

    def stop(self):
        self.h.stop(self.proc)

    def text(self, path=None):
        """One file, or every start's snmptrapd log in turn."""
        out = ""
        for p in [path] if path else self.logs:
            try:
                with open(p, errors="replace") as fh:
                    out += fh.read()
            except FileNotFoundError:
                pass
        return out

    def wait(self, trap_oid, count=1, timeout=20.0):
        twtest.wait_for("%d notification(s) %s at snmptrapd" % (count, trap_oid),
                        lambda: self.text().count(trap_oid + " ") + self.text().count(trap_oid + "\t")
                        >= count, timeout=timeout)


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
        h.start_snmpd("trap2sink 127.0.0.1:%d public\n[snmp] clientaddr 127.0.0.1\n" % sink.port)
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
        assert col(v, "EVIDENCE")[index].text == ("cpu1 dropped 152 packets in the last 60 s "
                                                  "(warning range 0, failures in the "
                                                  "window)"), col(v, "EVIDENCE")[index]
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
                              re.escape("): cpu1 dropped 152 packets in the last 60 s (warning "
                                        "range 0, failures in the window); tune "
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
