#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The distribution of every request in tunewatchd, on the real kernel:

1. A loop device of the test's own gets its twReqLatTable rows and its
   histogram; with requestLatencyDevices 1, a second device gets none.
   Removed (detached, then deleted through /dev/loop-control), the first
   device's disk row and its rows leave together, and the second gets the
   slot; made again under its number, the first is published but not timed
   until the second goes too, and is then timed afresh (twReqLatTotal from
   0).
2. A slow tail is a finding: requestLatencyWarning below it raises one
   whose evidence is the read percentile, and check_disklatency
   --percentile 99 says the same over SNMP, with perfdata; but not from
   300 reads, which give a p99 (from 100) and not one to judge (from
   1000): no finding, and the check OK saying so.
3. Graceful absence: started without root (setpriv to nobody), the state
   is no-permission, said once in the log and never retried, and the disk
   table is unaffected; started as root with --user nobody, the program is
   loaded first and still read afterwards; requestLatency no is 'off'.
   In a build without libbpf (configure --without-bpf) only this: the
   state not-built, once in the log, and the check UNKNOWN saying so.

Skips without root, BTF, losetup, fio or setpriv (except the last)."""

import fcntl
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import plugin_common as pc  # noqa: E402
import reqlat_common as rc  # noqa: E402
import twtest  # noqa: E402
from trapsink import FINDINGS, col  # noqa: E402

LOOP_CTL_REMOVE = 0x4C81
LOOP_CTL_ADD = 0x4C80
CHECK = os.path.join(twtest.TOP_BUILDDIR, "plugins", "check_disklatency")


def disk_names(h):
    return {k: v.text for k, v in twtest.column(twtest.as_dict(
        h.walk(twtest.oid("DISK_NAME", None))), "DISK_NAME").items()}


def remove_loop(number):
    """Delete loopN itself (after losetup -d), as a hot-unplugged disk
    goes; bounded retries while the kernel still holds it."""
    for _ in range(50):
        fd = os.open("/dev/loop-control", os.O_RDWR)
        try:
            fcntl.ioctl(fd, LOOP_CTL_REMOVE, number)
            return
        except OSError:
            time.sleep(0.1)
        finally:
            os.close(fd)
    raise AssertionError("loop%d could not be removed" % number)


def add_loop(number):
    fd = os.open("/dev/loop-control", os.O_RDWR)
    try:
        fcntl.ioctl(fd, LOOP_CTL_ADD, number)
    finally:
        os.close(fd)


def come_and_go(backing, backing2):
    with rc.Loop(backing, mib=32) as loop, rc.Loop(backing2, mib=16) as other:
        number = int(loop.name[4:])
        with twtest.Harness("reqlat-devices") as h:
            path = os.path.join(h.dir, "tunewatchd.conf")
            with open(path, "w") as fh:
                fh.write("diskInclude ^(%s|%s)$\ndiskExclude ^$\nrequestLatencyDevices 1\n" % (
                    loop.name, other.name))
            h.start_snmpd()
            h.start_agent(args=["-c", path], interval=1, window=30)
            rc.need_timing(h)
            twtest.wait_for("rows for %s" % loop.name,
                            lambda: "TOTAL" in rc.reqlat_row(h, loop.index()), timeout=20, step=0.5)
            rc.fio(loop.dev, 2)
            h.sample_now()
            row = rc.reqlat_row(h, loop.index())
            assert row["COUNT"].num > 100, row
            assert "P99" in row and row["DEVICE"].text == loop.name, row
            hist = rc.reqhist_rows(h, loop.index())
            assert hist and hist[-1] == (4294967295, row["COUNT"].num), hist
            counts = [n for _, n in hist]
            assert counts == sorted(counts) and counts[0] < counts[-1], hist
            # One slot: the second device is published but not timed.
            assert other.name in disk_names(h).values()
            assert rc.reqlat_row(h, other.index()) == {}, "a second device timed with one slot"
            # The first device goes.
            index = loop.index()
            subprocess.run(["losetup", "-d", loop.dev], capture_output=True, timeout=30)
            loop.dev = None
            remove_loop(number)
            twtest.wait_for("loop%d's disk row to leave" % number,
                            lambda: "loop%d" % number not in disk_names(h).values(), timeout=20,
                            step=0.5)
            assert rc.reqlat_row(h, index) == {}, "rows of a device that left"
            assert not rc.reqhist_rows(h, index), "histogram of a device that left"
            # Its slot is free now: the other device gets it.
            twtest.wait_for("rows for %s" % other.name,
                            lambda: "TOTAL" in rc.reqlat_row(h, other.index()), timeout=20,
                            step=0.5)
            # Made again under its number: timed afresh.
            add_loop(number)
            r = subprocess.run(["losetup", "--direct-io=on", "/dev/loop%d" % number, backing],
                               capture_output=True, text=True, timeout=30)
            assert r.returncode == 0, r.stderr
            loop.dev = "/dev/loop%d" % number
            twtest.wait_for("loop%d back in twDiskTable" % number,
                            lambda: "loop%d" % number in disk_names(h).values(), timeout=20,
                            step=0.5)
            # The other device holds the only slot: loop is published, not
            # timed, until the other goes too.
            h.sample_now()
            assert rc.reqlat_row(h, index) == {}, rc.reqlat_row(h, index)
            other_number = int(other.name[4:])
            subprocess.run(["losetup", "-d", other.dev], capture_output=True, timeout=30)
            other.dev = None
            remove_loop(other_number)
            twtest.wait_for("rows for loop%d again" % number,
                            lambda: "TOTAL" in rc.reqlat_row(h, index), timeout=20, step=0.5)
            # Timed afresh: nothing of its first life in its counts.
            assert rc.reqlat_row(h, index)["TOTAL"].num == 0, rc.reqlat_row(h, index)
            done = rc.fio(loop.dev, 1)
            h.sample_now()
            total = rc.reqlat_row(h, index)["TOTAL"].num
            assert abs(total - done) <= 0.01 * done + 5, (total, done)
            add_loop(other_number)
    print("devices: rows followed the disk row out and back, timed afresh; one slot, one "
          "device timed")


def too_few(h, loop):
    """300 reads give a p99 (from 100) but not one to judge (from 1000):
    under requestLatencyWarning 0.001 tunewatchd raises nothing and the
    check is OK, saying why, as the lab's healthy gzip needed (issue 32)."""
    r = subprocess.run(["fio", "--name=few", "--filename=" + loop.dev, "--direct=1",
                        "--rw=randread", "--bs=4k", "--number_ios=300", "--ioengine=psync",
                        "--output-format=json"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, "fio failed: %s" % r.stderr[-500:]
    h.sample_now()
    h.sample_now()
    row = rc.reqlat_row(h, loop.index())
    n = row["COUNT"].num
    assert 100 <= n < 1000 and "P99" in row, row
    v = twtest.as_dict(h.walk(FINDINGS))
    mine = [x.text for x in col(v, "EVIDENCE").values() if ("%s read p99" % loop.name) in x.text]
    assert not mine, "a p99 of %d reads judged: %r" % (n, mine)
    r = subprocess.run([CHECK, "-H", "127.0.0.1", "-p", str(h.port), "-C", "public",
                        "--percentile", "99", "-w", "0.001", "-c", "1000", "--device",
                        "^%s$" % loop.name], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stdout
    m = re.search(r"^%s: OK, read p99 [0-9.]+ ms \([^;]*; (\d+) requests, too few to judge "
                  r"it: 1000 needed\)" % loop.name, r.stdout, re.M)
    assert m and 100 <= int(m.group(1)) < 1000, r.stdout
    print("too few: %s" % m.group(0))


def slow_tail(backing):
    with rc.Loop(backing, mib=32) as loop:
        with twtest.Harness("reqlat-finding") as h:
            conf = rc.agent_conf(h, loop.name, ["requestLatencyWarning 0.001",
                                                "requestLatencyCritical 1000",
                                                "findingRaiseAfter 1"])
            h.start_snmpd()
            h.start_agent(args=["-c", conf], interval=1, window=30)
            rc.need_timing(h)
            twtest.wait_for("rows for %s" % loop.name,
                            lambda: "TOTAL" in rc.reqlat_row(h, loop.index()), timeout=20, step=0.5)
            too_few(h, loop)
            # A p99 is judged from 1000 reads in the window (issue 32): on a
            # loaded machine 2 s of reads may be fewer, so read on, within
            # the 30 s window.
            done = 0
            for _ in range(8):
                done += rc.fio(loop.dev, 2)
                if done >= 2000:
                    break
            assert done >= 1000, "fio read only %d times in 16 s" % done
            h.sample_now()
            h.sample_now()
            v = twtest.as_dict(h.walk(FINDINGS))
            evidence = [x.text for x in col(v, "EVIDENCE").values()]
            mine = [e for e in evidence if ("%s read p99" % loop.name) in e]
            assert mine, "no finding of the slow tail: %r" % evidence
            assert "(warning range 0.001, read p99, ms)" in mine[0], mine[0]
            r = subprocess.run([CHECK, "-H", "127.0.0.1", "-p", str(h.port), "-C", "public",
                                "--percentile", "99", "-w", "0.001", "-c", "1000"],
                               capture_output=True, text=True, timeout=30)
            assert r.returncode == 1, r.stdout
            first = r.stdout.splitlines()[0]
            assert first.startswith("DISKLATENCY WARNING - %s WARNING read p99 " % loop.name), first
            assert " %s=" % pc.perf_label("%s read p99" % loop.name) in first and \
                ";0.001;1000;0" in first, first
            assert ("no tunable: %s read p99" % loop.name) in r.stdout, r.stdout
            print("finding: %s" % mine[0])
            print("check: %s" % first)


def absence(backing):
    setpriv = twtest.which("setpriv")
    with rc.Loop(backing, mib=16) as loop:
        # No root at all: no permission, said once.
        with twtest.Harness("reqlat-noperm") as h:
            conf = rc.agent_conf(h, loop.name)
            os.chmod(h.dir, 0o755)
            os.chmod(conf, 0o644)
            h.start_snmpd()
            env = dict(os.environ, SNMP_PERSISTENT_DIR=os.path.join(h.dir, "persist-nobody"))
            h.agent = subprocess.Popen(
                [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
                 "--inh-caps=-all", "--bounding-set=-all", h.agent_bin, "-f", "-Lo", "-C",
                 "-x", h.socket, "--interval", "1", "--window", "5", "-c", conf],
                stdout=h.log("tunewatchd"), stderr=subprocess.STDOUT, env=env)
            h.procs.append(h.agent)
            h.wait_agent()
            state, reason = rc.agent_state(h)
            assert state == "no-permission", (state, reason)
            assert "CAP_BPF" in reason, reason
            for _ in range(3):
                h.sample_now()
            assert loop.name in disk_names(h).values(), "the disk table suffered"
            with open(os.path.join(h.dir, "tunewatchd.log")) as fh:
                log = fh.read()
            assert log.count("request latency not timed (no-permission)") == 1, log
            assert rc.reqlat_row(h, loop.index()) == {}
        # Root, then --user nobody: loaded before the drop, read after it.
        with twtest.Harness("reqlat-user") as h:
            conf = rc.agent_conf(h, loop.name)
            h.start_snmpd()
            h.start_agent(args=["-c", conf, "--user", "nobody"], interval=1, window=30)
            rc.need_timing(h)
            twtest.wait_for("rows for %s" % loop.name,
                            lambda: "TOTAL" in rc.reqlat_row(h, loop.index()), timeout=20, step=0.5)
            done = rc.fio(loop.dev, 1)
            h.sample_now()
            row = rc.reqlat_row(h, loop.index())
            assert abs(row["COUNT"].num - done) <= 0.01 * done + 5, (row, done)
            assert rc.agent_state(h)[0] == "timing"
        # Turned off.
        with twtest.Harness("reqlat-off") as h:
            conf = rc.agent_conf(h, loop.name, ["requestLatency no"])
            h.start_snmpd()
            h.start_agent(args=["-c", conf], interval=1, window=5)
            assert rc.agent_state(h) == ("off", "requestLatency no")
            h.sample_now()
            assert rc.reqlat_row(h, loop.index()) == {}
            assert loop.name in disk_names(h).values()
    print("absence: no-permission once, --user nobody still timing, off")


def not_built():
    """In a build without libbpf: the state and its reason, one log line,
    the rest of the MIB as ever, and the check UNKNOWN with the state. True
    when this build is one; runs without root."""
    with twtest.Harness("reqlat-notbuilt") as h:
        h.start_snmpd()
        h.start_agent(interval=1, window=5)
        state, reason = rc.agent_state(h)
        if state != "not-built":
            return False
        assert "built without libbpf" in reason, reason
        h.sample_now()
        h.sample_now()
        with open(os.path.join(h.dir, "tunewatchd.log")) as fh:
            log = fh.read()
        assert log.count("request latency not timed (not-built)") == 1, log
        assert h.get([twtest.oid("BC_MEM_TOTAL")])[0].num > 0
        r = subprocess.run([CHECK, "-H", "127.0.0.1", "-p", str(h.port), "-C", "public",
                            "--percentile", "99"], capture_output=True, text=True, timeout=30)
        assert r.returncode == 3, r.stdout
        assert "tunewatchd does not time requests (not-built)" in r.stdout, r.stdout
        print("not built: %s; the check: %s" % (reason, r.stdout.splitlines()[0]))
        return True


def test():
    if not_built():
        return
    rc.need("fio", "setpriv")
    if not os.path.exists("/dev/loop-control"):
        raise twtest.Skip("no /dev/loop-control")
    come_and_go(rc.backing_path("devices-a"), rc.backing_path("devices-b"))
    slow_tail(rc.backing_path("finding"))
    absence(rc.backing_path("absence"))


if __name__ == "__main__":
    twtest.main(test)
