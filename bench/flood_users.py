#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""A local user's flood of dropping sockets, on this machine's kernel
(issue 34): what it costs tunewatchd a sample, how fast snmpd answers
another MIB's object, and whether a listen-queue problem started under it
is raised within the usual hold-down and notified.

As root, in a network namespace of its own (unshare -n; the Udp counters,
socket files and accept queues are the namespace's), one tunewatchd per
build behind its own snmpd with a real snmptrapd as its trap sink, at the
default hold-down (raised at the third sample in a row) and notification
limit, sampling every second over a 10 s window. Conditions, side by side
in one run and interleaved --rounds times: no flood; 1,000 UDP sockets of
the user nobody (SO_RCVBUF 1024, never read) that a sender of nobody's
floods round-robin; the same with 5,000. In each:

- from before the flood starts to the end, snmpd is asked for sysUpTime.0
  every 100 ms, alternately over one UDP socket of this script's (the time
  from the request to snmpd's answer; waited for up to 5 s, so a slow answer
  is timed, not lost) and by snmpget (what a poller that starts snmpget
  sees: its own start included; 1 s, no retry, as the issue measured);
- once the flood's own finding is in twFindingTable (it has been raised),
  for --measure seconds: tunewatchd's CPU time (all its threads,
  /proc/PID/task/*/schedstat) over the samples it completed
  (twAgentSamples, each read paired with the CPU time read as its answer
  arrives);
- then a listen-queue problem (a listener with a backlog of 1 that never
  accepts, 20 connections every 0.2 s): the seconds from its start to its
  finding in twFindingTable and to its twFindingRaised at snmptrapd.

Prints /proc/loadavg at the start and the end, and per round; medians and
ranges over the rounds; the CPU a sample against the same build's no-flood
median. A measure that could not be taken is said so in the table.

    python3 bench/flood_users.py --builddir build/dev --orig-builddir /tmp/orig
"""

import argparse
import math
import os
import pwd
import socket
import statistics
import subprocess
import sys
import threading
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(TOP, "tests", "integration"))
os.environ.setdefault("top_srcdir", TOP)

import twtest  # noqa: E402
from trapsink import RAISED, TrapSink, rows  # noqa: E402


def holder(n, fd):
    socks = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    os.write(fd, (" ".join(str(s.getsockname()[1]) for s in socks) + "\n").encode())
    os.close(fd)
    time.sleep(3600)


def sender(ports):
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    while True:
        for p in ports:
            tx.sendto(b"x" * 200, ("127.0.0.1", p))


def as_nobody():
    u = pwd.getpwnam("nobody")
    os.setgroups([])
    os.setgid(u.pw_gid)
    os.setuid(u.pw_uid)


def start_flood(n):
    r, w = os.pipe()
    h = subprocess.Popen(["python3", __file__, "holder", str(n), str(w)], pass_fds=[w],
                         preexec_fn=as_nobody)
    os.close(w)
    with os.fdopen(r) as fh:
        ports = fh.readline().split()
    s = subprocess.Popen(["python3", __file__, "sender"] + ports, preexec_fn=as_nobody)
    return [h, s]


def cpu_ns(pid):
    """CPU time of all of pid's threads so far (tunewatchd has a reader
    thread beside its main loop), in ns."""
    total = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as fh:
                total += int(fh.read().split()[0])
        except FileNotFoundError:
            pass		# a thread that ended between the listing and the read
    return total


def samples_and_cpu(h, deadline_s=30.0):
    """twAgentSamples and tunewatchd's CPU time, read as its answer arrives
    (tunewatchd answers between samples, so both describe the same moment);
    (None, None, tries) when no answer came in deadline_s.

    The count is a state to read, not a time under test: the GET waits 5 s
    and is asked again, where h.agent_samples() gives up after one second
    with no retry, which at a load average of 20 returned None (the crash of
    /tmp/i34-bench3.log)."""
    end = time.monotonic() + deadline_s
    tries = 0
    while time.monotonic() < end:
        tries += 1
        try:
            r = h.run_client([h.snmpget_bin, "-v2c", "-c", "public", "-On", "-Oe", "-t", "5",
                              "-r", "1", "127.0.0.1:%d" % h.port,
                              twtest.oid("AGENT_SAMPLES")], timeout=15)
        except subprocess.TimeoutExpired:
            continue
        cpu = cpu_ns(h.agent.pid)
        vals = twtest.parse_varbinds(r.stdout) if r.returncode == 0 else None
        if vals and vals[0].type == "Counter64":
            return vals[0].num, cpu, tries
        time.sleep(0.2)
    return None, None, tries


def _tlv(tag, body):
    assert len(body) < 128
    return bytes([tag, len(body)]) + body


def _int(v):
    return _tlv(0x02, v.to_bytes(4, "big"))


SYS_UPTIME_BER = bytes([0x06, 0x08, 0x2b, 6, 1, 2, 1, 1, 3, 0])


def get_request(reqid, community=b"public"):
    """An SNMPv2c GetRequest of sysUpTime.0, BER-encoded."""
    varbind = _tlv(0x30, SYS_UPTIME_BER + b"\x05\x00")
    pdu = _tlv(0xa0, _int(reqid) + _int(0) + _int(0) + _tlv(0x30, varbind))
    return _tlv(0x30, _tlv(0x02, b"\x01") + _tlv(0x04, community) + pdu)


def _read_tlv(buf, i):
    tag, n = buf[i], buf[i + 1]
    i += 2
    if n & 0x80:
        k = n & 0x7f
        n = int.from_bytes(buf[i:i + k], "big")
        i += k
    return tag, buf[i:i + n], i + n


def response_id(buf):
    """The request-id of a GetResponse whose error-status is 0 and whose
    value is a TimeTicks, or None."""
    try:
        _, msg, _ = _read_tlv(buf, 0)
        _, _, i = _read_tlv(msg, 0)		# version
        _, _, i = _read_tlv(msg, i)		# community
        tag, pdu, _ = _read_tlv(msg, i)
        if tag != 0xa2:
            return None
        _, reqid, i = _read_tlv(pdu, 0)
        _, status, i = _read_tlv(pdu, i)
        _, _, i = _read_tlv(pdu, i)		# error-index
        _, vbl, _ = _read_tlv(pdu, i)
        _, vb, _ = _read_tlv(vbl, 0)
        _, _, j = _read_tlv(vb, 0)		# the name
        vtag, _, _ = _read_tlv(vb, j)
        if int.from_bytes(status, "big") != 0 or vtag != 0x43:
            return None
        return int.from_bytes(reqid, "big", signed=True)
    except (IndexError, ValueError):
        return None


class Poller(threading.Thread):
    """sysUpTime.0 every 100 ms, alternately on the wire and by snmpget."""

    WAIT_S = 5.0

    def __init__(self, h):
        super().__init__(daemon=True)
        self.h = h
        self.wire, self.wire_lost = [], 0
        self.snmpget, self.snmpget_failed = [], 0
        self.stop = False

    def ask_wire(self, sock, reqid):
        t0 = time.monotonic()
        sock.sendto(get_request(reqid), ("127.0.0.1", self.h.port))
        while True:
            left = t0 + self.WAIT_S - time.monotonic()
            if left <= 0:
                self.wire_lost += 1
                return
            sock.settimeout(left)
            try:
                buf = sock.recv(2048)
            except socket.timeout:
                continue
            if response_id(buf) == reqid:	# a late answer to an earlier one is skipped
                self.wire.append(time.monotonic() - t0)
                return

    def ask_snmpget(self):
        t0 = time.monotonic()
        if self.h.try_get([twtest.SYS_UPTIME]) is not None:
            self.snmpget.append(time.monotonic() - t0)
        else:
            self.snmpget_failed += 1

    def run(self):
        reqid = 0
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            while not self.stop:
                reqid += 1
                if reqid % 2:
                    self.ask_wire(sock, reqid)
                else:
                    self.ask_snmpget()
                time.sleep(0.1)


def listen_problem(stop):
    """A listener that never accepts, its queue overflowed every 0.2 s."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    addr = srv.getsockname()
    conns = []
    while not stop.is_set():
        for _ in range(20):
            c = socket.socket()
            c.setblocking(False)
            try:
                c.connect(addr)
            except (BlockingIOError, OSError):
                pass
            conns.append(c)
        time.sleep(0.2)
        while len(conns) > 200:
            conns.pop(0).close()
    for c in conns:
        c.close()
    srv.close()


def finding_rows(h):
    """twFindingTable now, or None when the walk failed (a walk under load
    is an observation missed, not the end of the run)."""
    try:
        return rows(h)
    except (AssertionError, subprocess.TimeoutExpired):
        return None


def one(builddir, n, measure_s):
    twtest.TOP_BUILDDIR = builddir
    out = {"cpu_ms": None, "samples": None, "flood_raised_s": None,
           "raised_s": None, "notified_s": None}
    with twtest.Harness("flood-users") as h:
        h.agent_bin = os.path.join(builddir, "agentx", "tunewatchd")
        sink = TrapSink(h)
        sink.snmptt = None
        sink.start()
        h.start_snmpd(sink.snmpd_conf())
        h.start_agent(interval=1, window=10)
        poller = Poller(h)
        poller.start()
        procs = []
        try:
            t0 = time.monotonic()
            if n:
                procs = start_flood(n)
                # Measured once the flood's own finding is raised: the
                # steady cost, not the raise's.
                while time.monotonic() - t0 < 40 and not finding_rows(h):
                    time.sleep(0.5)
                if finding_rows(h):
                    out["flood_raised_s"] = time.monotonic() - t0
            else:
                time.sleep(4)
            s0, c0, tries0 = samples_and_cpu(h)
            time.sleep(measure_s)
            s1, c1, tries1 = samples_and_cpu(h)
            out["count_gets"] = tries0 + tries1
            if s0 is not None and s1 is not None and s1 > s0:
                out["cpu_ms"] = (c1 - c0) / 1e6 / (s1 - s0)
                out["samples"] = s1 - s0
            received0 = len(sink.notifications(RAISED))
            stop = threading.Event()
            t = threading.Thread(target=listen_problem, args=(stop,), daemon=True)
            t0 = time.monotonic()
            t.start()
            found = notified = None
            while time.monotonic() - t0 < 40 and (found is None or notified is None):
                if found is None and [r for r in (finding_rows(h) or {}).values()
                                      if r.get("SUBJECT") == "tcp listen queue"]:
                    found = time.monotonic() - t0
                if notified is None and [x for x in sink.notifications(RAISED)[received0:]
                                         if x.get("SUBJECT") == "tcp listen queue"]:
                    notified = time.monotonic() - t0
                time.sleep(0.2)
            stop.set()
            t.join(timeout=10)
            out["raised_s"], out["notified_s"] = found, notified
        finally:
            poller.stop = True
            poller.join(timeout=15)
            for p in procs:
                p.kill()
                p.wait()
    out["wire_ms"] = [x * 1000 for x in poller.wire]
    out["wire_lost"] = poller.wire_lost
    out["snmpget_ms"] = [x * 1000 for x in poller.snmpget]
    out["snmpget_failed"] = poller.snmpget_failed
    return out


def pct(xs, q):
    """The q-quantile of sorted xs, by nearest rank."""
    if not xs:
        return float("nan")
    return xs[max(0, min(len(xs) - 1, int(math.ceil(q * len(xs))) - 1))]


def loadavg():
    with open("/proc/loadavg") as fh:
        return " ".join(fh.read().split()[:3])


def med(xs, fmt="%.1f", none="never"):
    """median (min-max) of what was measured, and how many were not."""
    ok = [x for x in xs if x is not None]
    if not ok:
        return "%s (%d of %d)" % (none, len(xs), len(xs)) if len(xs) > 1 else none
    text = (fmt + " (" + fmt + "-" + fmt + ")") % (statistics.median(ok), min(ok), max(ok))
    if len(ok) < len(xs):
        text += ", %s %d of %d" % (none, len(xs) - len(ok), len(xs))
    return text


def times(xs):
    xs = sorted(xs)
    return "%.1f / %.1f / %.1f" % (pct(xs, 0.5), pct(xs, 0.95), xs[-1] if xs else float("nan"))


def report(runs):
    print("| build | nobody's sockets | CPU ms a sample, median (range) | / same build's no flood, "
          "median (rounds' range) | samples measured | sysUpTime.0 answer on the wire p50 / p95 / "
          "max ms (count; none in 5 s) | by snmpget, its start included, p50 / p95 / max ms (count; "
          "failed in 1 s) | flood's finding raised after s | listen queue raised after s | "
          "notified after s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (name, n), v in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][0] != "before")):
        cpu = [x["cpu_ms"] for x in v]
        base = runs.get((name, 0), [])
        ratios = [c / b["cpu_ms"] for c, b in zip(cpu, base)
                  if c is not None and b["cpu_ms"]]
        base_ok = [b["cpu_ms"] for b in base if b["cpu_ms"] is not None]
        cpu_ok = [c for c in cpu if c is not None]
        ratio = "missing"
        if cpu_ok and base_ok:
            ratio = "%.2fx" % (statistics.median(cpu_ok) / statistics.median(base_ok))
            ratio += (" (%.2f-%.2f)" % (min(ratios), max(ratios)) if ratios
                      else " (no round with both)")
        wire = [g for x in v for g in x["wire_ms"]]
        snmpget = [g for x in v for g in x["snmpget_ms"]]
        print("| %s | %s | %s | %s | %s | %s (%d; %d) | %s (%d; %d) | %s | %s | %s |" % (
            name, "{:,}".format(n), med(cpu, "%.2f", "missing"), "-" if n == 0 else ratio,
            med([x["samples"] for x in v], "%d", "missing"),
            times(wire), len(wire), sum(x["wire_lost"] for x in v),
            times(snmpget), len(snmpget), sum(x["snmpget_failed"] for x in v),
            "-" if n == 0 else med([x["flood_raised_s"] for x in v]),
            med([x["raised_s"] for x in v]), med([x["notified_s"] for x in v])))


def stamp(what):
    """The run's start or end line: the time and the load average."""
    print("%s %s UTC, load average %s" % (what, time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
                                          loadavg()), flush=True)


def compared_builds(args):
    """In the benchmark's network namespace: its loopback up, the start
    line, and the builds compared side by side, [(name, builddir)], the
    one before this work (args.orig_builddir) first where given."""
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    builds = [("this", os.path.abspath(args.builddir))]
    if args.orig_builddir:
        builds.insert(0, ("before", os.path.abspath(args.orig_builddir)))
    stamp("start")
    return builds


def rerun_in_namespace(script, args, *opts):
    """script again, with --inside, --builddir, --orig-builddir and opts,
    in a network namespace of its own (unshare -n); exits with its status."""
    argv = [sys.executable, os.path.abspath(script), "--inside", "--builddir", args.builddir]
    argv += [str(o) for o in opts]
    if args.orig_builddir:
        argv += ["--orig-builddir", args.orig_builddir]
    sys.exit(subprocess.run(["unshare", "-n"] + argv).returncode)


def inside(args):
    builds = compared_builds(args)
    for name, bdir in builds:
        print("%s: %s" % (name, bdir), flush=True)
    runs = {}
    for rnd in range(args.rounds):
        for k, n in enumerate((0, 1000, 5000)):
            # The builds take turns to go first, measure by measure: with one
            # always first, the other's no-flood figure was higher in 4 of 6
            # pairs, which the code does not explain.
            for name, bdir in (builds if (rnd * 3 + k) % 2 == 0 else builds[::-1]):
                x = one(bdir, n, args.measure)
                runs.setdefault((name, n), []).append(x)
                print("round %d, %s, %d sockets: CPU %s ms a sample over %s samples (%d GETs of "
                      "the count), sysUpTime.0 max %.1f ms on the wire (%d none), %.1f ms by "
                      "snmpget (%d failed), listen queue %s s, notified %s s; load average %s"
                      % (rnd + 1, name, n, "missing" if x["cpu_ms"] is None else
                         "%.2f" % x["cpu_ms"], x["samples"], x["count_gets"],
                         max(x["wire_ms"], default=float("nan")), x["wire_lost"],
                         max(x["snmpget_ms"], default=float("nan")), x["snmpget_failed"],
                         x["raised_s"], x["notified_s"], loadavg()), flush=True)
    stamp("end")
    print()
    report(runs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--orig-builddir")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--measure", type=float, default=20.0, help="seconds of each measure")
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("flood_users.py: needs root (a network namespace, the user nobody)")
    rerun_in_namespace(__file__, args, "--rounds", args.rounds, "--measure", args.measure)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "holder":
        holder(int(sys.argv[2]), int(sys.argv[3]))
    elif len(sys.argv) > 1 and sys.argv[1] == "sender":
        sender([int(x) for x in sys.argv[2:]])
    elif "--inside" in sys.argv:
        sys.argv.remove("--inside")
        ap = argparse.ArgumentParser()
        ap.add_argument("--builddir", required=True)
        ap.add_argument("--orig-builddir")
        ap.add_argument("--rounds", type=int, default=3)
        ap.add_argument("--measure", type=float, default=20.0)
        inside(ap.parse_args())
    else:
        main()
