#!/usr/bin/env python3
"""The checks against an agent that is not tunewatchd: snmpsim replaying a
walk of tunewatchd with one value changed, once for each SMI type the MIB
uses. A value whose type or range is not what TUNEWATCH-MIB says is an
error, never an absence: the check is UNKNOWN and names the object, the
item and what came back. The walk replayed as it was gives what tunewatchd
gives (so the replay itself is faithful); a disk row without a name is
labelled by its index; a disk with no figures yet is listed as such, and
never counted as OK.

snmpsim (Debian: apt-get install snmpsim) listens on 127.0.0.1 only; the
test is skipped without it."""

import binascii
import os
import shutil
import subprocess
import time

import agent_walk
import plugin_common as pc
import twtest
from twtest import oid

# snmprec's type tags, from the types snmpwalk -On -Oe prints.
TAGS = {"INTEGER": "2", "STRING": "4x", "Hex-STRING": "4x", "Gauge32": "66",
        "Counter64": "70"}


def snmprec_value(v):
    if TAGS[v.type] == "4x":
        return binascii.hexlify(v.text.encode()).decode()
    return v.text


def record(h):
    """tunewatchd's answers on the agent fixture, after a second sample: a
    dict oid -> (tag, value) in walk order."""
    root = agent_walk.start_changed(h)
    walk = h.walk()
    h.stop_all()
    for v in walk:
        assert v.type in TAGS, "a type the replay cannot write: %r" % v
    return {v.oid: (TAGS[v.type], snmprec_value(v)) for v in walk}


class Simulator:
    """snmpsimd on 127.0.0.1 replaying one walk, as community "public"."""

    def __init__(self, h, binary):
        self.h, self.binary, self.n = h, binary, 0

    def serve(self, rec):
        self.n += 1
        base = os.path.join(self.h.dir, "sim%d" % self.n)
        data, cache = os.path.join(base, "data"), os.path.join(base, "cache")
        os.makedirs(data)
        os.makedirs(cache)
        # snmprec files are sorted by OID, numerically.
        key = lambda o: [int(x) for x in o.split(".")]
        with open(os.path.join(data, "public.snmprec"), "w") as fh:
            for o in sorted(rec, key=key):
                fh.write("%s|%s|%s\n" % (o, rec[o][0], rec[o][1]))
        argv = [self.binary, "--data-dir=" + data, "--cache-dir=" + cache,
                "--agent-udpv4-endpoint=127.0.0.1:%d" % self.h.port,
                "--logging-method=file:" + os.path.join(self.h.dir, "snmpsim%d.log" % self.n)]
        if os.geteuid() == 0:
            # snmpsimd will not run as root: it drops to nobody, who must
            # read the data and write the cache.
            argv += ["--process-user=nobody", "--process-group=nogroup"]
            for d in (self.h.dir, base, data, cache):
                os.chmod(d, 0o777)
            os.chmod(os.path.join(data, "public.snmprec"), 0o644)
        proc = subprocess.Popen(argv, stdout=self.h.log("snmpsim"),
                                stderr=subprocess.STDOUT)
        self.h.procs.append(proc)
        twtest.wait_for("snmpsimd to answer",
                        lambda: proc.poll() is None and self.h.try_get(
                            [oid("AGENT_VERSION")]) is not None, timeout=30.0, step=0.2)
        self.h.check_listeners(proc.pid)
        return proc

    def stop(self, proc):
        self.h.stop(proc)
        self.h.procs.remove(proc)


def garbage(check, port, what):
    return ["%s UNKNOWN - the agent at 127.0.0.1:%d sent garbage: %s" % (
        pc.SERVICE[check], port, what)]


