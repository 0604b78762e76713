#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""A local user's flood of dropping sockets, on this machine's kernel
(issue 34): what it costs tunewatchd a sample, what snmpd's answers to
another MIB see, and whether a listen-queue problem started under it is
raised within the usual hold-down and notified.

As root, in a network namespace of its own (unshare -n; the Udp counters,
socket files and accept queues are the namespace's), one tunewatchd per
build behind its own snmpd with a real snmptrapd as its trap sink, at the
default hold-down (raised at the third sample in a row) and notification
limit, sampling every second over a 10 s window. Conditions, side by side
in one run and interleaved --rounds times: no flood; 1,000 UDP sockets of
the user nobody (SO_RCVBUF 1024, never read) that a sender of nobody's
floods round-robin; the same with 5,000. In each, for --measure seconds
with the flood running: tunewatchd's CPU time a sample (its
/proc/PID/schedstat over the samples it took), snmpd's sysUpTime.0 GET
times (a GET every 50 ms), then a listen-queue problem (a listener with a
backlog of 1 that never accepts, 20 connections every 0.2 s): the seconds
from its start to its finding in twFindingTable and to its
twFindingRaised at snmptrapd. Medians and ranges over the rounds.

    python3 bench/flood_users.py --builddir build/dev --orig-builddir /tmp/orig
"""

import argparse
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
    with open("/proc/%d/schedstat" % pid) as fh:
        return int(fh.read().split()[0])


class Poller(threading.Thread):
    def __init__(self, h):
        super().__init__(daemon=True)
        self.h, self.times, self.failed, self.stop = h, [], 0, False

    def run(self):
        while not self.stop:
            t0 = time.monotonic()
            ok = self.h.try_get([twtest.SYS_UPTIME]) is not None
            if ok:
                self.times.append(time.monotonic() - t0)
            else:
                self.failed += 1
            time.sleep(0.05)


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


def one(builddir, n, measure_s):
    twtest.TOP_BUILDDIR = builddir
    out = {}
    with twtest.Harness("flood-users") as h:
        h.agent_bin = os.path.join(builddir, "agentx", "tunewatchd")
        sink = TrapSink(h)
        sink.snmptt = None
        sink.start()
        h.start_snmpd(sink.snmpd_conf())
        h.start_agent(interval=1, window=10)
        procs = start_flood(n) if n else []
        try:
            time.sleep(4)		# the flood under way, its findings raised
            poller = Poller(h)
            poller.start()
            s0 = twtest.wait_for("twAgentSamples", h.agent_samples, timeout=30)
            c0 = cpu_ns(h.agent.pid)
            time.sleep(measure_s)
            c1 = cpu_ns(h.agent.pid)
            s1 = twtest.wait_for("twAgentSamples", h.agent_samples, timeout=30)
            out["cpu_ms"] = (c1 - c0) / 1e6 / max(1, s1 - s0)
            received0 = len(sink.notifications(RAISED))
            stop = threading.Event()
            t = threading.Thread(target=listen_problem, args=(stop,), daemon=True)
            t0 = time.monotonic()
            t.start()
            found = notified = None
            while time.monotonic() - t0 < 40 and (found is None or notified is None):
                if found is None and [r for r in rows(h).values()
                                      if r.get("SUBJECT") == "tcp listen queue"]:
                    found = time.monotonic() - t0
                if notified is None and [x for x in sink.notifications(RAISED)[received0:]
                                         if x.get("SUBJECT") == "tcp listen queue"]:
                    notified = time.monotonic() - t0
                time.sleep(0.2)
            stop.set()
            t.join(timeout=10)
            poller.stop = True
            poller.join(timeout=10)
            out["raised_s"], out["notified_s"] = found, notified
            out["get_ms"] = sorted(x * 1000 for x in poller.times)
            out["get_failed"] = poller.failed
        finally:
            for p in procs:
                p.kill()
                p.wait()
    return out


def pct(xs, q):
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def inside(args):
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    builds = [("this", os.path.abspath(args.builddir))]
    if args.orig_builddir:
        builds.insert(0, ("before", os.path.abspath(args.orig_builddir)))
    runs = {}
    for _ in range(args.rounds):
        for n in (0, 1000, 5000):
            for name, bdir in builds:
                runs.setdefault((name, n), []).append(one(bdir, n, args.measure))
    print("| build | nobody's sockets | CPU ms a sample, median (range) | sysUpTime.0 p50 / "
          "p95 / max ms | GETs failed | listen queue raised after s | notified after s |")
    print("|---|---|---|---|---|---|---|")
    for (name, n), v in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][0] != "before")):
        cpu = [x["cpu_ms"] for x in v]
        gets = sorted(g for x in v for g in x["get_ms"])
        raised = [x["raised_s"] for x in v]
        notified = [x["notified_s"] for x in v]

        def med(xs):
            ok = [x for x in xs if x is not None]
            if not ok:
                return "never"
            return "%.1f (%.1f-%.1f)%s" % (statistics.median(ok), min(ok), max(ok),
                                          "" if len(ok) == len(xs) else
                                          ", never %d of %d" % (len(xs) - len(ok), len(xs)))
        print("| %s | %d | %.2f (%.2f-%.2f) | %.1f / %.1f / %.1f | %d | %s | %s |" % (
            name, n, statistics.median(cpu), min(cpu), max(cpu), pct(gets, 0.5),
            pct(gets, 0.95), gets[-1] if gets else float("nan"),
            sum(x["get_failed"] for x in v), med(raised), med(notified)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--orig-builddir")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--measure", type=float, default=20.0, help="seconds of each measure")
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("flood_users.py: needs root (a network namespace, the user nobody)")
    argv = [sys.executable, __file__, "--inside", "--builddir", args.builddir, "--rounds",
            str(args.rounds), "--measure", str(args.measure)]
    if args.orig_builddir:
        argv += ["--orig-builddir", args.orig_builddir]
    sys.exit(subprocess.run(["unshare", "-n"] + argv).returncode)


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
