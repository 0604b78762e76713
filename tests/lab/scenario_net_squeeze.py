#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Softnet time_squeeze: the receive softirq runs out of budget
(net.core.netdev_budget) with packets left, on a host whose budget is
SMALL, and nothing is lost to it.

A squeeze is not a loss: the softirq comes back for what is left (or
ksoftirqd does), and only a queue that overflows meanwhile loses a packet.
On loopback and veth that queue is the CPU's backlog, whose overflow is
softnet's dropped (scenario_net_softnet.py); on a card it is the card's
ring (its rx_missed_errors in /sys/class/net/*/statistics), which
tunewatch does not read and the lab cannot fill (its traffic stays off the
card). Here the squeezes are provoked and the workload measured at the
host's budget and at SMALL, side by side: if nothing is lost and the
bursts are no slower, a higher budget would buy nothing, so check_dblock
must say OK and tunewatchd raise no softnet-squeeze finding (the rule
until this scenario warned on any squeeze: see ADVICE-REFERENCE).

netdev_budget is global (a fresh network namespace has no such file), so
the lab sets it on the host, journalled and restored, and tunewatchd runs
in the host's namespace; softnet_stat is global too. The traffic is in the
lab's namespace, as in scenario_net_softnet.py: its loopback cuts each
UDP_SEGMENT send into SEGMENTS packets, SENDS of them every 50 ms, all on
one CPU, read back by the same process; the backlog (the host's
netdev_max_backlog) holds a burst whole.
"""

import os
import socket
import subprocess
import time

import labcore
import labknobs
from labjournal import ns_argv

META = {"name": "net-squeeze", "kind": "healthy",
        "symptom": "softnet time_squeeze with nothing lost (netdev_budget 8)"}

SMALL = 8
SEGMENTS = 100
SEGMENT_BYTES = 500
SENDS = 5
PERIOD_S = 0.05
PHASE_S = 3.0
ROUNDS = 2		# host, SMALL, host, SMALL: interleaved
UDP_SEGMENT = 103		# linux/udp.h


def squeezes():
    """Per CPU, softnet_stat's time_squeeze (its third column)."""
    with open("/proc/net/softnet_stat") as fh:
        return sum(int(line.split()[2], 16) for line in fh if line.strip())


def phase(workload, seconds):
    """Squeezes a second and the workload's figures over the next seconds."""
    s0, t0 = squeezes(), time.monotonic()
    time.sleep(seconds)
    s1, t1 = squeezes(), time.monotonic()
    records = workload.since(t0, t1)
    assert records, "the workload reported nothing: %r" % workload.errors
    sent = sum(r["sent"] for r in records)
    got = sum(r["got"] for r in records)
    lat = sorted(r["ms"] for r in records if r["ms"] is not None)
    return {"squeeze_s": (s1 - s0) / (t1 - t0), "sent": sent, "lost": sent - got,
            "p50": lat[len(lat) // 2] if lat else None,
            "p90": lat[int(len(lat) * 0.9)] if lat else None}


def words(fs):
    """Phases at one budget in words: the squeezes and losses summed, the
    latencies each phase's."""
    return ("%s squeezes/s, %s of %s datagrams lost, a burst of %d read back in %s ms "
            "(median of each phase; p90 %s ms)" % (
                labcore.fmt(round(sum(f["squeeze_s"] for f in fs) / len(fs))),
                labcore.fmt(sum(f["lost"] for f in fs)), labcore.fmt(sum(f["sent"] for f in fs)),
                SEGMENTS * SENDS, " and ".join("%.2f" % f["p50"] for f in fs),
                " and ".join("%.2f" % f["p90"] for f in fs)))


def run(lab):
    ns = lab.netns()
    subprocess.run(ns_argv(ns, ["ip", "link", "set", "lo", "gso_max_segs", "1"]), check=True,
                   timeout=30)
    host = int(lab.read_sysctl("net.core.netdev_budget"))
    lab.result["workload"] = ("bursts of %d packets every %d ms into one CPU's backlog, read "
                              "back, at netdev_budget %d (the host's: %d)" % (
                                  SEGMENTS * SENDS, PERIOD_S * 1000, SMALL, host))
    with labcore.Stack(lab) as stack, \
            labcore.Workload(lab, labcore.workload_argv(__file__, "bursts"), ns=ns) as workload:
        time.sleep(1.0)
        at_host, at_small = [], []
        for _ in range(ROUNDS):
            lab.sysctl("net.core.netdev_budget", host)
            at_host.append(phase(workload, PHASE_S))
            lab.sysctl("net.core.netdev_budget", SMALL)
            t_small = time.monotonic()
            at_small.append(phase(workload, PHASE_S))
        lab.result.note("at the host's netdev_budget %d: %s" % (host, words(at_host)))
        lab.result.note("at netdev_budget %d: %s" % (SMALL, words(at_small)))
        # Past the hold-down and a whole window at SMALL.
        worst = "OK"
        order = ["OK", "WARNING", "CRITICAL", "UNKNOWN"]
        seen, advice = {}, {}
        while time.monotonic() < t_small + stack.window + 5:
            out = stack.check("check_dblock", ["--pool", "budget"])
            for a in labcore.advice_of(out):
                advice.setdefault(a.line, a)
            for x in stack.findings().values():
                seen.setdefault(x.get("ID"), x)
            if order.index(out.state) > order.index(worst):
                worst = out.state
                lab.result.note("check_dblock --pool budget said %s: %s" % (out.state,
                                                                          out.first))
            time.sleep(2.0)
        tail = phase(workload, 2.0)
        found = ["%s %s %s" % (x.get("ID"), x.get("SYMPTOM"), x.get("SUBJECT"))
                 for x in stack.findings().values() if x.get("SYMPTOM") == "softnet-squeeze"]
    lab.result["worst"] = {"check_dblock (budget pools)": worst}
    lab.result["findings"] = found
    assert min(f["squeeze_s"] for f in at_small) >= 20, \
        "netdev_budget %d gave too few squeezes: %s" % (SMALL, words(at_small))
    assert tail["squeeze_s"] >= 20, "the squeezes stopped before the checks were done"
    assert sum(f["lost"] for f in at_small + at_host) == 0, \
        "datagrams were lost: this is not the healthy case (%s; %s)" % (
            words(at_host), words(at_small))
    assert worst == "OK", "check_dblock said %s for squeezes that lost nothing" % worst
    assert not found, "tunewatchd raised %s for squeezes that lost nothing" % found
    labknobs.sort(lab, seen.values(), advice.values())


# ---- the workload, run inside the namespace -------------------------------


def bursts():
    rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 20)
    rx.bind(("127.0.0.1", 0))
    rx.setblocking(False)
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    tx.setsockopt(socket.IPPROTO_UDP, UDP_SEGMENT, SEGMENT_BYTES)
    payload = b"x" * (SEGMENTS * SEGMENT_BYTES)
    addr = rx.getsockname()
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    while True:
        t0 = time.monotonic()
        for _ in range(SENDS):
            tx.sendto(payload, addr)
        got, last = 0, None
        while time.monotonic() < t0 + PERIOD_S * 0.9:
            try:
                rx.recv(65536)
                got += 1
                last = time.monotonic()
            except BlockingIOError:
                if got >= SEGMENTS * SENDS:
                    break
                time.sleep(0.0005)
        labcore.emit(sent=SEGMENTS * SENDS, got=got,
                     ms=(last - t0) * 1000.0 if last is not None else None)
        time.sleep(max(0.0, t0 + PERIOD_S - time.monotonic()))


if __name__ == "__main__":
    labcore.main(META, run, {"bursts": bursts})