def test():
    binary = shutil.which("snmpsimd") or shutil.which("snmpsimd.py")
    if binary is None:
        raise twtest.Skip("snmpsim is not installed (Debian: apt-get install snmpsim)")
    with twtest.Harness("foreign-agent") as h:
        rec = record(h)
        sim = Simulator(h, binary)
        SDA = "8.0"

        # The walk as it was: what tunewatchd itself gives.
        want = {}
        p = sim.serve(rec)
        for check in pc.CHECKS:
            out = pc.run(check, [], h.port)
            assert out.state in ("OK", "WARNING", "CRITICAL"), out
            want[check] = out.stdout
        young = "sdb: no figures yet (first seen in the newest sample)"
        assert young in pc.run("check_disklatency", [], h.port).long, "sdb is not listed"
        sim.stop(p)

        # One value changed at a time, for each SMI type the MIB uses.
        cases = [
            # (object, index, new (tag, value), the check, what the message says)
            ("DISK_READ_LATENCY", SDA, ("4", "fast"), "check_disklatency",
             'twDiskReadLatency.8.0 (disk sda) came back as OCTET STRING "fast"; '
             "TUNEWATCH-MIB says Unsigned32"),
            ("DISK_READ_LATENCY", SDA, ("2", "-5"), "check_disklatency",
             "twDiskReadLatency.8.0 (disk sda) came back as INTEGER -5; "
             "TUNEWATCH-MIB says Unsigned32"),
            ("DISK_UTIL", SDA, ("2", "5000"), "check_disklatency",
             "twDiskUtil.8.0 (disk sda) came back as INTEGER 5000; "
             "TUNEWATCH-MIB says TwHundredths"),
            ("DISK_READ_RATE", SDA, ("66", "4096"), "check_disklatency",
             "twDiskReadRate.8.0 (disk sda) came back as Gauge32 4096; "
             "TUNEWATCH-MIB says CounterBasedGauge64"),
            ("DISK_WBT_LATENCY", SDA, ("4", "75000"), "check_disklatency",
             'twDiskWbtLatency.8.0 (disk sda) came back as OCTET STRING "75000"; '
             "TUNEWATCH-MIB says Integer32"),
            ("DISK_ROTATIONAL", SDA, ("2", "3"), "check_disklatency",
             "twDiskRotational.8.0 (disk sda) came back as INTEGER 3; "
             "TUNEWATCH-MIB says TruthValue (1..2)"),
            ("DISK_SCHEDULER", SDA, ("66", "7"), "check_disklatency",
             "twDiskScheduler.8.0 (disk sda) came back as Gauge32 7; "
             "TUNEWATCH-MIB says DisplayString"),
            ("BC_READ_HIT_RATIO", "0", ("66", "20000"), "check_bufcache",
             "twBcReadHitRatio.0 came back as Gauge32 20000; "
             "TUNEWATCH-MIB says TwHundredths (0..10000)"),
            ("DBLOCK_FAILURES", "1.1", ("66", "16"), "check_dblock",
             "twDblockFailures.1.1 (pool cpu1 backlog) came back as Gauge32 16; "
             "TUNEWATCH-MIB says Counter64"),
            ("DBLOCK_RECENT_FAILURES", "1.1", ("65", "152"), "check_dblock",
             "twDblockRecentFailures.1.1 (pool cpu1 backlog) came back as Counter32 152; "
             "TUNEWATCH-MIB says Gauge32"),
            ("DBLOCK_NAME", "5.0", ("2", "1"), "check_dblock",
             "twDblockName.5.0 (pool 5.0) came back as INTEGER 1; "
             "TUNEWATCH-MIB says DisplayString"),
            ("AGENT_WINDOW_SAMPLES", "0", ("4", "two"), "check_bufcache",
             'twAgentWindowSamples.0 came back as OCTET STRING "two"; '
             "TUNEWATCH-MIB says Unsigned32"),
        ]
        for name, index, new, check, what in cases:
            o = oid(name, index)
            assert o in rec, "%s is not in the walk" % o
            changed = dict(rec)
            changed[o] = new
            p = sim.serve(changed)
            pc.expect(pc.run(check, [], h.port), 3, garbage(check, h.port, what))
            sim.stop(p)

        # A disk row without a name: labelled by its index, never "".
        changed = {o: x for o, x in rec.items() if o != oid("DISK_NAME", SDA)}
        p = sim.serve(changed)
        out = pc.run("check_disklatency", ["-w", "100", "-c", "200"], h.port)
        labels = [x.label for x in out.perf]
        assert "8_0_r_await" in labels and not [x for x in labels if x.startswith("_")], out
        assert out.long[0].startswith("8.0: OK r_await"), out
        sim.stop(p)

        # The same walk again, to show the changes were the only cause.
        p = sim.serve(rec)
        for check in pc.CHECKS:
            assert pc.run(check, [], h.port).stdout == want[check], check
        sim.stop(p)


if __name__ == "__main__":
    twtest.main(test)
